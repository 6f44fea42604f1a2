// db_bench's point and partitioned rows' renderers (renderers.h): for each
// run (a RocksDB release), each configuration's absent and present lookups
// per second and data blocks read, over RocksDB's own Bloom filter's and its
// Ribbon hybrid's in the same run and tree.

#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "docs/render_util.h"
#include "docs/renderers.h"

namespace sstfilter {
namespace docs {
namespace {

using Json = nlohmann::ordered_json;

constexpr char kRocksDbBloom[] = "lib:rocksdb.fastbloom";
constexpr char kRocksDbRibbonHybrid[] = "lib:rocksdb.ribbon_hybrid";

// The first field a run's rows lack, as an error naming the section's
// command; OK when none lacks one.
absl::Status Complete(const std::vector<RowReader>& readers,
                      const char* section) {
  for (const RowReader& reader : readers) {
    if (!reader.missing().empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "a ", section, " row without a usable \"", reader.missing(),
          "\" (db_bench --sections=", section, " --format=json writes it)"));
    }
  }
  return absl::OkStatus();
}

// Renders each run of the file's rows of section with print_run.
template <typename PrintRun>
absl::StatusOr<std::string> RenderRuns(const char* kind, const char* section,
                                       const std::string& json_path,
                                       const std::vector<std::string>& options,
                                       const FileReader& read,
                                       PrintRun print_run) {
  absl::StatusOr<std::vector<Json>> rows =
      ReadSectionRows(kind, section, json_path, options, read);
  if (!rows.ok()) return rows.status();
  std::ostringstream out;
  for (const std::vector<const Json*>& run : RunsByRelease(*rows)) {
    std::vector<RowReader> readers;
    for (const Json* row : run) readers.emplace_back(*row);
    print_run(readers, out);
    if (absl::Status status = Complete(readers, section); !status.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(json_path, ": ", status.message()));
    }
  }
  std::string markdown = out.str();
  markdown.pop_back();  // one newline at the end
  return markdown;
}

// One point row's figures.
struct PointRow {
  std::string config;
  std::string tree;
  double bits_per_key;
  double filter_bytes;
  double absent_rate;
  double absent_reads;
  double present_rate;
  bool direct;  // with the figures below
  double direct_rate;
  double direct_reads;
};

PointRow ReadPointRow(RowReader& row) {
  PointRow r;
  r.config = row.String({"config"});
  r.tree = row.String({"tree"});
  r.bits_per_key = row.Number({"bits_per_key"});
  r.filter_bytes = row.Number({"filter_bytes"});
  r.absent_rate = row.Number({"absent", "lookups_per_second"});
  r.absent_reads = row.Number({"absent", "data_reads_per_lookup"});
  r.present_rate = row.Number({"present", "lookups_per_second"});
  r.direct = row.Has({"direct_reads", "absent"});
  r.direct_rate =
      r.direct ? row.Number({"direct_reads", "absent", "lookups_per_second"})
               : 0;
  r.direct_reads =
      r.direct ? row.Number({"direct_reads", "absent", "data_reads_per_lookup"})
               : 0;
  return r;
}

const PointRow* FindPoint(const std::vector<PointRow>& rows,
                          const std::string& tree, const char* config) {
  for (const PointRow& row : rows) {
    if (row.tree == tree && row.config == config) return &row;
  }
  return nullptr;
}

// rows[i]'s figure over config's in the same tree, or "–".
template <typename Figure>
std::string Against(const std::vector<PointRow>& rows, const PointRow& r,
                    const char* config, Figure figure) {
  const PointRow* base = FindPoint(rows, r.tree, config);
  return base == nullptr ? "–" : Ratio(figure(r), figure(*base));
}

