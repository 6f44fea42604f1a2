#include "bench/db/partitioned_section.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bench/db/lookups.h"
#include "bench/db/rocksdb_tree.h"
#include "bench/keys.h"
#include "rocksdb/cache.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"

namespace sstfilter {
namespace bench {
namespace {

// Present keys looked up before any timing: every one must be found.
constexpr uint64_t kCheckedPresentKeys = 2'000;
// Their draws (lookups.h), past the warm-up's.
constexpr uint64_t kCheckDrawBase = 60'000'000'000;

rocksdb::Options MakeOptions(const RocksDbConfig& config,
                             uint64_t block_cache_bytes) {
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy = config.policy;
  table.partition_filters = true;
  table.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
  table.cache_index_and_filter_blocks = true;
  table.pin_top_level_index_and_filter = true;
  table.block_cache = rocksdb::NewLRUCache(block_cache_bytes);
  return RocksDbTreeOptions(table, kDefaultRocksDbTableBytes);
}

class PartitionedDb final : public SectionDb {
 public:
  using SectionDb::SectionDb;

  // RocksDB's default ReadOptions: a filter partition or data block read
  // from the file is inserted into the block cache.
  bool Lookup(absl::string_view key) override {
    const rocksdb::Status status =
        tree().db()->Get(rocksdb::ReadOptions(),
                         rocksdb::Slice(key.data(), key.size()), &value_);
    if (!status.ok() && !status.IsNotFound()) CountError();
    return status.ok();
  }

 private:
  std::string value_;
};

absl::Status CheckPresentKeys(const DbShape& shape, PartitionedDb* db) {
  const QueryMaker present = Random16Query(LookupKind::kPresent);
  char key[kMaxKeyBytes];
  for (uint64_t i = 0; i < kCheckedPresentKeys; ++i) {
    const size_t len = present(kCheckDrawBase + i, shape.keys, key);
    if (!db->Lookup(absl::string_view(key, len))) {
      return absl::InternalError(absl::StrFormat(
          "%s: present key %d of the check not found", db->result.config, i));
    }
  }
  return absl::OkStatus();
}

}  // namespace

uint64_t PartitionedBlockCacheBytes(uint64_t keys) {
  return static_cast<uint64_t>(static_cast<double>(keys) * kDbBitsPerKey / 8 /
                               kFiltersPerBlockCache);
}

std::vector<RocksDbConfig> PartitionedConfigs(const DbConfigs& configs) {
  return configs.section_policies;
}

absl::StatusOr<std::vector<PartitionedResult>> RunPartitionedSection(
    const std::vector<RocksDbConfig>& configs, const DbShape& shape,
    const Progress& progress) {
  const uint64_t cache_bytes = PartitionedBlockCacheBytes(shape.keys);
  progress(absl::StrFormat(
      "partitioned filters: a block cache of %d bytes for every database",
      cache_bytes));
  std::vector<std::unique_ptr<PartitionedDb>> dbs;
  std::vector<SectionDb*> probed;
  for (const RocksDbConfig& config : configs) {
    DbResult built;
    absl::StatusOr<std::unique_ptr<RocksDbTree>> tree = RocksDbTree::Build(
        {config.name, config.filter, Random16Key,
         MakeOptions(config, cache_bytes), MakeOptions(config, cache_bytes),
         /*one_level=*/true},
        shape, progress, &built);
    if (!tree.ok()) return tree.status();
    dbs.push_back(std::make_unique<PartitionedDb>(*std::move(tree)));
    dbs.back()->result = std::move(built);
    absl::Status status = CheckPresentKeys(shape, dbs.back().get());
    if (!status.ok()) return status;
    probed.push_back(dbs.back().get());
  }
  // The order of the figures each ProbeFigures::tickers holds.
  const std::vector<rocksdb::Tickers> tickers = {
      rocksdb::BLOOM_FILTER_USEFUL, rocksdb::BLOOM_FILTER_FULL_POSITIVE,
      rocksdb::BLOCK_CACHE_FILTER_MISS,
      rocksdb::BLOCK_CACHE_FILTER_BYTES_INSERT};
  absl::StatusOr<std::vector<ProbeFigures>> figures = MeasureAbsentProbes(
      Random16Query(LookupKind::kAbsent), tickers, shape, probed, progress);
  if (!figures.ok()) return figures.status();
  std::vector<PartitionedResult> results;
  for (size_t i = 0; i < dbs.size(); ++i) {
    PartitionedResult result;
    result.built = dbs[i]->result;
    result.block_cache_bytes = cache_bytes;
    result.absent = (*figures)[i];
    result.filter_useful = result.absent.tickers[0];
    result.filter_checks = result.absent.tickers[0] + result.absent.tickers[1];
    result.filter_misses = result.absent.tickers[2];
    result.filter_bytes_inserted = result.absent.tickers[3];
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace bench
}  // namespace sstfilter
