// range_shapes_bench: the range filter on keys shaped as stores' keys are,
// both key codings side by side: empty ranges of w possible keys at the keys'
// last position, starting just after a key (correlated) or anywhere
// (uniform), for random 16-byte keys, YCSB's "user" and 19 digits, a tenant's
// prefix and 16 digits, and milliseconds under a shared date. Prints the
// table of docs/range_filter.md ("Keys as stores shape them"):
//
//   bazel run -c opt //bench/range:range_shapes_bench --
//       --json=$PWD/docs/results/range_shapes.json
//
// Exit status 0; 1 when a range holding a key is answered empty or the JSON
// cannot be written; 2 for a bad flag value (a --json path it cannot open).

#include <algorithm>
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
#include "util/mix64.h"

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

using nlohmann::json;
using Number = unsigned __int128;
constexpr int kErrorExit = 1;
constexpr int kUsageExit = 2;
constexpr uint64_t kWidths[] = {2, 16, 64};

struct Shape {
  const char* name;
  std::string (*key)(Number number);
  Number max_number;  // keys are numbers below it
};

std::string Random16(Number number) {
  std::string key;
  for (int byte = 15; byte >= 0; --byte) {
    key.push_back(static_cast<char>(number >> (8 * byte)));
  }
  return key;
}
std::string Ycsb(Number number) {
  return absl::StrFormat("user%019u", static_cast<uint64_t>(number));
}
std::string Tenant(Number number) {
  return absl::StrFormat("tenant000042/%016u", static_cast<uint64_t>(number));
}
std::string Timestamped(Number number) {
  const uint64_t ms = static_cast<uint64_t>(number);
  return absl::StrFormat("event/2026-11-28T%02u:%02u:%02u.%03u",
                         ms / 3'600'000 % 24, ms / 60'000 % 60, ms / 1000 % 60,
                         ms % 1000);
}

const Shape kShapes[] = {
    {"random 16 bytes", &Random16, ~Number{0}},
    {"user + 19 digits", &Ycsb, Number{10'000'000'000'000'000'000ull}},
    {"tenant000042/ + 16 digits", &Tenant, Number{10'000'000'000'000'000ull}},
    {"event/<date>T<time> (ms)", &Timestamped, Number{86'400'000}},
};

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() { return Mix64(state_ += 0x9e3779b97f4a7c15ull); }
  Number Below(Number bound) {
    const Number wide = (Number{Next()} << 64) | Next();
    return bound == ~Number{0} ? wide : wide % bound;
  }

 private:
  uint64_t state_;
};

bool AnyIn(const std::vector<Number>& sorted, Number lo, Number hi) {
  auto it = std::lower_bound(sorted.begin(), sorted.end(), lo);
  return it != sorted.end() && *it <= hi;
}

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
    const Shape& shape,
    const std::vector<std::unique_ptr<const FilterPolicy>>& policies,
    Rng* rng) {
  std::vector<Number> numbers;
  for (uint64_t i = 0; i < absl::GetFlag(FLAGS_keys); ++i) {
    numbers.push_back(rng->Below(shape.max_number - 128));
  }
  std::sort(numbers.begin(), numbers.end());
  numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
  std::vector<std::string> keys;
  for (Number number : numbers) keys.push_back(shape.key(number));
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
        uint64_t asked = 0, matched = 0;
        while (asked < absl::GetFlag(FLAGS_queries)) {
          const Number lo = correlated
                                ? numbers[rng->Next() % numbers.size()] + 1
                                : rng->Below(shape.max_number - 128);
          const Number hi = lo + width - 1;
          if (AnyIn(numbers, lo, hi)) continue;
          ++asked;
          matched += built.reader->RangeMayMatch(shape.key(lo), shape.key(hi));
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
  Rng rng(absl::GetFlag(FLAGS_seed));
  json result;
  result["command"] =
      "bazel run -c opt //bench/range:range_shapes_bench -- "
      "--json=$PWD/docs/results/range_shapes.json";
  result["keys"] = absl::GetFlag(FLAGS_keys);
  result["queries_per_cell"] = absl::GetFlag(FLAGS_queries);
  result["rows"] = json::array();
  for (const Shape& shape : kShapes) {
    absl::StatusOr<json> rows = MeasureShape(shape, policies, &rng);
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
