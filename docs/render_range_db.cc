// db_bench's range rows' renderer (renderers.h): for each run (a RocksDB
// release) and key shape, the data blocks each configuration reads per empty
// scan and its scans per second, and each range filter's reads against no
// filter's and RocksDB's prefix Bloom filter's.

#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "docs/render_util.h"
#include "docs/renderers.h"

namespace sstfilter {
namespace docs {
namespace {

using Json = nlohmann::ordered_json;

constexpr char kNoFilter[] = "none";

std::string Reads(double reads) { return absl::StrFormat("%.4f", reads); }

// One row's figures, read through RowReader: a field missing or of the
// wrong type reads as zero and is reported once the run is printed.
struct ScanRow {
  std::string config;
  std::string front;  // "" (the tables alone), or what reads in front of them
  std::string shape;
  double bits_per_key;
  double reads[2];  // correlated, uniform
  MeasuredRate rates[2];
  MeasuredRate found_rate;
};

ScanRow ReadRow(RowReader& row) {
  ScanRow r;
  r.config = row.String({"config"});
  r.front = row.Has({"front"}) ? row.String({"front"}) : "";
  r.shape = row.String({"key_shape"});
  r.bits_per_key = row.Number({"range_bits_per_key"});
  const char* kinds[] = {"correlated", "uniform"};
  for (int k = 0; k < 2; ++k) {
    r.reads[k] = row.Number({kinds[k], "data_reads_per_scan"});
    r.rates[k] = ReadRate(row, {kinds[k], "scans_per_second"},
                          {kinds[k], "scans_per_second_by_repetition"});
  }
  r.found_rate = ReadRate(row, {"nonempty", "scans_per_second"},
                          {"nonempty", "scans_per_second_by_repetition"});
  return r;
}

// The row of config (read through front) among rows, or nullptr.
const ScanRow* Find(const std::vector<ScanRow>& rows, const std::string& shape,
                    const std::string& config, const std::string& front = "") {
  for (const ScanRow& row : rows) {
    if (row.shape == shape && row.config == config && row.front == front) {
      return &row;
    }
  }
  return nullptr;
}

std::string ConfigCell(const ScanRow& r) {
  return r.front.empty()
             ? absl::StrCat("`", r.config, "`")
             : absl::StrCat("`", r.config, "` behind `", r.front, "`");
}

// The whole database behind a front against the same tables alone and
// against no filter: scans per second, and the share of empty scans that
// reached a data block (the front's false positives).
void PrintFronts(const std::vector<ScanRow>& rows, std::ostream& out) {
  bool header = false;
  for (const ScanRow& r : rows) {
    if (r.front.empty()) continue;
    const ScanRow* alone = Find(rows, r.shape, r.config);
    const ScanRow* none = Find(rows, r.shape, kNoFilter);
    if (alone == nullptr || none == nullptr) continue;
    if (!header) {
      out << "Whole database: the same tables read through the front, "
             "against them alone and against `none`.\n\n"
             "| keys | front | filter bits/key | empty scans/s: correlated / "
             "uniform | vs alone | vs `none` | found scans/s vs alone | "
             "empty scans reaching a data block |\n"
             "|---|---|---|---|---|---|---|---|\n";
      header = true;
    }
    out << absl::StrFormat(
        "| %s | %s | %.1f | %.0f / %.0f | %s / %s | %s / %s | %s | %.4f / "
        "%.4f |\n",
        r.shape, ConfigCell(r), r.bits_per_key, r.rates[0].median,
        r.rates[1].median, RateRatio(r.rates[0], alone->rates[0]),
        RateRatio(r.rates[1], alone->rates[1]),
        RateRatio(r.rates[0], none->rates[0]),
        RateRatio(r.rates[1], none->rates[1]),
        RateRatio(r.found_rate, alone->found_rate), r.reads[0], r.reads[1]);
  }
  if (header) out << "\n";
}

// One run's rows (one RocksDB release), in the order they come.
absl::Status PrintRun(const std::vector<const Json*>& json_rows,
                      std::ostream& out) {
  std::vector<RowReader> readers;
  for (const Json* row : json_rows) readers.emplace_back(*row);
  RowReader& first = readers.front();
  out << absl::StrFormat(
      "**RocksDB %s**, %d keys of each shape with %d-byte values, one sorted "
      "run; empty scans of %d possible keys at the keys' last position, "
      "%d of each kind per repetition, median of %d. %s\n\n",
      first.String({"rocksdb_version"}), first.Count({"keys"}),
      first.Count({"value_bytes"}), first.Count({"scan_width"}),
      first.Count({"lookups_per_rep"}), first.Count({"reps"}),
      MeasuredOn(first));
  out << "| keys | config | range bits/key | data blocks per empty scan: "
         "correlated / uniform | vs `none` | vs `lib:rocksdb.fastbloom` | "
         "empty scans/s: correlated / uniform | found scans/s |\n"
         "|---|---|---|---|---|---|---|---|\n";
  std::vector<ScanRow> rows;
  for (RowReader& reader : readers) rows.push_back(ReadRow(reader));
  for (const ScanRow& r : rows) {
    const auto against = [&](const char* config) {
      const ScanRow* base = Find(rows, r.shape, config);
      if (!r.front.empty()) return std::string("");
      if (base == nullptr || base == &r) return std::string("");
      return absl::StrFormat("%s / %s", Ratio(r.reads[0], base->reads[0]),
                             Ratio(r.reads[1], base->reads[1]));
    };
    out << absl::StrFormat(
        "| %s | %s | %.2f | %s / %s | %s | %s | %.0f / %.0f | %.0f |\n",
        r.shape, ConfigCell(r), r.bits_per_key, Reads(r.reads[0]),
        Reads(r.reads[1]), against(kNoFilter), against(kRocksDbBloomPeer),
        r.rates[0].median, r.rates[1].median, r.found_rate.median);
  }
  out << "\n";
  PrintFronts(rows, out);
  for (const RowReader& reader : readers) {
    if (!reader.missing().empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "a range row without a usable \"", reader.missing(),
          "\" (db_bench --sections=range --format=json writes it)"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::string> RenderRangeDb(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read) {
  absl::StatusOr<std::vector<Json>> rows =
      ReadSectionRows("range_db", "range", json_path, options, read);
  if (!rows.ok()) return rows.status();
  std::ostringstream out;
  for (const std::vector<const Json*>& run : RunsByRelease(*rows)) {
    if (absl::Status status = PrintRun(run, out); !status.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(json_path, ": ", status.message()));
    }
  }
  std::string markdown = out.str();
  markdown.pop_back();  // one newline at the end
  return markdown;
}

}  // namespace docs
}  // namespace sstfilter
