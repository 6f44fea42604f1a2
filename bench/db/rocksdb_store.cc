#include "bench/db/rocksdb_store.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "bench/db/lookups.h"
#include "bench/keys.h"
#include "rocksdb/cache.h"
#include "rocksdb/db.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "rocksdb/version.h"

namespace sstfilter {
namespace bench {

std::string RocksDbVersion() {
  return absl::StrFormat("%d.%d.%d", ROCKSDB_MAJOR, ROCKSDB_MINOR,
                         ROCKSDB_PATCH);
}
namespace {

// Lookups do not fill the block cache (ReadOptions::fill_cache = false), so
// each data block a lookup needs is a block cache miss and a read of the
// file. Index and filter blocks stay in the table readers (RocksDB's default,
// cache_index_and_filter_blocks = false), so they are never counted.
constexpr size_t kBlockCacheBytes = 8 << 20;
// A recent flush's memtable is filled to this share of its size, in steps of
// kFillStepKeys keys: RocksDB flushes by itself a little above 0.95.
constexpr double kFullMemtable = 0.9;
constexpr uint64_t kFillStepKeys = 100;
// A memtable entry's bytes beyond its key and value (skiplist node, varint
// lengths, sequence number, arena slack), as measured: 11,400 entries of 16 +
// 32 bytes filled kFullMemtable of a 1 MB memtable.
constexpr size_t kMemtableEntryOverheadBytes = 35;

// DirectReadFigures' block cache: this many times the filter and index bytes
// stored, and at least kMinDirectCacheBytes, since the cache charges a block's
// allocation (aligned for direct reads), not its bytes in the file. One shard,
// so that no shard overflows while the others have room; all of it the
// high-priority pool, since filter and index blocks are all it holds.
constexpr uint64_t kDirectCacheMetadataRatio = 2;
constexpr uint64_t kMinDirectCacheBytes = 256 << 10;
constexpr double kDirectHighPriPoolRatio = 1.0;

class OpenRocksDb final : public OpenDb {
 public:
  OpenRocksDb(RocksDbConfig config, std::unique_ptr<RocksDbTree> tree)
      : config_(std::move(config)), tree_(std::move(tree)) {}

  bool Lookup(absl::string_view key) override {
    rocksdb::ReadOptions read;
    read.fill_cache = false;  // every data block a lookup needs is read
    return tree_->db()
        ->Get(read, rocksdb::Slice(key.data(), key.size()), &value_)
        .ok();
  }
  uint64_t DataReads() override {
    return tree_->Ticker(rocksdb::BLOCK_CACHE_DATA_MISS);
  }
  uint64_t MetadataReads() override {
    return tree_->Ticker(rocksdb::BLOCK_CACHE_FILTER_MISS) +
           tree_->Ticker(rocksdb::BLOCK_CACHE_INDEX_MISS);
  }

  absl::StatusOr<DirectReadFigures> ReopenWithDirectReads(
      const DbShape& shape) override {
    const RocksDbTree::BlockBytes bytes = tree_->Bytes();
    DirectReadFigures figures;
    figures.data_bytes = bytes.data;
    figures.block_cache_bytes = DirectReadCacheBytes(bytes);
    figures.direct = true;
    absl::Status status = tree_->Reopen(RocksDbDirectReadOptions(
        config_, shape, figures.block_cache_bytes, /*direct=*/true));
    if (!status.ok()) {
      // O_DIRECT refused (tmpfs, some overlays): the same cache, buffered.
      figures.direct = false;
      figures.refused = std::string(status.message());
      status = tree_->Reopen(RocksDbDirectReadOptions(
          config_, shape, figures.block_cache_bytes, /*direct=*/false));
    }
    if (!status.ok()) return status;
    return figures;
  }

  absl::Status ReopenBuffered(const DbShape& shape) override {
    return tree_->Reopen(RocksDbLookupOptions(config_, shape));
  }

