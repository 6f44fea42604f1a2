// The renderer of Google Benchmark's JSON (renderers.h): the median CPU time
// of each benchmark's repetitions, as a grid (a row per function, a column
// per argument) or, with the option labels, a table per function of its
// cases by the labels the program gave them.

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
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
constexpr char kLabelsOption[] = "labels";

// One benchmark's median.
struct Median {
  std::string function;  // run_name up to its first '/'
  std::string argument;  // the rest of run_name
  std::string label;
  std::pair<uint64_t, uint64_t> order;  // as the program registered it
  double cpu_time = 0;
  std::optional<double> bytes_per_second;
};

struct Medians {
  std::vector<Median> rows;  // in the order the program registered them
  std::string unit;
  uint64_t repetitions = 0;
};

absl::StatusOr<Medians> ReadMedians(const Json& benchmarks,
                                    const std::string& path) {
  Medians medians;
  for (const Json& entry : benchmarks) {
    RowReader row(entry);
    if (!row.Has({"aggregate_name"}) ||
        row.String({"aggregate_name"}) != kAggregate) {
      continue;
    }
    Median median;
    const std::vector<std::string> parts =
        absl::StrSplit(row.String({"run_name"}), absl::MaxSplits('/', 1));
    median.function = parts[0];
    median.argument = parts.size() > 1 ? parts[1] : "";
    if (row.Has({"label"})) median.label = row.String({"label"});
    median.order = {row.Count({"family_index"}),
                    row.Count({"per_family_instance_index"})};
    median.cpu_time = row.Number({"cpu_time"});
    if (row.Has({"bytes_per_second"})) {
      median.bytes_per_second = row.Number({"bytes_per_second"});
    }
    const std::string unit = row.String({"time_unit"});
    medians.repetitions = row.Count({"repetitions"});
    if (!row.missing().empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, ": a median lacks ", row.missing(), ": ", entry.dump()));
    }
    if (!medians.unit.empty() && unit != medians.unit) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, ": medians in both ", medians.unit, " and ", unit));
    }
    medians.unit = unit;
    medians.rows.push_back(std::move(median));
  }
  if (medians.rows.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path,
                     " has no medians; run with --benchmark_repetitions=N "
                     "--benchmark_format=json"));
  }
  std::stable_sort(
      medians.rows.begin(), medians.rows.end(),
      [](const Median& a, const Median& b) { return a.order < b.order; });
  return medians;
}

template <typename T>
void AddOnce(std::vector<T>& list, const T& value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) {
    list.push_back(value);
  }
}

// A row per function, a column per argument.
void PrintGrid(const Medians& medians, std::ostream& out) {
  std::vector<std::string> functions;
  std::vector<std::string> arguments;
  std::map<std::pair<std::string, std::string>, double> times;
  for (const Median& median : medians.rows) {
    AddOnce(functions, median.function);
    AddOnce(arguments, median.argument);
    times[{median.function, median.argument}] = median.cpu_time;
  }
  out << "| benchmark |";
  for (const std::string& argument : arguments) out << " " << argument << " |";
  out << "\n|---|";
  for (size_t i = 0; i < arguments.size(); ++i) out << "---|";
  out << "\n";
  for (const std::string& function : functions) {
    out << "| `" << function << "` |";
    for (const std::string& argument : arguments) {
      auto it = times.find({function, argument});
      out << " "
          << (it == times.end() ? "–" : absl::StrFormat("%.1f", it->second))
          << " |";
    }
    out << "\n";
  }
}

// A table per function: each case by its label, its time, and the bytes a
// second it processed where the program counted them.
void PrintByLabel(const Medians& medians, std::ostream& out) {
  std::vector<std::string> functions;
  for (const Median& median : medians.rows) AddOnce(functions, median.function);
  for (const std::string& function : functions) {
    bool has_bytes = false;
    for (const Median& median : medians.rows) {
      if (median.function == function && median.bytes_per_second) {
        has_bytes = true;
      }
    }
    out << "`" << function << "`:\n\n| case | " << medians.unit << " |"
        << (has_bytes ? " GB/s |" : "") << "\n|---|---|"
        << (has_bytes ? "---|" : "") << "\n";
    for (const Median& median : medians.rows) {
      if (median.function != function) continue;
      out << "| " << median.label << " | "
          << absl::StrFormat("%.1f", median.cpu_time) << " |";
      if (has_bytes) {
        out << " "
            << (median.bytes_per_second
                    ? absl::StrFormat("%.1f", *median.bytes_per_second / 1e9)
                    : "–")
            << " |";
      }
      out << "\n";
    }
    if (function != functions.back()) out << "\n";
  }
}

}  // namespace

absl::StatusOr<std::string> RenderGoogleBenchmark(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read) {
  bool by_label = false;
  for (const std::string& option : options) {
    if (option != kLabelsOption) {
      return absl::InvalidArgumentError(
          absl::StrCat("google_benchmark takes the option ", kLabelsOption,
                       " only, not '", option, "'"));
    }
    by_label = true;
  }
  absl::StatusOr<std::string> text = read(json_path);
  if (!text.ok()) return text.status();
  const Json result = Json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!result.is_object() || !result.contains("benchmarks") ||
      !result["benchmarks"].is_array() || !result.contains("context")) {
    return absl::InvalidArgumentError(absl::StrCat(
        json_path, " is not Google Benchmark's --benchmark_format=json"));
  }
  absl::StatusOr<Medians> medians =
      ReadMedians(result["benchmarks"], json_path);
  if (!medians.ok()) return medians.status();
  RowReader context(result["context"]);
  const std::string measured_on = MeasuredOn(context);
  if (!context.missing().empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(json_path, ": the context lacks ", context.missing()));
  }
  std::ostringstream out;
  out << absl::StrFormat(
      "%s per operation, the median CPU time of %d repetitions. %s\n\n",
      medians->unit, medians->repetitions, measured_on);
  if (by_label) {
    PrintByLabel(*medians, out);
  } else {
    PrintGrid(*medians, out);
  }
  return out.str();
}

}  // namespace docs
}  // namespace sstfilter
