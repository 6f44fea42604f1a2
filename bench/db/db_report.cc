#include "bench/db/db_report.h"

#include <cmath>
#include <optional>
#include <string>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "bench/db/db_configs.h"
#include "bench/db/lookups.h"
#include "bench/db/rocksdb_store.h"
#include "bench/machine.h"
#include "nlohmann/json.hpp"

namespace sstfilter {
namespace bench {
namespace {

// The row of one store's configuration in a tree: a configuration's name is
// the same in both stores ("bloom").
const DbResult* Find(const std::vector<DbResult>& results,
                     const std::string& store, const std::string& config,
                     const std::string& tree) {
  for (const DbResult& r : results) {
    if (r.store == store && r.config == config && r.tree == tree) return &r;
  }
  return nullptr;
}

// A figure of a row, and for rates the rate of each repetition.
using Figure = double (*)(const DbResult&);
using Rates = const std::vector<double>& (*)(const DbResult&);

// "what, store, tree: a / b = ratio" lines for the comparisons the targets
// are stated in, when both configurations ran in that tree. Rates pair up by
// repetition (FormatRateRatio); other figures are ratios of medians.
void PrintRatio(const std::vector<DbResult>& results, const char* what,
                const char* store, const std::string& numerator,
                const std::string& denominator, Figure figure,
                std::ostream& out, Rates rates = nullptr) {
  for (const char* tree : {kSettledTree, kRecentFlushesTree}) {
    const DbResult* a = Find(results, store, numerator, tree);
    const DbResult* b = Find(results, store, denominator, tree);
    if (a == nullptr || b == nullptr || figure(*b) == 0) continue;
    const std::string ratio =
        rates == nullptr
            ? absl::StrFormat("%.3f", figure(*a) / figure(*b))
            : FormatRateRatio(figure(*a), rates(*a), figure(*b), rates(*b));
    out << absl::StrFormat("%s, %s, %s: %s / %s = %s\n", what, store, tree,
                           numerator, denominator, ratio);
  }
}

double AbsentRate(const DbResult& r) { return r.absent.lookups_per_second; }
const std::vector<double>& AbsentRates(const DbResult& r) {
  return r.absent.rates;
}
double AbsentReads(const DbResult& r) { return r.absent.data_reads_per_lookup; }
double DirectRate(const DbResult& r) {
  return r.direct.has_value() ? r.direct->absent.lookups_per_second : 0;
}
const std::vector<double>& DirectRates(const DbResult& r) {
  static const std::vector<double> kNone;
  return r.direct.has_value() ? r.direct->absent.rates : kNone;
}

// r's filter bytes over RocksDB's Bloom filter's in the same tree, when that
// ran: the rule is the same filter memory, and this shows how well it holds.
std::optional<double> FilterBytesVsBloom(const std::vector<DbResult>& results,
                                         const DbResult& r) {
  const DbResult* bloom =
      Find(results, kRocksDbStore, kRocksDbBloomConfig, r.tree);
  if (bloom == nullptr || bloom->filter_bytes == 0) return std::nullopt;
  return static_cast<double>(r.filter_bytes) /
         static_cast<double>(bloom->filter_bytes);
}

constexpr double kMiB = 1 << 20;

void PrintDirectTable(const std::vector<DbResult>& results, std::ostream& out) {
  bool any = false;
  for (const DbResult& r : results) any = any || r.direct.has_value();
  if (!any) return;
  out << "Absent-key lookups with direct reads: each RocksDB database "
         "reopened with use_direct_reads and an LRU block cache that holds "
         "its filter and index blocks (high priority, L0's pinned) and no "
         "data block, so that every data block a false positive needs is "
         "read from the device\n\n";
  out << absl::StrFormat("%-24s %-15s %-8s %9s %9s %12s %12s %12s\n", "config",
                         "tree", "reads", "cache MiB", "data MiB", "absent/s",
                         "data reads", "meta misses");
  for (const DbResult& r : results) {
    if (!r.direct.has_value()) continue;
    const DirectReadFigures& d = *r.direct;
    out << absl::StrFormat(
        "%-24s %-15s %-8s %9.1f %9.1f %12.0f %12.4f %12.4f\n", r.config, r.tree,
        d.direct ? "direct" : "buffered",
        static_cast<double>(d.block_cache_bytes) / kMiB,
        static_cast<double>(d.data_bytes) / kMiB, d.absent.lookups_per_second,
        d.absent.data_reads_per_lookup, d.metadata_misses_per_lookup);
  }
  for (const DbResult& r : results) {
    if (r.direct.has_value() && !r.direct->direct) {
      out << absl::StrFormat(
          "%s: the file system refused O_DIRECT (%s): buffered reads, data "
          "blocks from the page cache\n",
          r.config, r.direct->refused);
      break;
    }
  }
  out << "\n";
  for (const DbResult& r : results) {
    if (r.direct.has_value() && r.config != kRocksDbBloomConfig &&
        r.tree == kSettledTree) {
      PrintRatio(results, "absent lookups/s with direct reads", kRocksDbStore,
                 r.config, kRocksDbBloomConfig, DirectRate, out, DirectRates);
    }
  }
  out << "\n";
}

}  // namespace

void PrintTable(const DbShape& shape, const std::vector<DbResult>& results,
                std::ostream& out) {
  if (results.empty()) return;
  out << absl::StrFormat(
      "%d keys of 16 bytes, %d-byte values; %d lookups of each kind per "
      "repetition, median of %d repetitions\n\n",
      shape.keys, shape.value_bytes, shape.lookups, shape.reps);
  out << absl::StrFormat(
      "%-8s %-24s %-15s %8s %10s %7s %-16s %8s %12s %12s %12s %12s\n", "store",
      "config", "tree", "bits/key", "filter MiB", "xfilter", "files by level",
      "build s", "absent/s", "absent reads", "present/s", "present reads");
  for (const DbResult& r : results) {
    const std::optional<double> vs_bloom = FilterBytesVsBloom(results, r);
    out << absl::StrFormat(
        "%-8s %-24s %-15s %8.2f %10.1f %7s %-16s %8.0f %12.0f %12.4f %12.0f "
        "%12.4f\n",
        r.store, r.config, r.tree, r.bits_per_key,
        static_cast<double>(r.filter_bytes) / kMiB,
        vs_bloom.has_value() ? absl::StrFormat("%.3f", *vs_bloom) : "-",
        FormatLevels(r.files_per_level), r.build_seconds,
        r.absent.lookups_per_second, r.absent.data_reads_per_lookup,
        r.present.lookups_per_second, r.present.data_reads_per_lookup);
  }
  out << "\n";
  for (const DbResult& r : results) {
    if (r.tree == kSettledTree) {
      out << absl::StrFormat("%-24s %s\n", r.config, r.filter);
    }
  }
  out << "\n";
  for (const DbResult& r : results) {
    if (!r.bits_per_key_per_level.empty()) {
      std::vector<std::string> levels;
      for (size_t i = 0; i < r.bits_per_key_per_level.size(); ++i) {
        if (r.entries_per_level[i] == 0) continue;
        levels.push_back(absl::StrFormat(
            "L%d %.1f (%.1f%% of keys)", i, r.bits_per_key_per_level[i],
            100.0 * r.entries_per_level[i] / static_cast<double>(r.keys)));
      }
      out << absl::StrFormat(
          "%-24s %-15s %d filter bytes; bits/key by level: %s\n", r.config,
          r.tree, r.filter_bytes, absl::StrJoin(levels, ", "));
    }
  }
  out << "\n";
  PrintRatio(results, "absent lookups/s", kRocksDbStore, kUniformConfig,
             kRocksDbBloomConfig, AbsentRate, out, AbsentRates);
  PrintRatio(results, "absent lookups/s", kRocksDbStore, kUniformConfig,
             kRocksDbRibbonConfig, AbsentRate, out, AbsentRates);
  PrintRatio(results, "data reads per absent lookup", kRocksDbStore,
             kPerLevelConfig, kUniformConfig, AbsentReads, out);
  for (const char* config : {kRocksDbRibbonConfig, kRocksDbRibbonHybridConfig,
                             kPerLevelConfig, kHybridConfig}) {
    PrintRatio(results, "data reads per absent lookup", kRocksDbStore, config,
               kRocksDbBloomConfig, AbsentReads, out);
  }
  // The hybrid's targets are stated against RocksDB's Bloom filter and its
  // own Ribbon hybrid.
  PrintRatio(results, "data reads per absent lookup", kRocksDbStore,
             kHybridConfig, kRocksDbRibbonHybridConfig, AbsentReads, out);
  PrintRatio(results, "absent lookups/s", kRocksDbStore, kHybridConfig,
             kRocksDbBloomConfig, AbsentRate, out, AbsentRates);
  PrintRatio(results, "absent lookups/s", kRocksDbStore, kHybridConfig,
             kRocksDbRibbonHybridConfig, AbsentRate, out, AbsentRates);
  PrintRatio(results, "absent lookups/s", kLevelDbStore, kUniformConfig,
             kLevelDbBloomConfig, AbsentRate, out, AbsentRates);
  out << "\n";
  PrintDirectTable(results, out);
}

void PrintJson(const DbShape& shape, const std::vector<DbResult>& results,
               std::ostream& out) {
  for (const DbResult& r : results) {
    nlohmann::ordered_json row;
    row["section"] = kPointSection;
    row["store"] = r.store;
    row["config"] = r.config;
    row["tree"] = r.tree;
    row["filter"] = r.filter;
    row["keys"] = r.keys;
    row["value_bytes"] = shape.value_bytes;
    row["lookups_per_rep"] = shape.lookups;
    row["reps"] = shape.reps;
    row["machine"] = MachineDescription();
    row["cpu"] = CpuGeneration();
    // The release the run was built against, on LevelDB's rows too: it
    // tells runs apart.
    row["rocksdb_version"] = RocksDbVersion();
    row["build_seconds"] = r.build_seconds;
    row["filter_bytes"] = r.filter_bytes;
    const std::optional<double> vs_bloom = FilterBytesVsBloom(results, r);
    row["filter_bytes_vs_rocksdb_bloom"] =
        vs_bloom.has_value() ? nlohmann::ordered_json(*vs_bloom) : nullptr;
    row["bits_per_key"] = r.bits_per_key;
    row["files_per_level"] = r.files_per_level;
    row["entries_per_level"] = r.entries_per_level;
    row["bits_per_key_per_level"] = r.bits_per_key_per_level;
    for (const auto& [name, figures] :
         {std::make_pair("absent", &r.absent),
          std::make_pair("present", &r.present)}) {
      row[name] = {{"lookups_per_second", figures->lookups_per_second},
                   {"lookups_per_second_by_repetition", figures->rates},
                   {"data_reads_per_lookup", figures->data_reads_per_lookup},
                   {"found", figures->found},
                   {"lookups", figures->lookups}};
    }
    if (r.direct.has_value()) {
      const DirectReadFigures& d = *r.direct;
      row["direct_reads"] = {
          {"direct", d.direct},
          {"refused", d.refused},
          {"block_cache_bytes", d.block_cache_bytes},
          {"data_bytes", d.data_bytes},
          {"absent",
           {{"lookups_per_second", d.absent.lookups_per_second},
            {"lookups_per_second_by_repetition", d.absent.rates},
            {"data_reads_per_lookup", d.absent.data_reads_per_lookup},
            {"metadata_misses_per_lookup", d.metadata_misses_per_lookup},
            {"found", d.absent.found},
            {"lookups", d.absent.lookups}}}};
    } else {
      row["direct_reads"] = nullptr;
    }
    out << row.dump() << "\n";
  }
}

}  // namespace bench
}  // namespace sstfilter