  absl::Status AddRecentFlushes(const DbShape& shape) override {
    rocksdb::DB* db = tree_->db();
    uint64_t next = shape.keys;
    for (int flush = 0; flush < kRocksDbRecentFlushes; ++flush) {
      // Fills the memtable to nearly its size, short of RocksDB's own flush
      // (which would split it across two tables), then flushes it.
      while (RocksDbIntProperty(db, "rocksdb.cur-size-active-mem-table") <
             shape.rocksdb_table_bytes * kFullMemtable) {
        absl::Status status = WriteRocksDbKeys(
            db, Random16Key, next, kFillStepKeys, shape.value_bytes);
        if (!status.ok()) return status;
        next += kFillStepKeys;
      }
      absl::Status status =
          FromRocksDb(db->Flush(rocksdb::FlushOptions()), "flush");
      if (!status.ok()) return status;
    }
    WaitForRocksDbCompactions(db);
    tree_->Describe(&result);
    const int l0_tables =
        result.files_per_level.empty() ? 0 : result.files_per_level[0];
    if (l0_tables != kRocksDbRecentFlushes) {
      return absl::InternalError(absl::StrFormat(
          "%s: L0 holds %d tables after %d flushes, want %d", result.config,
          l0_tables, kRocksDbRecentFlushes, kRocksDbRecentFlushes));
    }
    result.tree = kRecentFlushesTree;
    result.keys = next;
    result.bits_per_key = 8.0 * static_cast<double>(result.filter_bytes) /
                          static_cast<double>(result.keys);
    return absl::OkStatus();
  }

 private:
  const RocksDbConfig config_;
  const std::unique_ptr<RocksDbTree> tree_;
  std::string value_;
};

}  // namespace

rocksdb::Options RocksDbLookupOptions(const RocksDbConfig& config,
                                      const DbShape& shape) {
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy = config.policy;
  table.block_cache = rocksdb::NewLRUCache(kBlockCacheBytes);
  return RocksDbTreeOptions(table, shape.rocksdb_table_bytes);
}

uint64_t DirectReadCacheBytes(const RocksDbTree::BlockBytes& bytes) {
  return std::max(kMinDirectCacheBytes,
                  kDirectCacheMetadataRatio * bytes.filter_and_index);
}

rocksdb::Options RocksDbDirectReadOptions(const RocksDbConfig& config,
                                          const DbShape& shape,
                                          uint64_t cache_bytes, bool direct) {
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy = config.policy;
  table.cache_index_and_filter_blocks = true;
  table.cache_index_and_filter_blocks_with_high_priority = true;
  // Every filter and index block pinned in the cache from table open: lookups
  // read data blocks only. (Lookups do not fill the cache, and since RocksDB 9
  // a block read with fill_cache = false is not inserted, metadata included;
  // RocksDB 7.8 inserted filter and index blocks anyway.)
  table.metadata_cache_options.top_level_index_pinning =
      rocksdb::PinningTier::kAll;
  table.metadata_cache_options.partition_pinning = rocksdb::PinningTier::kAll;
  table.metadata_cache_options.unpartitioned_pinning =
      rocksdb::PinningTier::kAll;
  rocksdb::LRUCacheOptions cache;
  cache.capacity = cache_bytes;
  cache.num_shard_bits = 0;
  cache.high_pri_pool_ratio = kDirectHighPriPoolRatio;
  table.block_cache = rocksdb::NewLRUCache(cache);
  rocksdb::Options options =
      RocksDbTreeOptions(table, shape.rocksdb_table_bytes);
  options.use_direct_reads = direct;
  return options;
}

uint64_t RocksDbKeysPerFlush(const DbShape& shape) {
  return static_cast<uint64_t>(
      static_cast<double>(shape.rocksdb_table_bytes) * kFullMemtable /
      static_cast<double>(16 + shape.value_bytes +
                          kMemtableEntryOverheadBytes));
}

absl::StatusOr<std::unique_ptr<OpenDb>> BuildRocksDb(
    const RocksDbConfig& config, const DbShape& shape,
    const Progress& progress) {
  DbResult result;
  absl::StatusOr<std::unique_ptr<RocksDbTree>> tree =
      RocksDbTree::Build({config.name, config.filter, Random16Key,
                          RocksDbLookupOptions(config, shape),
                          RocksDbLookupOptions(config, shape)},
                         shape, progress, &result);
  if (!tree.ok()) return tree.status();
  auto db = std::make_unique<OpenRocksDb>(config, *std::move(tree));
  db->result = std::move(result);
  return db;
}

}  // namespace bench
}  // namespace sstfilter
