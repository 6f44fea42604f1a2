// The renderer of Google Benchmark's JSON (renderers.h): one row per
// benchmark function, one column per argument, each cell the median CPU time
// of the repetitions.

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "docs/render_util.h"
#include "docs/renderers.h"
#include "nlohmann/json.hpp"

namespace sstfilter {
namespace docs {
namespace {

using Json = nlohmann::ordered_json;

// The aggregate a cell shows: what --benchmark_repetitions=N reports.
constexpr char kAggregate[] = "median";

// The cells of a run: function name -> argument -> CPU time, in the order
// the file lists them.
struct Cells {
  std::vector<std::string> functions;
  std::vector<std::string> arguments;
  std::map<std::pair<std::string, std::string>, double> times;
  std::string unit;
  uint64_t repetitions = 0;
};

template <typename T>
void AddOnce(std::vector<T>& list, const T& value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) {
    list.push_back(value);
  }
}

absl::StatusOr<Cells> MedianCells(const Json& benchmarks,
                                  const std::string& path) {
  Cells cells;
  for (const Json& entry : benchmarks) {
    RowReader row(entry);
    if (!row.Has({"aggregate_name"}) ||
        row.String({"aggregate_name"}) != kAggregate) {
      continue;
    }
    const std::string name = row.String({"run_name"});
    const double time = row.Number({"cpu_time"});
    const std::string unit = row.String({"time_unit"});
    const uint64_t repetitions = row.Count({"repetitions"});
    if (!row.missing().empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, ": a median lacks ", row.missing(), ": ", entry.dump()));
    }
    if (!cells.unit.empty() && unit != cells.unit) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": medians in both ", cells.unit, " and ", unit));
    }
    cells.unit = unit;
    cells.repetitions = repetitions;
    const std::vector<std::string> parts =
        absl::StrSplit(name, absl::MaxSplits('/', 1));
    const std::string argument = parts.size() > 1 ? parts[1] : "";
    AddOnce(cells.functions, parts[0]);
    AddOnce(cells.arguments, argument);
    cells.times[{parts[0], argument}] = time;
  }
  if (cells.functions.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path,
                     " has no medians; run with --benchmark_repetitions=N "
                     "--benchmark_format=json"));
  }
  return cells;
}

}  // namespace

absl::StatusOr<std::string> RenderGoogleBenchmark(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read) {
  if (absl::Status none = NoOptions("google_benchmark", options); !none.ok()) {
    return none;
  }
  absl::StatusOr<std::string> text = read(json_path);
  if (!text.ok()) return text.status();
  const Json result = Json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!result.is_object() || !result.contains("benchmarks") ||
      !result["benchmarks"].is_array() || !result.contains("context")) {
    return absl::InvalidArgumentError(absl::StrCat(
        json_path, " is not Google Benchmark's --benchmark_format=json"));
  }
  absl::StatusOr<Cells> cells = MedianCells(result["benchmarks"], json_path);
  if (!cells.ok()) return cells.status();
  RowReader context(result["context"]);
  const std::string measured_on = MeasuredOn(context);
  if (!context.missing().empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(json_path, ": the context lacks ", context.missing()));
  }
  std::ostringstream out;
  out << absl::StrFormat(
      "%s per operation, the median CPU time of %d "
      "repetitions. %s\n\n| benchmark |",
      cells->unit, cells->repetitions, measured_on);
  for (const std::string& argument : cells->arguments) {
    out << " " << argument << " |";
  }
  out << "\n|---|";
  for (size_t i = 0; i < cells->arguments.size(); ++i) out << "---|";
  out << "\n";
  for (const std::string& function : cells->functions) {
    out << "| `" << function << "` |";
    for (const std::string& argument : cells->arguments) {
      auto it = cells->times.find({function, argument});
      out << " "
          << (it == cells->times.end() ? "–"
                                       : absl::StrFormat("%.1f", it->second))
          << " |";
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace docs
}  // namespace sstfilter
