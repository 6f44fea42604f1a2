#include "docs/render_util.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "util/medians.h"

namespace sstfilter {
namespace docs {

absl::StatusOr<nlohmann::json> ReadJsonObject(const std::string& path,
                                              const char* needs,
                                              const char* tool,
                                              const FileReader& read) {
  absl::StatusOr<std::string> text = read(path);
  if (!text.ok()) return text.status();
  nlohmann::json value = nlohmann::json::parse(*text, nullptr,
                                               /*allow_exceptions=*/false);
  if (value.is_discarded() || !value.is_object() || !value.contains(needs)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, " is not a ", tool, " --json file"));
  }
  return value;
}

std::string MeasuredOn(RowReader& first) {
  return absl::StrFormat("Measured on %s (%s).", first.String({"machine"}),
                         first.String({"cpu"}));
}

std::string Ratio(double a, double b) {
  return b == 0 ? kMissingFigure : absl::StrFormat("%.3f", a / b);
}

MeasuredRate ReadRate(RowReader& row, std::initializer_list<const char*> path,
                      std::initializer_list<const char*> by_repetition_path) {
  MeasuredRate rate;
  rate.median = row.Number(path);
  if (row.Has(by_repetition_path)) {
    rate.by_repetition = row.Numbers(by_repetition_path);
  }
  return rate;
}

std::string RateRatio(const MeasuredRate& a, const MeasuredRate& b) {
  const double paired = MedianOfRatios(a.by_repetition, b.by_repetition);
  if (paired == 0) return Ratio(a.median, b.median);
  return absl::StrFormat("%.3f", paired);
}

std::string Fixed(std::optional<double> v, int decimals) {
  if (!v.has_value()) return kMissingFigure;
  return absl::StrFormat("%.*f", decimals, *v);
}

std::vector<std::vector<const nlohmann::ordered_json*>> RunsByRelease(
    const std::vector<nlohmann::ordered_json>& rows) {
  std::vector<std::vector<const nlohmann::ordered_json*>> runs;
  std::string run_version;
  for (const nlohmann::ordered_json& row : rows) {
    const std::string version = RowReader(row).String({"rocksdb_version"});
    if (runs.empty() || version != run_version) runs.emplace_back();
    run_version = version;
    runs.back().push_back(&row);
  }
  return runs;
}

absl::Status NoOptions(const char* kind,
                       const std::vector<std::string>& options) {
  if (options.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(kind, " takes no option '", options.front(), "'"));
}

absl::StatusOr<std::vector<nlohmann::ordered_json>> ReadSectionRows(
    const char* kind, const char* section, const std::string& path,
    const std::vector<std::string>& options, const FileReader& read) {
  if (absl::Status none = NoOptions(kind, options); !none.ok()) return none;
  absl::StatusOr<std::string> text = read(path);
  if (!text.ok()) return text.status();
  absl::StatusOr<std::vector<nlohmann::ordered_json>> rows =
      ParseJsonLines<nlohmann::ordered_json>(*text, path);
  if (!rows.ok()) return rows.status();
  std::vector<nlohmann::ordered_json> of_section;
  for (nlohmann::ordered_json& row : *rows) {
    if (row.contains("section") && row["section"] == section) {
      of_section.push_back(std::move(row));
    }
  }
  if (of_section.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, " has no ", section, " rows"));
  }
  return of_section;
}

}  // namespace docs
}  // namespace sstfilter
