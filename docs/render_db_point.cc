// db_bench's point, partitioned and prefix rows' renderers (renderers.h):
// for each run (a RocksDB release), each configuration's figures over those
// of RocksDB's own filters (or of no filter) in the same run and tree.

#include <algorithm>
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

constexpr char kNoFilter[] = "none";

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
  MeasuredRate absent_rate;
  double absent_reads;
  double present_rate;
  bool direct;  // with the figures below
  MeasuredRate direct_rate;
  double direct_reads;
  double direct_metadata_misses;  // filter and index blocks read
};

PointRow ReadPointRow(RowReader& row) {
  PointRow r;
  r.config = row.String({"config"});
  r.tree = row.String({"tree"});
  r.bits_per_key = row.Number({"bits_per_key"});
  r.filter_bytes = row.Number({"filter_bytes"});
  r.absent_rate = ReadRate(row, {"absent", "lookups_per_second"},
                           {"absent", "lookups_per_second_by_repetition"});
  r.absent_reads = row.Number({"absent", "data_reads_per_lookup"});
  r.present_rate = row.Number({"present", "lookups_per_second"});
  r.direct = row.Has({"direct_reads", "absent"});
  if (r.direct) {
    r.direct_rate = ReadRate(
        row, {"direct_reads", "absent", "lookups_per_second"},
        {"direct_reads", "absent", "lookups_per_second_by_repetition"});
  }
  r.direct_reads =
      r.direct ? row.Number({"direct_reads", "absent", "data_reads_per_lookup"})
               : 0;
  r.direct_metadata_misses =
      r.direct
          ? row.Number({"direct_reads", "absent", "metadata_misses_per_lookup"})
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

// r's figure over config's in the same tree, or "–": Ratio for a figure of
// one value, RateRatio for a MeasuredRate.
std::string RatioOf(double a, double b) { return Ratio(a, b); }
std::string RatioOf(const MeasuredRate& a, const MeasuredRate& b) {
  return RateRatio(a, b);
}
template <typename Figure>
std::string Against(const std::vector<PointRow>& rows, const PointRow& r,
                    const char* config, Figure figure) {
  const PointRow* base = FindPoint(rows, r.tree, config);
  return base == nullptr ? kMissingFigure : RatioOf(figure(r), figure(*base));
}

void PrintPointRun(std::vector<RowReader>& readers, std::ostream& out) {
  RowReader& first = readers.front();
  out << absl::StrFormat(
      "**RocksDB %s**, %d keys of 16 bytes with %d-byte values; %d lookups "
      "of each kind per repetition, median of %d. %s\n\n",
      first.String({"rocksdb_version"}), first.Count({"keys"}),
      first.Count({"value_bytes"}), first.Count({"lookups_per_rep"}),
      first.Count({"reps"}), MeasuredOn(first));
  std::vector<PointRow> rows;
  std::vector<PointRow> leveldb_rows;
  for (RowReader& reader : readers) {
    (reader.String({"store"}) == "rocksdb" ? rows : leveldb_rows)
        .push_back(ReadPointRow(reader));
  }
  const auto absent_rate = [](const PointRow& r) -> const MeasuredRate& {
    return r.absent_rate;
  };
  const auto absent_reads = [](const PointRow& r) { return r.absent_reads; };
  const auto filter_bytes = [](const PointRow& r) { return r.filter_bytes; };
  out << "| config | tree | bits/key | filter bytes vs `" << kRocksDbBloomPeer
      << "` | absent lookups/s | vs `" << kRocksDbBloomPeer << "` | vs `"
      << kRocksDbRibbonHybridPeer << "` | data reads per absent lookup | vs `"
      << kRocksDbBloomPeer
      << "` | present lookups/s |\n"
         "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const PointRow& r : rows) {
    out << absl::StrFormat(
        "| `%s` | %s | %.2f | %s | %.0f | %s | %s | %.4f | %s | %.0f |\n",
        r.config, r.tree, r.bits_per_key,
        Against(rows, r, kRocksDbBloomPeer, filter_bytes), r.absent_rate.median,
        Against(rows, r, kRocksDbBloomPeer, absent_rate),
        Against(rows, r, kRocksDbRibbonHybridPeer, absent_rate), r.absent_reads,
        Against(rows, r, kRocksDbBloomPeer, absent_reads), r.present_rate);
  }
  out << "\n";
  bool header = false;
  for (const PointRow& r : rows) {
    if (!r.direct) continue;
    if (!header) {
      out << "With direct reads (a block cache, no page cache):\n\n"
             "| config | tree | absent lookups/s | vs `"
          << kRocksDbBloomPeer
          << "` | data reads per absent lookup | filter and index blocks "
             "read per absent lookup |\n"
          << "|---|---|---|---|---|---|\n";
      header = true;
    }
    const PointRow* base = FindPoint(rows, r.tree, kRocksDbBloomPeer);
    out << absl::StrFormat("| `%s` | %s | %.0f | %s | %.4f | %.4f |\n",
                           r.config, r.tree, r.direct_rate.median,
                           base == nullptr || !base->direct
                               ? kMissingFigure
                               : RateRatio(r.direct_rate, base->direct_rate),
                           r.direct_reads, r.direct_metadata_misses);
  }
  if (header) out << "\n";
  if (leveldb_rows.empty()) return;
  out << "LevelDB, in the same run:\n\n"
         "| config | tree | bits/key | absent lookups/s | vs `"
      << kLevelDbBloomPeer << "` | data reads per absent lookup | vs `"
      << kLevelDbBloomPeer
      << "` | present lookups/s |\n"
         "|---|---|---|---|---|---|---|---|\n";
  for (const PointRow& r : leveldb_rows) {
    out << absl::StrFormat(
        "| `%s` | %s | %.2f | %.0f | %s | %.4f | %s | %.0f |\n", r.config,
        r.tree, r.bits_per_key, r.absent_rate.median,
        Against(leveldb_rows, r, kLevelDbBloomPeer, absent_rate),
        r.absent_reads,
        Against(leveldb_rows, r, kLevelDbBloomPeer, absent_reads),
        r.present_rate);
  }
  out << "\n";
}

