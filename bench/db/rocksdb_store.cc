#include "bench/db/rocksdb_store.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "bench/db/lookups.h"
#include "bench/keys.h"
#include "rocksdb/cache.h"
#include "rocksdb/db.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"

namespace sstfilter {
namespace bench {
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

rocksdb::Options MakeOptions(const RocksDbConfig& config) {
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy = config.policy;
  table.block_cache = rocksdb::NewLRUCache(kBlockCacheBytes);
  return RocksDbTreeOptions(table);
}

class OpenRocksDb final : public OpenDb {
 public:
  explicit OpenRocksDb(std::unique_ptr<RocksDbTree> tree)
      : tree_(std::move(tree)) {}

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

  absl::Status AddRecentFlushes(const DbShape& shape) override {
    rocksdb::DB* db = tree_->db();
    uint64_t next = shape.keys;
    for (int flush = 0; flush < kRocksDbRecentFlushes; ++flush) {
      // Fills the memtable to nearly its size, short of RocksDB's own flush
      // (which would split it across two tables), then flushes it.
      while (RocksDbIntProperty(db, "rocksdb.cur-size-active-mem-table") <
             kRocksDbWriteBufferBytes * kFullMemtable) {
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
  const std::unique_ptr<RocksDbTree> tree_;
  std::string value_;
};

}  // namespace

uint64_t RocksDbKeysPerFlush(size_t value_bytes) {
  return static_cast<uint64_t>(
      kRocksDbWriteBufferBytes * kFullMemtable /
      static_cast<double>(16 + value_bytes + kMemtableEntryOverheadBytes));
}

absl::StatusOr<std::unique_ptr<OpenDb>> BuildRocksDb(
    const RocksDbConfig& config, const DbShape& shape,
    const Progress& progress) {
  DbResult result;
  absl::StatusOr<std::unique_ptr<RocksDbTree>> tree =
      RocksDbTree::Build({config.name, config.filter, Random16Key,
                          MakeOptions(config), MakeOptions(config)},
                         shape, progress, &result);
  if (!tree.ok()) return tree.status();
  auto db = std::make_unique<OpenRocksDb>(*std::move(tree));
  db->result = std::move(result);
  return db;
}

}  // namespace bench
}  // namespace sstfilter
