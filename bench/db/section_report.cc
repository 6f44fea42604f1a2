#include "bench/db/section_report.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bench/db/db_configs.h"
#include "bench/db/lookups.h"
#include "bench/db/prefix_keys.h"
#include "bench/db/rocksdb_store.h"
#include "bench/machine.h"
#include "nlohmann/json.hpp"
#include "rocksdb/table.h"

namespace sstfilter {
namespace bench {
namespace {

double BytesPerKey(const DbResult& built) {
  return static_cast<double>(built.filter_bytes) /
         static_cast<double>(built.keys);
}

// The rows of configurations a and b, when both ran.
template <typename Result>
std::pair<const Result*, const Result*> FindBoth(
    const std::vector<Result>& results, const std::string& a,
    const std::string& b) {
  std::pair<const Result*, const Result*> rows(nullptr, nullptr);
  for (const Result& r : results) {
    if (r.built.config == a) rows.first = &r;
    if (r.built.config == b) rows.second = &r;
  }
  return rows;
}

// "what, section: a / b = ratio" when both configurations ran.
template <typename Result>
void PrintRatio(const std::vector<Result>& results, const char* what,
                const char* section, const std::string& numerator,
                const std::string& denominator, double (*figure)(const Result&),
                std::ostream& out) {
  const auto [a, b] = FindBoth(results, numerator, denominator);
  if (a == nullptr || b == nullptr || figure(*b) == 0) return;
  out << absl::StrFormat("%s, %s: %s / %s = %.3f\n", what, section, numerator,
                         denominator, figure(*a) / figure(*b));
}

// The same line for the absent probes' rate, paired by repetition.
template <typename Result>
void PrintRateRatio(const std::vector<Result>& results, const char* what,
                    const char* section, const std::string& numerator,
                    const std::string& denominator, std::ostream& out) {
  const auto [a, b] = FindBoth(results, numerator, denominator);
  if (a == nullptr || b == nullptr || b->absent.per_second == 0) return;
  out << absl::StrFormat(
      "%s, %s: %s / %s = %s\n", what, section, numerator, denominator,
      FormatRateRatio(a->absent.per_second, a->absent.rates,
                      b->absent.per_second, b->absent.rates));
}

template <typename Result>
double ProbeReads(const Result& r) {
  return r.absent.data_reads;
}
double FilterBytesInserted(const PartitionedResult& r) {
  return r.filter_bytes_inserted;
}

// The fields every section's JSON row starts with.
nlohmann::ordered_json SectionRow(const char* section, const DbShape& shape,
                                  const DbResult& built) {
  nlohmann::ordered_json row;
  row["section"] = section;
  row["store"] = built.store;
  row["config"] = built.config;
  row["filter"] = built.filter;
  row["keys"] = built.keys;
  row["value_bytes"] = shape.value_bytes;
  row["lookups_per_rep"] = shape.lookups;
  row["reps"] = shape.reps;
  row["build_seconds"] = built.build_seconds;
  row["filter_bytes"] = built.filter_bytes;
  row["bits_per_key"] = built.bits_per_key;
  row["filter_bytes_per_key"] = BytesPerKey(built);
  row["files_per_level"] = built.files_per_level;
  row["machine"] = MachineDescription();
  row["cpu"] = CpuGeneration();
  row["rocksdb_version"] = RocksDbVersion();
  return row;
}

}  // namespace

void PrintPartitionedTable(const DbShape& shape,
                           const std::vector<PartitionedResult>& results,
                           std::ostream& out) {
  if (results.empty()) return;
  out << absl::StrFormat(
      "Partitioned filters out of cache: %d keys of 16 bytes, %d-byte values "
      "in one sorted run in the last level; "
      "partition_filters with kTwoLevelIndexSearch and metadata_block_size "
      "%d, index and filter blocks in an LRU block cache of %d bytes (1/%d of "
      "the filters at %g bits/key), top level pinned. %d absent-key lookups "
      "per repetition with default ReadOptions (fill_cache on), median of %d "
      "repetitions. Per lookup: data blocks read (block cache misses), "
      "filters asked, answers of no, filter blocks missed in the block cache, "
      "and filter bytes inserted into it.\n\n",
      shape.keys, shape.value_bytes,
      rocksdb::BlockBasedTableOptions().metadata_block_size,
      results.front().block_cache_bytes, kFiltersPerBlockCache, kDbBitsPerKey,
      shape.lookups, shape.reps);
  out << absl::StrFormat(
      "%-28s %12s %10s %-14s %8s %10s %10s %8s %8s %8s %12s\n", "config",
      "filter B/key", "filter KiB", "files by level", "build s", "lookups/s",
      "data reads", "filters", "no", "missed", "filter B ins");
  for (const PartitionedResult& r : results) {
    out << absl::StrFormat(
        "%-28s %12.3f %10.1f %-14s %8.1f %10.0f %10.4f %8.3f %8.3f %8.3f "
        "%12.0f\n",
        r.built.config, BytesPerKey(r.built),
        static_cast<double>(r.built.filter_bytes) / 1024,
        FormatLevels(r.built.files_per_level), r.built.build_seconds,
        r.absent.per_second, r.absent.data_reads, r.filter_checks,
        r.filter_useful, r.filter_misses, r.filter_bytes_inserted);
  }
  out << "\n";
  for (const PartitionedResult& r : results) {
    out << absl::StrFormat("%-28s %s\n", r.built.config, r.built.filter);
  }
  out << "\n";
  PrintRateRatio(results, "absent lookups/s", kPartitionedSection,
                 kUniformConfig, kRocksDbBloomConfig, out);
  PrintRateRatio(results, "absent lookups/s", kPartitionedSection,
                 kCompactConfig, kRocksDbBloomConfig, out);
  PrintRatio(results, "filter bytes inserted per absent lookup",
             kPartitionedSection, kUniformConfig, kRocksDbBloomConfig,
             FilterBytesInserted, out);
  out << "\n";
}

void PrintPartitionedJson(const DbShape& shape,
                          const std::vector<PartitionedResult>& results,
                          std::ostream& out) {
  for (const PartitionedResult& r : results) {
    nlohmann::ordered_json row =
        SectionRow(kPartitionedSection, shape, r.built);
    row["block_cache_bytes"] = r.block_cache_bytes;
    row["metadata_block_size"] =
        rocksdb::BlockBasedTableOptions().metadata_block_size;
    row["absent"] = {
        {"lookups_per_second", r.absent.per_second},
        {"lookups_per_second_by_repetition", r.absent.rates},
        {"data_reads_per_lookup", r.absent.data_reads},
        {"filter_checks_per_lookup", r.filter_checks},
        {"filter_useful_per_lookup", r.filter_useful},
        {"filter_misses_per_lookup", r.filter_misses},
        {"filter_bytes_inserted_per_lookup", r.filter_bytes_inserted},
        {"found", r.absent.found},
        {"lookups", r.absent.probes}};
    out << row.dump() << "\n";
  }
}

void PrintPrefixTable(const DbShape& shape,
                      const std::vector<PrefixResult>& results,
                      std::ostream& out) {
  if (results.empty()) return;
  out << absl::StrFormat(
      "Prefix seeks to absent prefixes: %d keys of 16 bytes, %d-byte values "
      "in one sorted run in the last level, in groups of %d sharing a %d-byte "
      "prefix "
      "(NewFixedPrefixTransform(%d)). %d seeks per repetition, each with a "
      "fresh iterator and default ReadOptions (prefix mode) without filling "
      "the block cache, median of %d repetitions. Per seek: data blocks read, "
      "filters asked for the prefix, and answers of no.\n\n",
      shape.keys, shape.value_bytes, kKeysPerPrefix, kPrefixBytes, kPrefixBytes,
      shape.lookups, shape.reps);
  out << absl::StrFormat("%-28s %-13s %12s %10s %-14s %8s %10s %10s %8s %8s\n",
                         "config", "filter holds", "filter B/key", "filter KiB",
                         "files by level", "build s", "seeks/s", "data reads",
                         "filters", "no");
  for (const PrefixResult& r : results) {
    out << absl::StrFormat(
        "%-28s %-13s %12.3f %10.1f %-14s %8.1f %10.0f %10.4f %8.3f %8.3f\n",
        r.built.config, PrefixFilterName(r.holds), BytesPerKey(r.built),
        static_cast<double>(r.built.filter_bytes) / 1024,
        FormatLevels(r.built.files_per_level), r.built.build_seconds,
        r.absent.per_second, r.absent.data_reads, r.prefix_checked,
        r.prefix_useful);
  }
  out << "\n";
  for (const PrefixResult& r : results) {
    if (r.holds == PrefixFilter::kWholeKeysAndPrefixes) continue;
    out << absl::StrFormat("%-28s %s\n", r.built.config, r.built.filter);
  }
  out << "\n";
  // The native filter holding prefixes only, against no filter.
  std::vector<PrefixResult> prefixes_only;
  for (const PrefixResult& r : results) {
    if (r.holds != PrefixFilter::kWholeKeysAndPrefixes) {
      prefixes_only.push_back(r);
    }
  }
  PrintRateRatio(prefixes_only, "absent seeks/s", kPrefixSection,
                 kUniformConfig, kNoFilterConfig, out);
  PrintRatio(prefixes_only, "data reads per absent seek", kPrefixSection,
             kUniformConfig, kNoFilterConfig, ProbeReads<PrefixResult>, out);
  out << "\n";
}

void PrintPrefixJson(const DbShape& shape,
                     const std::vector<PrefixResult>& results,
                     std::ostream& out) {
  for (const PrefixResult& r : results) {
    nlohmann::ordered_json row = SectionRow(kPrefixSection, shape, r.built);
    row["prefix_bytes"] = kPrefixBytes;
    row["keys_per_prefix"] = kKeysPerPrefix;
    row["filter_holds"] = PrefixFilterName(r.holds);
    row["absent"] = {{"seeks_per_second", r.absent.per_second},
                     {"seeks_per_second_by_repetition", r.absent.rates},
                     {"data_reads_per_seek", r.absent.data_reads},
                     {"prefix_checked_per_seek", r.prefix_checked},
                     {"prefix_useful_per_seek", r.prefix_useful},
                     {"found", r.absent.found},
                     {"seeks", r.absent.probes}};
    out << row.dump() << "\n";
  }
}

void PrintRangeTable(const DbShape& shape,
                     const std::vector<RangeResult>& results,
                     std::ostream& out) {
  if (results.empty()) return;
  out << absl::StrFormat(
      "Short scans of empty ranges: %d keys of each shape "
      "(util/key_shapes.h), %d-byte values, one sorted run; each scan a "
      "fresh iterator over [lower, upper), %d possible keys at the keys' last "
      "position, starting just after a present key (correlated) or anywhere "
      "(uniform) and holding none, with fill_cache = false; for reference, "
      "found: scans from a fresh present key, each finding it. %d scans of "
      "each kind per repetition, median of %d repetitions. Per scan: data "
      "blocks read.\n\n",
      shape.keys, shape.value_bytes, kScanWidth, shape.lookups, shape.reps);
  std::vector<std::string> shapes;
  for (const RangeResult& r : results) {
    if (shapes.empty() || shapes.back() != r.shape) shapes.push_back(r.shape);
  }
  for (const std::string& key_shape : shapes) {
    out << "keys: " << key_shape << "\n";
    out << absl::StrFormat("%-26s %11s %7s %10s %10s %10s %10s %9s %9s\n",
                           "config", "range b/key", "build s", "corr/s",
                           "corr reads", "unif/s", "unif reads", "found/s",
                           "found rd");
    std::vector<const RangeResult*> rows;
    for (const RangeResult& r : results) {
      if (r.shape == key_shape) rows.push_back(&r);
    }
    for (const RangeResult* r : rows) {
      out << absl::StrFormat(
          "%-26s %11.2f %7.1f %10.0f %10.4f %10.0f %10.4f %9.0f %9.4f\n",
          r->front.empty()
              ? r->built.config
              : absl::StrCat(r->built.config, " behind ", r->front),
          r->range_bits_per_key, r->built.build_seconds,
          r->correlated.per_second, r->correlated.data_reads,
          r->uniform.per_second, r->uniform.data_reads,
          r->nonempty.lookups_per_second, r->nonempty.data_reads_per_lookup);
    }
    // Each range filter against no filter and RocksDB's prefix Bloom filter.
    const auto find = [&](const std::string& config,
                          const std::string& front) -> const RangeResult* {
      for (const RangeResult* r : rows) {
        if (r->built.config == config && r->front == front) return r;
      }
      return nullptr;
    };
    // The whole database behind the wrapper against RocksDB alone.
    const RangeResult* fronted = find(kRocksDbBloomConfig, kPresenceFront);
    const RangeResult* alone = find(kRocksDbBloomConfig, kRocksDbAlone);
    if (fronted != nullptr && alone != nullptr) {
      const auto ratio = [&](const char* what, double a,
                             const std::vector<double>& a_rates, double b,
                             const std::vector<double>& b_rates) {
        if (b == 0) return;
        out << absl::StrFormat("%s, range, %s: behind %s / alone = %s\n", what,
                               key_shape, kPresenceFront,
                               FormatRateRatio(a, a_rates, b, b_rates));
      };
      ratio("empty scans/s, correlated", fronted->correlated.per_second,
            fronted->correlated.rates, alone->correlated.per_second,
            alone->correlated.rates);
      ratio("empty scans/s, uniform", fronted->uniform.per_second,
            fronted->uniform.rates, alone->uniform.per_second,
            alone->uniform.rates);
      ratio("non-empty scans/s", fronted->nonempty.lookups_per_second,
            fronted->nonempty.rates, alone->nonempty.lookups_per_second,
            alone->nonempty.rates);
    }
    const std::vector<std::string> names = RangeConfigNames();
    for (size_t f = 2; f < names.size(); ++f) {
      const RangeResult* ours = find(names[f], kRocksDbAlone);
      if (ours == nullptr) continue;
      for (size_t base = 0; base < 2; ++base) {
        const RangeResult* other = find(names[base], kRocksDbAlone);
        if (other == nullptr) continue;
        const auto ratio = [&](const char* what, double a, double b) {
          if (b == 0) return;
          out << absl::StrFormat("%s, range, %s: %s / %s = %.4f\n", what,
                                 key_shape, names[f], names[base], a / b);
        };
        ratio("data reads per empty scan, correlated",
              ours->correlated.data_reads, other->correlated.data_reads);
        ratio("data reads per empty scan, uniform", ours->uniform.data_reads,
              other->uniform.data_reads);
        ratio("empty scans/s, correlated", ours->correlated.per_second,
              other->correlated.per_second);
        ratio("empty scans/s, uniform", ours->uniform.per_second,
              other->uniform.per_second);
        ratio("non-empty scans/s", ours->nonempty.lookups_per_second,
              other->nonempty.lookups_per_second);
      }
    }
    out << "\n";
  }
  for (const RangeResult& r : results) {
    if (r.shape != shapes.front()) break;
    if (!r.front.empty()) {
      out << absl::StrFormat(
          "%-26s %s, behind %s: filter_range_seeks, fpp %g\n",
          absl::StrCat(r.built.config, " behind ", r.front), r.built.filter,
          r.front, kPresenceRangeFpp);
      continue;
    }
    out << absl::StrFormat("%-26s %s\n", r.built.config, r.built.filter);
  }
  out << "\n";
}

void PrintRangeJson(const DbShape& shape,
                    const std::vector<RangeResult>& results,
                    std::ostream& out) {
  const auto scans = [](const ProbeFigures& f) {
    return nlohmann::ordered_json{{"scans_per_second", f.per_second},
                                  {"scans_per_second_by_repetition", f.rates},
                                  {"data_reads_per_scan", f.data_reads},
                                  {"found", f.found},
                                  {"scans", f.probes}};
  };
  for (const RangeResult& r : results) {
    nlohmann::ordered_json row = SectionRow(kRangeSection, shape, r.built);
    row["key_shape"] = r.shape;
    row["front"] = r.front;
    row["scan_width"] = kScanWidth;
    row["range_bits_per_key"] = r.range_bits_per_key;
    row["correlated"] = scans(r.correlated);
    row["uniform"] = scans(r.uniform);
    row["nonempty"] = {
        {"scans_per_second", r.nonempty.lookups_per_second},
        {"scans_per_second_by_repetition", r.nonempty.rates},
        {"data_reads_per_scan", r.nonempty.data_reads_per_lookup},
        {"found", r.nonempty.found},
        {"scans", r.nonempty.lookups}};
    out << row.dump() << "\n";
  }
}

}  // namespace bench
}  // namespace sstfilter