// The bits/key of each level a run's RocksDB rows filled, with the share of
// the keys there: "10.0 (7.8%)".
void PrintLevelsRun(std::vector<RowReader>& readers, std::ostream& out) {
  RowReader& first = readers.front();
  out << absl::StrFormat(
      "**RocksDB %s**, %d keys: bits/key by level (share of the keys).\n\n",
      first.String({"rocksdb_version"}), first.Count({"keys"}));
  struct Levels {
    std::string config, tree;
    std::vector<double> bits, entries;
  };
  std::vector<Levels> rows;
  std::vector<bool> filled;
  for (RowReader& reader : readers) {
    if (reader.String({"store"}) != "rocksdb") continue;
    Levels r{reader.String({"config"}), reader.String({"tree"}),
             reader.Numbers({"bits_per_key_per_level"}),
             reader.Numbers({"entries_per_level"})};
    r.bits.resize(r.entries.size());
    filled.resize(std::max(filled.size(), r.entries.size()));
    for (size_t level = 0; level < r.entries.size(); ++level) {
      if (r.entries[level] > 0) filled[level] = true;
    }
    rows.push_back(std::move(r));
  }
  out << "| config | tree |";
  std::string rule = "|---|---|";
  for (size_t level = 0; level < filled.size(); ++level) {
    if (!filled[level]) continue;
    out << " L" << level << " |";
    rule += "---|";
  }
  out << "\n" << rule << "\n";
  for (const Levels& r : rows) {
    double keys = 0;
    for (double entries : r.entries) keys += entries;
    out << absl::StrFormat("| `%s` | %s |", r.config, r.tree);
    for (size_t level = 0; level < filled.size(); ++level) {
      if (!filled[level]) continue;
      if (level < r.entries.size() && r.entries[level] > 0) {
        out << absl::StrFormat(" %.1f (%.1f%%) |", r.bits[level],
                               100 * r.entries[level] / keys);
      } else {
        out << " |";
      }
    }
    out << "\n";
  }
  out << "\n";
}

