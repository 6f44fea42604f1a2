#include "bench/db/range_section.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bench/db/db_configs.h"
#include "bench/db/lookups.h"
#include "bench/db/no_match_range_collector.h"
#include "bench/db/rocksdb_tree.h"
#include "bench/keys.h"
#include "engines/rocksdb/rocksdb_range_filter.h"
#include "filter/range/range_key.h"
#include "rocksdb/iterator.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "table/range_filter_key.h"

namespace sstfilter {
namespace bench {
namespace {

// Present keys scanned for before any timing: each scan must find its key.
constexpr uint64_t kCheckedPresentKeys = 2'000;
// Picks the checked keys: any odd constant.
constexpr uint64_t kCheckSalt = 0x6a09e667f3bcc909ULL;

std::string NoneConfig() { return kNoFilterConfig; }
// The range filter's spec (range_bench's --filter).
std::string FilterConfig() {
  return absl::StrCat("grafite:", kRangeFilterBitsPerKey);
}

absl::StatusOr<rocksdb::Options> MakeOptions(bool range_filter,
                                             bool inject_false_negative,
                                             const DbShape& shape) {
  rocksdb::Options options = RocksDbTreeOptions(
      rocksdb::BlockBasedTableOptions(), shape.rocksdb_table_bytes);
  if (range_filter) {
    absl::StatusOr<std::shared_ptr<rocksdb::TablePropertiesCollectorFactory>>
        collector = NewRangeFilterCollectorFactory(
            FilterOptions::BitsPerKey(kRangeFilterBitsPerKey));
    if (!collector.ok()) return collector.status();
    options.table_properties_collector_factories.push_back(
        inject_false_negative ? NewNoMatchRangeCollectorFactory(*collector)
                              : *collector);
  }
  return options;
}

// The range's upper bound: kScanCodes codes above lower's.
std::string UpperBound(absl::string_view lower) {
  return KeyOfRangeCode(RangeKeyCode(lower) + kScanCodes);
}

class RangeScanDb final : public SectionDb {
 public:
  RangeScanDb(std::unique_ptr<RocksDbTree> tree, bool range_filter)
      : SectionDb(std::move(tree)), range_filter_(range_filter) {}

  // Scans [lower, UpperBound(lower)); found when it returns a key.
  bool Lookup(absl::string_view lower) override {
    return !ScanFrom(lower).empty();
  }

  // The first key of the scan from lower, or "" when it returns none. Only
  // the filtered scans build a RangeScan: its copies of the bounds and its
  // table_filter are part of the filter's cost.
  std::string ScanFrom(absl::string_view lower) {
    rocksdb::ReadOptions read;
    read.fill_cache = false;
    if (range_filter_) {
      const RangeScan scan(std::string(lower), UpperBound(lower), read);
      return First(scan.options());
    }
    const std::string upper = UpperBound(lower);
    const rocksdb::Slice lower_slice(lower.data(), lower.size());
    const rocksdb::Slice upper_slice(upper);
    read.iterate_lower_bound = &lower_slice;
    read.iterate_upper_bound = &upper_slice;
    return First(read);
  }

 private:
  // The first key the options' bounded scan returns, or "".
  std::string First(const rocksdb::ReadOptions& read) {
    std::unique_ptr<rocksdb::Iterator> it(tree().db()->NewIterator(read));
    it->Seek(*read.iterate_lower_bound);
    if (!it->Valid()) {
      if (!it->status().ok()) CountError();
      return "";
    }
    return it->key().ToString();
  }

