// range_shapes_bench: the range filter on keys shaped as stores' keys are,
// both key codings side by side: empty ranges of w possible keys at the keys'
// last position, starting just after a key (correlated) or anywhere
// (uniform), on each shape of key_shapes.h. Prints the table of
// docs/range_filter.md ("Keys as stores shape them"):
//
//   bazel run -c opt //bench/range:range_shapes_bench --
//       --json=$PWD/docs/results/range_shapes.json
//
// Exit status 0; 1 when a range holding a key is answered empty or the JSON
// cannot be written; 2 for a bad flag value (a --json path it cannot open).

#include <cstdint>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "docs/renderers.h"
#include "filter/filter_spec.h"
#include "filter/range/range_filter.h"
#include "filter/spec_list.h"
#include "nlohmann/json.hpp"
#include "util/flag_check.h"
#include "util/key_shapes.h"

ABSL_FLAG(uint64_t, keys, 100000, "keys in each filter");
ABSL_FLAG(uint64_t, queries, 20000, "empty ranges per cell");
ABSL_FLAG(
    sstfilter::SpecList, filter,
    (sstfilter::SpecList{{"grafite:16", "grafite:16:codes=table"}}),
    "comma list of range filter specs (grafite:B, grafite:B:codes=table)");
ABSL_FLAG(uint64_t, seed, 42, "seed of the keys and ranges");
ABSL_FLAG(std::string, json, "", "also write the results to this file");

namespace sstfilter {
namespace bench {
namespace {

using key_shapes::DrawEmptyRange;
using key_shapes::DrawKeyNumbers;
using key_shapes::KeyNumber;
using key_shapes::KeyShape;
using key_shapes::KeyShapes;
using key_shapes::kMaxRangeWidth;
using key_shapes::NumberDraws;
using key_shapes::NumberRange;

using nlohmann::json;
constexpr int kErrorExit = 1;
constexpr int kUsageExit = 2;
constexpr uint64_t kWidths[] = {2, 16, kMaxRangeWidth};

// A filter built over keys, and the bytes its reader refers to.
struct Built {
  std::string filter;
  std::unique_ptr<RangeFilterReader> reader;
};

Built Build(const FilterPolicy& policy, const std::vector<std::string>& keys) {
  Built built;
  std::unique_ptr<FilterBuilder> builder = policy.NewBuilder();
  for (const std::string& key : keys) builder->AddKey(key);
  builder->Finish(&built.filter);
  built.reader = NewRangeFilterReader(built.filter);
  return built;
}

// The rows of one shape: for each filter, width and workload, the rate of
// empty ranges matched and the filter's bound for ranges of that width.
absl::StatusOr<json> MeasureShape(
    const KeyShape& shape,
    const std::vector<std::unique_ptr<const FilterPolicy>>& policies,
    NumberDraws* draws) {
  const std::vector<KeyNumber> numbers =
      DrawKeyNumbers(shape, absl::GetFlag(FLAGS_keys), draws);
  std::vector<std::string> keys;
  for (KeyNumber number : numbers) keys.push_back(shape.key(number));
  json rows = json::array();
  for (const auto& policy : policies) {
    const Built built = Build(*policy, keys);
    for (const std::string& key : keys) {
      if (!built.reader->RangeMayMatch(key, key)) {
        return absl::InternalError(absl::StrCat(policy->ToString(),
                                                ": a key of shape ", shape.name,
                                                " was answered absent"));
      }
    }
    for (uint64_t width : kWidths) {
      for (const bool correlated : {true, false}) {
        const uint64_t asked = absl::GetFlag(FLAGS_queries);
        uint64_t matched = 0;
        for (uint64_t i = 0; i < asked; ++i) {
          const NumberRange range =
              DrawEmptyRange(shape, numbers, width, correlated, draws);
          matched += built.reader->RangeMayMatch(shape.key(range.lo),
                                                 shape.key(range.hi));
        }
        json row;
        row["shape"] = shape.name;
        row["filter"] = policy->ToString();
        row["bits_per_key"] =
            8.0 * static_cast<double>(built.filter.size()) / keys.size();
        row["width"] = width;
        row["workload"] = correlated ? "correlated" : "uniform";
        row["fpp"] = static_cast<double>(matched) / asked;
        row["bound"] = built.reader->RangeFppBound(width);
        rows.push_back(row);
        std::cerr << absl::StrFormat("%-26s %-24s width %2d %-10s: %.4f%%\n",
                                     shape.name, policy->ToString(), width,
                                     row["workload"].get<std::string>(),
                                     100 * row["fpp"].get<double>());
      }
    }
  }
  return rows;
}

int Main(int argc, char** argv) {
  if (absl::Status flags = CheckFlags(argc, argv); !flags.ok()) {
    std::cerr << "range_shapes_bench: " << flags.message() << "\n";
    return kUsageExit;
  }
  absl::ParseCommandLine(argc, argv);
  std::vector<std::unique_ptr<const FilterPolicy>> policies;
  for (const std::string& spec : absl::GetFlag(FLAGS_filter).entries) {
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
        NewFilterPolicyFromString(spec);
    if (!policy.ok() || !(*policy)->Format().AnswersRanges()) {
      std::cerr << "range_shapes_bench: --filter: "
                << (policy.ok()
                        ? absl::StrCat("\"", spec, "\" is not a range filter")
                        : std::string(policy.status().message()))
                << "\n";
      return kUsageExit;
    }
    policies.push_back(*std::move(policy));
  }
  if (absl::GetFlag(FLAGS_keys) == 0 || absl::GetFlag(FLAGS_queries) == 0) {
    std::cerr << "range_shapes_bench: --keys and --queries must be positive\n";
    return kUsageExit;
  }
  // Opened before the run, so that a path it cannot write fails at once.
  const std::string json_path = absl::GetFlag(FLAGS_json);
  std::ofstream json_out;
  if (!json_path.empty()) {
    json_out.open(json_path);
    if (!json_out) {
      std::cerr << "range_shapes_bench: --json: cannot write '" << json_path
                << "'\n";
      return kUsageExit;
    }
  }
  NumberDraws draws(absl::GetFlag(FLAGS_seed));
  json result;
  result["command"] =
      "bazel run -c opt //bench/range:range_shapes_bench -- "
      "--json=$PWD/docs/results/range_shapes.json";
  result["keys"] = absl::GetFlag(FLAGS_keys);
  result["queries_per_cell"] = absl::GetFlag(FLAGS_queries);
  result["rows"] = json::array();
  for (const KeyShape& shape : KeyShapes()) {
    absl::StatusOr<json> rows = MeasureShape(shape, policies, &draws);
    if (!rows.ok()) {
      std::cerr << "range_shapes_bench: " << rows.status().message() << "\n";
      return kErrorExit;
    }
    for (json& row : *rows) result["rows"].push_back(std::move(row));
  }
  if (json_out.is_open() && !(json_out << result.dump(1) << "\n").flush()) {
    std::cerr << "range_shapes_bench: --json: cannot write '" << json_path
              << "'\n";
    return kErrorExit;
  }
  std::cout << docs::RangeShapesTable(result);
  return 0;
}

}  // namespace
}  // namespace bench
}  // namespace sstfilter

int main(int argc, char** argv) { return sstfilter::bench::Main(argc, argv); }