void PrintPartitionedRun(std::vector<RowReader>& readers, std::ostream& out) {
  RowReader& first = readers.front();
  out << absl::StrFormat(
      "**RocksDB %s**, partitioned filters: %d keys of 16 bytes with %d-byte "
      "values, partitions of %d bytes in a block cache of %d bytes; %d "
      "absent lookups per repetition, median of %d. %s\n\n",
      first.String({"rocksdb_version"}), first.Count({"keys"}),
      first.Count({"value_bytes"}), first.Count({"metadata_block_size"}),
      first.Count({"block_cache_bytes"}), first.Count({"lookups_per_rep"}),
      first.Count({"reps"}), MeasuredOn(first));
  out << "| config | bits/key | absent lookups/s | vs `" << kRocksDbBloomPeer
      << "` | filter bytes inserted per absent lookup | vs `"
      << kRocksDbBloomPeer
      << "` | data reads per absent lookup |\n"
         "|---|---|---|---|---|---|---|\n";
  const auto absent_rate = [](RowReader& row) {
    return ReadRate(row, {"absent", "lookups_per_second"},
                    {"absent", "lookups_per_second_by_repetition"});
  };
  MeasuredRate base_rate;
  double base_inserted = 0;
  for (RowReader& row : readers) {
    if (row.String({"config"}) == kRocksDbBloomPeer) {
      base_rate = absent_rate(row);
      base_inserted =
          row.Number({"absent", "filter_bytes_inserted_per_lookup"});
    }
  }
  for (RowReader& row : readers) {
    const MeasuredRate rate = absent_rate(row);
    const double inserted =
        row.Number({"absent", "filter_bytes_inserted_per_lookup"});
    out << absl::StrFormat("| `%s` | %.2f | %.0f | %s | %.0f | %s | %.4f |\n",
                           row.String({"config"}), row.Number({"bits_per_key"}),
                           rate.median, RateRatio(rate, base_rate), inserted,
                           Ratio(inserted, base_inserted),
                           row.Number({"absent", "data_reads_per_lookup"}));
  }
  out << "\n";
}

void PrintPrefixRun(std::vector<RowReader>& readers, std::ostream& out) {
  RowReader& first = readers.front();
  out << absl::StrFormat(
      "**RocksDB %s**, prefix seeks: %d keys of 16 bytes with %d-byte values, "
      "in groups of %d sharing a %d-byte prefix; %d seeks to absent prefixes "
      "per repetition, median of %d. %s\n\n",
      first.String({"rocksdb_version"}), first.Count({"keys"}),
      first.Count({"value_bytes"}), first.Count({"keys_per_prefix"}),
      first.Count({"prefix_bytes"}), first.Count({"lookups_per_rep"}),
      first.Count({"reps"}), MeasuredOn(first));
  out << "| config | filter holds | filter bytes/key | absent seeks/s | vs `"
      << kNoFilter
      << "` | data reads per absent seek | filters asked | answers of no |\n"
         "|---|---|---|---|---|---|---|---|\n";
  const auto absent_rate = [](RowReader& row) {
    return ReadRate(row, {"absent", "seeks_per_second"},
                    {"absent", "seeks_per_second_by_repetition"});
  };
  MeasuredRate none_rate;
  for (RowReader& row : readers) {
    if (row.String({"config"}) == kNoFilter) none_rate = absent_rate(row);
  }
  for (RowReader& row : readers) {
    const MeasuredRate rate = absent_rate(row);
    out << absl::StrFormat(
        "| `%s` | %s | %.3f | %.0f | %s | %.4f | %.3f | %.3f |\n",
        row.String({"config"}), row.String({"filter_holds"}),
        row.Number({"filter_bytes_per_key"}), rate.median,
        RateRatio(rate, none_rate),
        row.Number({"absent", "data_reads_per_seek"}),
        row.Number({"absent", "prefix_checked_per_seek"}),
        row.Number({"absent", "prefix_useful_per_seek"}));
  }
  out << "\n";
}

}  // namespace

absl::StatusOr<std::string> RenderDbLevels(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read) {
  return RenderRuns("db_levels", "point", json_path, options, read,
                    PrintLevelsRun);
}

absl::StatusOr<std::string> RenderDbPrefix(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read) {
  return RenderRuns("db_prefix", "prefix", json_path, options, read,
                    PrintPrefixRun);
}

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