  const bool range_filter_;
};

absl::Status CheckPresentKeys(const DbShape& shape, RangeScanDb* db) {
  char key[kMaxKeyBytes];
  for (uint64_t i = 0; i < kCheckedPresentKeys; ++i) {
    const size_t len = Random16Key(Mix64(i ^ kCheckSalt) % shape.keys, key);
    const std::string want(key, len);
    // From the key's own code, so the range holds the key.
    const std::string found = db->ScanFrom(KeyOfRangeCode(RangeKeyCode(want)));
    if (found.empty() || found > want) {
      return absl::InternalError(
          absl::StrFormat("%s: a scan from present key %d's code missed it",
                          db->result.config, i));
    }
  }
  return absl::OkStatus();
}

// Times shape.reps repetitions of shape.lookups scans from present keys
// against each database in turn; every scan must find its key.
absl::StatusOr<std::vector<LookupFigures>> MeasureNonEmptyScans(
    const DbShape& shape, const std::vector<SectionDb*>& dbs,
    const Progress& progress) {
  for (SectionDb* db : dbs) WarmUp(LookupKind::kPresent, shape, db);
  std::vector<std::vector<RepFigures>> reps(dbs.size());
  for (int rep = 0; rep < shape.reps; ++rep) {
    progress(absl::StrFormat("non-empty scans, repetition %d of %d", rep + 1,
                             shape.reps));
    for (size_t i = 0; i < dbs.size(); ++i) {
      reps[i].push_back(TimeRep(LookupKind::kPresent, rep, shape, dbs[i]));
    }
  }
  std::vector<LookupFigures> figures;
  for (size_t i = 0; i < dbs.size(); ++i) {
    figures.push_back(Summarize(reps[i], shape.lookups));
    if (figures.back().found != figures.back().lookups) {
      return absl::InternalError(absl::StrFormat(
          "%s: %d of %d scans from present keys found nothing",
          dbs[i]->result.config, figures.back().lookups - figures.back().found,
          figures.back().lookups));
    }
  }
  return figures;
}

// Bits per key of the range filters every table holds.
double RangeBitsPerKey(const RocksDbTree& tree, uint64_t keys) {
  rocksdb::TablePropertiesCollection tables;
  if (!tree.db()->GetPropertiesOfAllTables(&tables).ok()) return 0;
  uint64_t bytes = 0;
  for (const auto& [file, properties] : tables) {
    for (const auto& [name, value] : properties->user_collected_properties) {
      if (!RangeFilterFormatName(name).empty()) bytes += value.size();
    }
  }
  return 8.0 * static_cast<double>(bytes) / static_cast<double>(keys);
}

}  // namespace

std::vector<std::string> RangeConfigNames() {
  return {NoneConfig(), FilterConfig()};
}

absl::StatusOr<std::vector<RangeResult>> RunRangeSection(
    const std::vector<std::string>& configs, bool inject_false_negative,
    const DbShape& shape, const Progress& progress) {
  std::vector<std::unique_ptr<RangeScanDb>> dbs;
  std::vector<SectionDb*> probed;
  std::vector<RangeResult> results;
  for (const std::string& config : configs) {
    const bool range_filter = config == FilterConfig();
    absl::StatusOr<rocksdb::Options> build =
        MakeOptions(range_filter, inject_false_negative, shape);
    absl::StatusOr<rocksdb::Options> reopen =
        MakeOptions(range_filter, inject_false_negative, shape);
    if (!build.ok()) return build.status();
    if (!reopen.ok()) return reopen.status();
    RangeResult result;
    result.range_filter = range_filter;
    absl::StatusOr<std::unique_ptr<RocksDbTree>> tree = RocksDbTree::Build(
        {config,
         range_filter
             ? absl::StrCat("sstfilter range filter, ", kRangeFilterBitsPerKey,
                            " bits/key",
                            inject_false_negative
                                ? " (of no keys: --inject_false_negative)"
                                : "")
             : "no range filter",
         Random16Key, *build, *reopen, /*one_level=*/true},
        shape, progress, &result.built);
    if (!tree.ok()) return tree.status();
    result.range_bits_per_key = RangeBitsPerKey(**tree, shape.keys);
    dbs.push_back(
        std::make_unique<RangeScanDb>(*std::move(tree), range_filter));
    dbs.back()->result = result.built;
    absl::Status status = CheckPresentKeys(shape, dbs.back().get());
    if (!status.ok()) return status;
    probed.push_back(dbs.back().get());
    results.push_back(std::move(result));
  }
  absl::StatusOr<std::vector<ProbeFigures>> figures = MeasureAbsentProbes(
      Random16Query(LookupKind::kAbsent), {}, shape, probed, progress);
  if (!figures.ok()) return figures.status();
  absl::StatusOr<std::vector<LookupFigures>> nonempty =
      MeasureNonEmptyScans(shape, probed, progress);
  if (!nonempty.ok()) return nonempty.status();
  for (size_t i = 0; i < results.size(); ++i) {
    results[i].empty = (*figures)[i];
    results[i].nonempty = (*nonempty)[i];
  }
  return results;
}

}  // namespace bench
}  // namespace sstfilter
