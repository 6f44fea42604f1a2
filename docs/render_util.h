// What the renderers of renderers.h share: reading a file of one JSON object
// and refusing options a kind does not take.

#ifndef SSTFILTER_DOCS_RENDER_UTIL_H_
#define SSTFILTER_DOCS_RENDER_UTIL_H_

#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "docs/renderers.h"
#include "nlohmann/json.hpp"

namespace sstfilter {
namespace docs {

// The JSON object of the file at path, which must have the field `needs`:
// else InvalidArgumentError naming the file and `tool`, whose --json wrote it.
absl::StatusOr<nlohmann::json> ReadJsonObject(const std::string& path,
                                              const char* needs,
                                              const char* tool,
                                              const FileReader& read);

// The JSON objects of text, one per line (blank lines skipped), as the
// benchmarks' --format=json prints them; InvalidArgumentError
// "<source>:<line>: not a JSON object" for any other line. Json is
// nlohmann::json or nlohmann::ordered_json.
template <typename Json>
absl::StatusOr<std::vector<Json>> ParseJsonLines(absl::string_view text,
                                                 absl::string_view source) {
  std::vector<Json> rows;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty()) continue;
    Json row = Json::parse(line.begin(), line.end(), nullptr,
                           /*allow_exceptions=*/false);
    if (!row.is_object()) {
      return absl::InvalidArgumentError(
          absl::StrCat(source, ":", line_number, ": not a JSON object"));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

// db_bench's --format=json rows of one section from the file at path, in
// the order they come; a renderer of that section, `kind`, takes no options.
// InvalidArgumentError for an option, a line that is not a JSON object, or no
// row of the section.
absl::StatusOr<std::vector<nlohmann::ordered_json>> ReadSectionRows(
    const char* kind, const char* section, const std::string& path,
    const std::vector<std::string>& options, const FileReader& read);

// Reads a JSON row's fields by path; the first one missing or of the wrong
// type is remembered, and reads after it give zero values.
class RowReader {
 public:
  explicit RowReader(const nlohmann::ordered_json& row) : row_(row) {}

  const nlohmann::ordered_json& Get(std::initializer_list<const char*> path) {
    const nlohmann::ordered_json* at = Find(path);
    if (at == nullptr) {
      Missing(path);
      return null_;
    }
    return *at;
  }
  // Whether the row has the field: for fields that older rows lack.
  bool Has(std::initializer_list<const char*> path) const {
    return Find(path) != nullptr;
  }
  double Number(std::initializer_list<const char*> path) {
    const nlohmann::ordered_json& value = Get(path);
    if (!value.is_number()) {
      Missing(path);
      return 0;
    }
    return value.get<double>();
  }
  uint64_t Count(std::initializer_list<const char*> path) {
    const nlohmann::ordered_json& value = Get(path);
    if (!value.is_number_unsigned()) {
      Missing(path);
      return 0;
    }
    return value.get<uint64_t>();
  }
  // An array of numbers; empty, and remembered as missing, for anything else.
  std::vector<double> Numbers(std::initializer_list<const char*> path) {
    const nlohmann::ordered_json& value = Get(path);
    std::vector<double> numbers;
    if (value.is_array()) {
      for (const nlohmann::ordered_json& number : value) {
        if (!number.is_number()) break;
        numbers.push_back(number.get<double>());
      }
      if (numbers.size() == value.size()) return numbers;
    }
    Missing(path);
    return {};
  }
  std::string String(std::initializer_list<const char*> path) {
    const nlohmann::ordered_json& value = Get(path);
    if (!value.is_string()) {
      Missing(path);
      return "";
    }
    return value.get<std::string>();
  }
  // The first path missing, "" when none.
  const std::string& missing() const { return missing_; }

 private:
  const nlohmann::ordered_json* Find(
      std::initializer_list<const char*> path) const {
    const nlohmann::ordered_json* at = &row_;
    for (const char* name : path) {
      if (!at->is_object() || !at->contains(name)) return nullptr;
      at = &(*at)[name];
    }
    return at;
  }
  void Missing(std::initializer_list<const char*> path) {
    if (missing_.empty()) missing_ = absl::StrJoin(path, ".");
  }

  const nlohmann::ordered_json& row_;
  const nlohmann::ordered_json null_;
  std::string missing_;
};

// The peers the pages compare with, by the names benchmarks print.
inline constexpr char kRocksDbBloomPeer[] = "lib:rocksdb.fastbloom";
inline constexpr char kRocksDbRibbonHybridPeer[] = "lib:rocksdb.ribbon_hybrid";
inline constexpr char kLevelDbBloomPeer[] = "lib:leveldb.bloom";

// A db_bench run's closing words, from its first row: "Measured on MACHINE
// (CPU)."
std::string MeasuredOn(RowReader& first);

// What a table shows where a figure is missing: the benchmark wrote none,
// or null for a timing too short to measure.
inline constexpr char kMissingFigure[] = "–";

// a / b with three decimals, or kMissingFigure when b is zero.
std::string Ratio(double a, double b);

// A rate a benchmark printed: the median over its repetitions, and each
// repetition's rate where the row has them (rows written before they were
// recorded do not).
struct MeasuredRate {
  double median = 0;
  std::vector<double> by_repetition;
};

// The rate at path (a number) and its repetitions at by_repetition_path (an
// array of numbers, optional: a row may lack it, but not hold anything else).
MeasuredRate ReadRate(RowReader& row, std::initializer_list<const char*> path,
                      std::initializer_list<const char*> by_repetition_path);

// a's rate over b's, as db_bench's ratio lines give it: the median of the
// per-repetition ratios (MedianOfRatios, util/medians.h) when both have
// rates of the same repetitions, else the ratio of the medians; three
// decimals, or kMissingFigure when b has none.
std::string RateRatio(const MeasuredRate& a, const MeasuredRate& b);

// v with `decimals` decimals, or kMissingFigure without one.
std::string Fixed(std::optional<double> v, int decimals);

// The rows of each run of db_bench in a file, in the order they come: a run
// ends where the RocksDB release ("rocksdb_version") changes.
std::vector<std::vector<const nlohmann::ordered_json*>> RunsByRelease(
    const std::vector<nlohmann::ordered_json>& rows);

// InvalidArgumentError naming the first option that `kind` does not take.
absl::Status NoOptions(const char* kind,
                       const std::vector<std::string>& options);

}  // namespace docs
}  // namespace sstfilter

#endif  // SSTFILTER_DOCS_RENDER_UTIL_H_