void PrintPointRun(std::vector<RowReader>& readers, std::ostream& out) {
  RowReader& first = readers.front();
  out << absl::StrFormat(
      "**RocksDB %s**, %d keys of 16 bytes with %d-byte values; %d lookups "
      "of each kind per repetition, median of %d. Measured on %s (%s).\n\n",
      first.String({"rocksdb_version"}), first.Count({"keys"}),
      first.Count({"value_bytes"}), first.Count({"lookups_per_rep"}),
      first.Count({"reps"}), first.String({"machine"}), first.String({"cpu"}));
  std::vector<PointRow> rows;
  for (size_t i = 0; i < readers.size(); ++i) {
    if (readers[i].String({"store"}) != "rocksdb") continue;
    rows.push_back(ReadPointRow(readers[i]));
  }
  const auto absent_rate = [](const PointRow& r) { return r.absent_rate; };
  const auto absent_reads = [](const PointRow& r) { return r.absent_reads; };
  const auto filter_bytes = [](const PointRow& r) { return r.filter_bytes; };
  out << "| config | tree | bits/key | filter bytes vs `" << kRocksDbBloom
      << "` | absent lookups/s | vs `" << kRocksDbBloom << "` | vs `"
      << kRocksDbRibbonHybrid << "` | data reads per absent lookup | vs `"
      << kRocksDbBloom
      << "` | present lookups/s |\n"
         "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const PointRow& r : rows) {
    out << absl::StrFormat(
        "| `%s` | %s | %.2f | %s | %.0f | %s | %s | %.4f | %s | %.0f |\n",
        r.config, r.tree, r.bits_per_key,
        Against(rows, r, kRocksDbBloom, filter_bytes), r.absent_rate,
        Against(rows, r, kRocksDbBloom, absent_rate),
        Against(rows, r, kRocksDbRibbonHybrid, absent_rate), r.absent_reads,
        Against(rows, r, kRocksDbBloom, absent_reads), r.present_rate);
  }
  out << "\n";
  bool header = false;
  const auto direct_rate = [](const PointRow& r) { return r.direct_rate; };
  for (const PointRow& r : rows) {
    if (!r.direct) continue;
    if (!header) {
      out << "With direct reads (a block cache, no page cache):\n\n"
             "| config | tree | absent lookups/s | vs `"
          << kRocksDbBloom << "` | data reads per absent lookup |\n"
          << "|---|---|---|---|---|\n";
      header = true;
    }
    const PointRow* base = FindPoint(rows, r.tree, kRocksDbBloom);
    out << absl::StrFormat("| `%s` | %s | %.0f | %s | %.4f |\n", r.config,
                           r.tree, r.direct_rate,
                           base == nullptr || !base->direct
                               ? "–"
                               : Ratio(direct_rate(r), direct_rate(*base)),
                           r.direct_reads);
  }
  if (header) out << "\n";
}

void PrintPartitionedRun(std::vector<RowReader>& readers, std::ostream& out) {
  RowReader& first = readers.front();
  out << absl::StrFormat(
      "**RocksDB %s**, partitioned filters: %d keys of 16 bytes with %d-byte "
      "values, partitions of %d bytes in a block cache of %d bytes; %d "
      "absent lookups per repetition, median of %d. Measured on %s (%s).\n\n",
      first.String({"rocksdb_version"}), first.Count({"keys"}),
      first.Count({"value_bytes"}), first.Count({"metadata_block_size"}),
      first.Count({"block_cache_bytes"}), first.Count({"lookups_per_rep"}),
      first.Count({"reps"}), first.String({"machine"}), first.String({"cpu"}));
  out << "| config | bits/key | absent lookups/s | vs `" << kRocksDbBloom
      << "` | filter bytes inserted per absent lookup | vs `" << kRocksDbBloom
      << "` | data reads per absent lookup |\n"
         "|---|---|---|---|---|---|---|\n";
  double base_rate = 0;
  double base_inserted = 0;
  for (RowReader& row : readers) {
    if (row.String({"config"}) == kRocksDbBloom) {
      base_rate = row.Number({"absent", "lookups_per_second"});
      base_inserted =
          row.Number({"absent", "filter_bytes_inserted_per_lookup"});
    }
  }
  for (RowReader& row : readers) {
    const double rate = row.Number({"absent", "lookups_per_second"});
    const double inserted =
        row.Number({"absent", "filter_bytes_inserted_per_lookup"});
    out << absl::StrFormat("| `%s` | %.2f | %.0f | %s | %.0f | %s | %.4f |\n",
                           row.String({"config"}), row.Number({"bits_per_key"}),
                           rate, Ratio(rate, base_rate), inserted,
                           Ratio(inserted, base_inserted),
                           row.Number({"absent", "data_reads_per_lookup"}));
  }
  out << "\n";
}

}  // namespace

absl::StatusOr<std::string> RenderDbPoint(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read) {
  return RenderRuns("db_point", "point", json_path, options, read,
                    PrintPointRun);
}

absl::StatusOr<std::string> RenderDbPartitioned(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read) {
  return RenderRuns("db_partitioned", "partitioned", json_path, options, read,
                    PrintPartitionedRun);
}

}  // namespace docs
}  // namespace sstfilter
