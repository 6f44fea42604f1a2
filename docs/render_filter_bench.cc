// filter_bench's renderer (renderers.h): its --format=json rows, one JSON
// object per implementation and case, as one table whose times are also given
// as ratios to RocksDB's and LevelDB's filters in the same case.

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "docs/render_util.h"
#include "docs/renderers.h"
#include "nlohmann/json.hpp"

namespace sstfilter {
namespace docs {
namespace {

using Json = nlohmann::json;

// A figure of a row: absent when the field is missing, null or not a number.
std::optional<double> Number(const Json& row, const char* field) {
  const auto it = row.find(field);
  if (it == row.end() || !it->is_number()) return std::nullopt;
  const double v = it->get<double>();
  if (!std::isfinite(v)) return std::nullopt;
  return v;
}

std::string Text(const Json& row, const char* field) {
  const auto it = row.find(field);
  if (it == row.end() || it->is_null()) return "";
  if (it->is_string()) return it->get<std::string>();
  return it->dump();
}

// 10^4 for powers of ten from 100 on, else the number with thousands
// separators.
std::string Count(double n) {
  if (n >= 100) {
    const double e = std::round(std::log10(n));
    if (std::pow(10.0, e) == n) return absl::StrFormat("10^%.0f", e);
  }
  std::string digits = absl::StrFormat("%.0f", n);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) {
    digits.insert(static_cast<size_t>(i), ",");
  }
  return digits;
}

// A rate in percent, to three significant digits.
std::string Percent(std::optional<double> rate) {
  if (!rate.has_value()) return kMissingFigure;
  const double p = 100 * *rate;
  if (p == 0) return "0";
  const int decimals =
      std::max(0, 2 - static_cast<int>(std::floor(std::log10(std::abs(p)))));
  return absl::StrFormat("%.*f", decimals, p);
}

std::string Ratio(std::optional<double> v, std::optional<double> peer) {
  if (!v.has_value() || !peer.has_value() || *peer <= 0) return kMissingFigure;
  return absl::StrFormat("%.2f", *v / *peer);
}

// What makes rows comparable: the same keys, filters, size and placement.
std::string CaseKey(const Json& row) {
  return absl::StrCat(Text(row, "workload"), "|", Text(row, "keys"), "|",
                      Text(row, "filters"), "|", Text(row, "fpp_config"), "|",
                      Text(row, "placement"), "|", Text(row, "huge_pages"));
}

std::string CaseLabel(const Json& first) {
  const double keys = Number(first, "keys").value_or(0);
  const double filters = Number(first, "filters").value_or(1);
  std::string label = Text(first, "workload");
  if (filters > 1) {
    absl::StrAppend(&label, ", ", Count(filters), " filters of ", Count(keys),
                    " keys");
  } else {
    absl::StrAppend(&label, ", ", Count(keys), " keys");
  }
  if (const std::optional<double> fpp = Number(first, "fpp_config")) {
    absl::StrAppend(&label, ", fpp ", Percent(fpp), "%");
  } else if (const std::optional<double> bits =
                 Number(first, "bits_per_key_config")) {
    absl::StrAppend(&label, ", ", absl::StrFormat("%g", *bits), " bits/key");
  }
  const std::string placement = Text(first, "placement");
  if (!placement.empty() && placement != "natural") {
    absl::StrAppend(&label, ", at +", placement, " bytes");
  }
  const auto huge_pages = first.find("huge_pages");
  if (huge_pages != first.end() && huge_pages->is_boolean() &&
      huge_pages->get<bool>()) {
    absl::StrAppend(&label, ", huge pages");
  }
  return label;
}

// Splits rows into cases: a case ends where the case key changes or an
// implementation comes round again (a sweep over sizes).
std::vector<std::vector<Json>> Cases(const std::vector<Json>& rows) {
  std::vector<std::vector<Json>> cases;
  for (const Json& row : rows) {
    bool starts_case =
        cases.empty() || CaseKey(cases.back().front()) != CaseKey(row);
    if (!starts_case) {
      for (const Json& earlier : cases.back()) {
        if (Text(earlier, "impl") == Text(row, "impl")) starts_case = true;
      }
    }
    if (starts_case) cases.emplace_back();
    cases.back().push_back(row);
  }
  return cases;
}

const Json* Find(const std::vector<Json>& rows, absl::string_view impl) {
  for (const Json& row : rows) {
    if (Text(row, "impl") == impl) return &row;
  }
  return nullptr;
}

std::optional<double> PeerNumber(const Json* peer, const char* field) {
  if (peer == nullptr) return std::nullopt;
  return Number(*peer, field);
}

// A peer the ÷ columns divide by: its "impl" in the rows, and its column
// heading.
struct Peer {
  std::string impl;
  std::string heading;
};

// RocksDB's and LevelDB's Bloom filters, or the two options.against names.
std::array<Peer, 2> PeersOf(const FilterBenchOptions& options) {
  if (options.against.empty()) {
    return {Peer{kRocksDbBloomPeer, "RocksDB"},
            Peer{kLevelDbBloomPeer, "LevelDB"}};
  }
  return {Peer{options.against[0], absl::StrCat("`", options.against[0], "`")},
          Peer{options.against[1], absl::StrCat("`", options.against[1], "`")}};
}

absl::StatusOr<std::vector<Json>> ParseRows(absl::string_view rows_json) {
  absl::StatusOr<std::vector<Json>> rows =
      ParseJsonLines<Json>(rows_json, "filter_bench rows");
  if (!rows.ok()) return rows.status();
  for (size_t i = 0; i < rows->size(); ++i) {
    for (const char* field : {"impl", "workload", "keys"}) {
      if (!(*rows)[i].contains(field)) {
        return absl::InvalidArgumentError(
            absl::StrCat("row ", i + 1, " has no \"", field, "\""));
      }
    }
  }
  if (rows->empty()) return absl::InvalidArgumentError("no rows");
  return rows;
}

}  // namespace

absl::StatusOr<std::string> FilterBenchTable(
    absl::string_view rows_json, absl::string_view about_json,
    const FilterBenchOptions& options) {
  absl::StatusOr<std::vector<Json>> rows = ParseRows(rows_json);
  if (!rows.ok()) return rows.status();
  const Json about = Json::parse(about_json.begin(), about_json.end(), nullptr,
                                 /*allow_exceptions=*/false);
  if (!about.is_object() || !about.contains("command") ||
      !about.contains("machine")) {
    return absl::InvalidArgumentError(
        "the run's description needs \"command\" and \"machine\"");
  }

  // The run's date and commit stay in its JSON: a page says what was
  // measured, not when.
  std::string out;
  if (options.about_only) absl::StrAppend(&out, "Run: ");
  absl::StrAppend(&out, "`", Text(about, "command"), "` on ",
                  Text(about, "machine"), ".");
  if (options.about_only) return absl::StrCat(out, "\n");
  absl::StrAppend(&out, " ");
  const std::optional<double> reps = Number(rows->front(), "reps");
  absl::StrAppend(&out, "Times are ns per key",
                  reps.has_value()
                      ? absl::StrFormat(", medians of %g repetitions", *reps)
                      : "",
                  ": `absent` is one query of an absent key, `batch of 32` a "
                  "call with 32 keys, half of them present, and `build` making "
                  "the filter. ");
  const std::array<Peer, 2> peers = PeersOf(options);
  const std::string& first_name = peers[0].heading;
  const std::string& second_name = peers[1].heading;
  if (options.against.empty()) {
    absl::StrAppend(&out,
                    "The ÷ columns divide a time by the same figure of "
                    "RocksDB's FastLocalBloom (`",
                    peers[0].impl, "`) or LevelDB's Bloom filter (`",
                    peers[1].impl, "`)");
  } else {
    absl::StrAppend(&out, "The ÷ columns divide a time by the same figure of ",
                    first_name, " or ", second_name);
  }
  absl::StrAppend(&out,
                  " in the same case of the same run, so below 1 is "
                  "faster.\n\n");

  absl::StrAppend(&out, "| case | filter | bits/key | FP % | absent | ÷ ",
                  first_name, " | ÷ ", second_name, " | batch of 32 | ÷ ",
                  first_name, " | build | ÷ ", first_name, " | ÷ ", second_name,
                  " |\n",
                  "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
  for (const std::vector<Json>& rows_of_case : Cases(*rows)) {
    const Json* first_against = Find(rows_of_case, peers[0].impl);
    const Json* second_against = Find(rows_of_case, peers[1].impl);
    bool first = true;
    for (const Json& row : rows_of_case) {
      if (!options.impls.empty() &&
          std::find(options.impls.begin(), options.impls.end(),
                    Text(row, "impl")) == options.impls.end()) {
        continue;
      }
      const std::optional<double> absent = Number(row, "query_ns_negative");
      const std::optional<double> batch = Number(row, "query_ns_batched");
      const std::optional<double> build = Number(row, "build_ns_per_key");
      const std::vector<std::string> cells = {
          first ? CaseLabel(row) : "",
          absl::StrCat("`", Text(row, "impl"), "`"),
          Fixed(Number(row, "bits_per_key"), 2),
          Percent(Number(row, "fp_rate")),
          Fixed(absent, 1),
          Ratio(absent, PeerNumber(first_against, "query_ns_negative")),
          Ratio(absent, PeerNumber(second_against, "query_ns_negative")),
          Fixed(batch, 1),
          Ratio(batch, PeerNumber(first_against, "query_ns_batched")),
          Fixed(build, 1),
          Ratio(build, PeerNumber(first_against, "build_ns_per_key")),
          Ratio(build, PeerNumber(second_against, "build_ns_per_key")),
      };
      absl::StrAppend(&out, "| ", absl::StrJoin(cells, " | "), " |\n");
      first = false;
    }
  }
  return out;
}

absl::StatusOr<std::string> RenderFilterBench(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read) {
  FilterBenchOptions parsed;
  for (absl::string_view option : options) {
    if (option == "about") {
      parsed.about_only = true;
    } else if (absl::ConsumePrefix(&option, "impls=")) {
      parsed.impls = absl::StrSplit(option, ',', absl::SkipEmpty());
    } else if (absl::ConsumePrefix(&option, "against=")) {
      parsed.against = absl::StrSplit(option, ',', absl::SkipEmpty());
      if (parsed.against.size() != 2) {
        return absl::InvalidArgumentError(absl::StrCat(
            "filter_bench's against= takes two implementations, not '", option,
            "'"));
      }
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("filter_bench takes no option '", option, "'"));
    }
  }
  // RUN.json's command and machine: RUN.run.json.
  absl::string_view run = json_path;
  absl::ConsumeSuffix(&run, ".json");
  const std::string about_path = absl::StrCat(run, ".run.json");
  absl::StatusOr<std::string> rows = read(json_path);
  if (!rows.ok()) return rows.status();
  absl::StatusOr<std::string> about = read(about_path);
  if (!about.ok()) return about.status();
  absl::StatusOr<std::string> table = FilterBenchTable(*rows, *about, parsed);
  if (!table.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(json_path, ": ", table.status().message()));
  }
  return table;
}

}  // namespace docs
}  // namespace sstfilter
