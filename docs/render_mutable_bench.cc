// mutable_bench's renderer (renderers.h): per key count, the mutable Bloom
// filter's add and query costs beside the native filter built from the same
// keys, and their ratios against the benchmark's targets.

#include <array>
#include <cstdint>
#include <initializer_list>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "docs/render_util.h"
#include "docs/renderers.h"
#include "nlohmann/json.hpp"

namespace sstfilter {
namespace docs {
namespace {

using Json = nlohmann::ordered_json;

// A figure times `scale` with `decimals` decimals, or kMissingFigure where
// the benchmark wrote null (a timing too short to measure).
std::string Figure(RowReader& row, std::initializer_list<const char*> path,
                   int decimals, double scale = 1) {
  if (row.Has(path) && row.Get(path).is_null()) return Fixed({}, decimals);
  return Fixed(scale * row.Number(path), decimals);
}

// The cost table's six ns-per-key columns, by field of a row's side
// ("immutable" or "mutable"); nullptr for a column the side has no cost in.
using CostFields = std::array<const char*, 6>;
constexpr CostFields kNativeCosts = {
    "build_ns_per_key", nullptr, nullptr, nullptr, "query_ns", "batch_ns"};
constexpr CostFields kMutableCosts = {"add_ns_per_key",
                                      "batch_add_ns_per_key",
                                      "single_writer_add_ns_per_key",
                                      "single_writer_batch_add_ns_per_key",
                                      "query_ns",
                                      "batch_ns"};

// One line of the cost table: the filter named by the row's `name` field,
// its side's size, false-positive rate and costs.
std::string CostLine(RowReader& row, int run, const char* name,
                     const char* side, const CostFields& costs) {
  std::string line = absl::StrFormat("| %d | %d | `%s` | %.2f | %.3f |", run,
                                     row.Count({"keys"}), row.String({name}),
                                     row.Number({side, "bits_per_key"}),
                                     100 * row.Number({side, "fp_rate"}));
  for (const char* cost : costs) {
    absl::StrAppend(
        &line, " ",
        cost == nullptr ? kMissingFigure : Figure(row, {side, cost}, 1), " |");
  }
  return line + "\n";
}

}  // namespace

absl::StatusOr<std::string> RenderMutableBench(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read) {
  if (absl::Status none = NoOptions("mutable_bench", options); !none.ok()) {
    return none;
  }
  absl::StatusOr<std::string> text = read(json_path);
  if (!text.ok()) return text.status();
  absl::StatusOr<std::vector<Json>> rows =
      ParseJsonLines<Json>(*text, json_path);
  if (!rows.ok()) return rows.status();
  if (rows->empty()) {
    return absl::InvalidArgumentError(absl::StrCat(json_path, " has no rows"));
  }
  std::vector<RowReader> readers(rows->begin(), rows->end());
  RowReader& first = readers.front();
  // Runs of the benchmark appended to one file: a run ends where a key count
  // comes again.
  std::vector<int> run_of_row;
  std::set<uint64_t> keys_in_run;
  int run = 1;
  for (RowReader& row : readers) {
    if (!keys_in_run.insert(row.Count({"keys"})).second) {
      ++run;
      keys_in_run = {row.Count({"keys"})};
    }
    run_of_row.push_back(run);
  }
  std::ostringstream out;
  out << absl::StrFormat(
      "Random 16-byte keys; each figure a median of %d repetitions, queries "
      "of %d fresh absent keys. %s\n\n",
      first.Count({"reps"}), first.Count({"queries"}), MeasuredOn(first));
  out << "ns per key: `build / Add` is the native filter's build from the "
         "keys' hashes, or one `Add`; `1-writer` the forms for a single "
         "writing thread.\n\n"
         "| run | keys | filter | bits/key | FP % | build / Add | batch Add | "
         "1-writer Add | 1-writer batch | query | batch query |\n"
         "|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (size_t i = 0; i < readers.size(); ++i) {
    out << CostLine(readers[i], run_of_row[i], "native_filter", "immutable",
                    kNativeCosts)
        << CostLine(readers[i], run_of_row[i], "filter", "mutable",
                    kMutableCosts);
  }
  out << absl::StrFormat(
      "\nThe mutable filter over the native one (below 1 is faster; the "
      "benchmark's targets: `Add` ≤ %.1f× the build, queries ≤ %.1f×), and "
      "millions of `Add`s a second from one and two threads (the last, two "
      "threads' keys over the wall time):\n\n"
      "| run | keys | Add ÷ build | batch Add ÷ build | 1-writer Add ÷ build | "
      "1-writer batch ÷ build | query ÷ | batch query ÷ | M adds/s, 1 thread "
      "| M adds/s, 2 threads | M adds/s, 2 threads, wall |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|\n",
      first.Number({"ratios", "add_vs_build_target"}),
      first.Number({"ratios", "query_target"}));
  for (size_t i = 0; i < readers.size(); ++i) {
    RowReader& row = readers[i];
    out << absl::StrFormat(
        "| %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
        run_of_row[i], row.Count({"keys"}),
        Figure(row, {"ratios", "add_vs_build"}, 2),
        Figure(row, {"ratios", "batch_add_vs_build"}, 2),
        Figure(row, {"ratios", "single_writer_add_vs_build"}, 2),
        Figure(row, {"ratios", "single_writer_batch_add_vs_build"}, 2),
        Figure(row, {"ratios", "query"}, 2),
        Figure(row, {"ratios", "batch"}, 2),
        Figure(row, {"mutable", "adds_per_second_1_thread"}, 1, 1e-6),
        Figure(row, {"mutable", "adds_per_second_2_threads"}, 1, 1e-6),
        Figure(row, {"mutable", "adds_per_second_2_threads_wall"}, 1, 1e-6));
  }
  for (RowReader& row : readers) {
    if (!row.missing().empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(json_path, ": a row of ", row.Count({"keys"}),
                       " keys lacks ", row.missing()));
    }
  }
  return out.str();
}

}  // namespace docs
}  // namespace sstfilter
