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
constexpr char kPrefixBloom[] = "lib:rocksdb.fastbloom";

std::string Reads(double reads) { return absl::StrFormat("%.4f", reads); }

std::string Ratio(double a, double b) {
  return b == 0 ? "–" : absl::StrFormat("%.3f", a / b);
}

// The row of config among rows, or nullptr.
const Json* Find(const std::vector<const Json*>& rows,
                 const std::string& config) {
  for (const Json* row : rows) {
    if ((*row)["config"] == config) return row;
  }
  return nullptr;
}

double ReadsOf(const Json& row, const char* kind) {
  return row[kind]["data_reads_per_scan"].get<double>();
}

// One run's rows (one RocksDB release), in the order they come.
void PrintRun(const std::vector<const Json*>& rows, std::ostream& out) {
  const Json& first = *rows.front();
  out << absl::StrFormat(
      "**RocksDB %s**, %d keys of each shape with %d-byte values, one sorted "
      "run; empty scans of %d possible keys at the keys' last position, "
      "%d of each kind per repetition, median of %d. Measured on %s (%s).\n\n",
      first["rocksdb_version"].get<std::string>(),
      first["keys"].get<uint64_t>(), first["value_bytes"].get<uint64_t>(),
      first["scan_width"].get<uint64_t>(),
      first["lookups_per_rep"].get<uint64_t>(), first["reps"].get<uint64_t>(),
      first["machine"].get<std::string>(), first["cpu"].get<std::string>());
  out << "| keys | config | range bits/key | data blocks per empty scan: "
         "correlated / uniform | vs `none` | vs `lib:rocksdb.fastbloom` | "
         "empty scans/s: correlated / uniform | found scans/s |\n"
         "|---|---|---|---|---|---|---|---|\n";
  std::vector<std::string> shapes;
  for (const Json* row : rows) {
    const std::string shape = (*row)["key_shape"].get<std::string>();
    if (shapes.empty() || shapes.back() != shape) shapes.push_back(shape);
  }
  for (const std::string& shape : shapes) {
    std::vector<const Json*> of_shape;
    for (const Json* row : rows) {
      if ((*row)["key_shape"] == shape) of_shape.push_back(row);
    }
    const Json* none = Find(of_shape, kNoFilter);
    const Json* bloom = Find(of_shape, kPrefixBloom);
    for (const Json* row : of_shape) {
      const Json& r = *row;
      const auto against = [&](const Json* base) {
        if (base == nullptr || base == row) return std::string("");
        return absl::StrFormat(
            "%s / %s",
            Ratio(ReadsOf(r, "correlated"), ReadsOf(*base, "correlated")),
            Ratio(ReadsOf(r, "uniform"), ReadsOf(*base, "uniform")));
      };
      out << absl::StrFormat(
          "| %s | `%s` | %.2f | %s / %s | %s | %s | %.0f / %.0f | %.0f |\n",
          shape, r["config"].get<std::string>(),
          r["range_bits_per_key"].get<double>(),
          Reads(ReadsOf(r, "correlated")), Reads(ReadsOf(r, "uniform")),
          against(none), against(bloom),
          r["correlated"]["scans_per_second"].get<double>(),
          r["uniform"]["scans_per_second"].get<double>(),
          r["nonempty"]["scans_per_second"].get<double>());
    }
  }
  out << "\n";
}

}  // namespace

absl::StatusOr<std::string> RenderRangeDb(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read) {
  absl::StatusOr<std::vector<Json>> rows =
      ReadSectionRows("range_db", "range", json_path, options, read);
  if (!rows.ok()) return rows.status();
  // Runs follow each other in the file, each of one RocksDB release.
  std::vector<std::vector<const Json*>> runs;
  std::string run_version;
  for (const Json& row : *rows) {
    for (const char* field :
         {"config", "key_shape", "rocksdb_version", "correlated", "uniform",
          "nonempty", "range_bits_per_key", "scan_width", "machine"}) {
      if (!row.contains(field)) {
        return absl::InvalidArgumentError(absl::StrCat(
            json_path, ": a range row without \"", field,
            "\" (db_bench --sections=range --format=json writes them)"));
      }
    }
    const std::string version = row["rocksdb_version"].get<std::string>();
    if (runs.empty() || version != run_version) runs.emplace_back();
    run_version = version;
    runs.back().push_back(&row);
  }
  std::ostringstream out;
  for (const std::vector<const Json*>& run : runs) PrintRun(run, out);
  std::string markdown = out.str();
  markdown.pop_back();  // one newline at the end
  return markdown;
}

}  // namespace docs
}  // namespace sstfilter
