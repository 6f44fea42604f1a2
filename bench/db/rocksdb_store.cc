#include "bench/db/rocksdb_store.h"

#include <chrono>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bench/db/lookups.h"
#include "bench/keys.h"
#include "rocksdb/cache.h"
#include "rocksdb/db.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"

namespace sstfilter {
namespace bench {
namespace {

// Lookups do not fill the block cache (ReadOptions::fill_cache = false), so
// each data block a lookup needs is a block cache miss and a read of the
// file. Index and filter blocks stay in the table readers (RocksDB's default,
// cache_index_and_filter_blocks = false), so they are never counted.
constexpr size_t kBlockCacheBytes = 8 << 20;
constexpr size_t kWriteBatchKeys = 1000;
// A recent flush's memtable is filled to this share of its size, in steps of
// kFillStepKeys keys: RocksDB flushes by itself a little above 0.95.
constexpr double kFullMemtable = 0.9;
constexpr uint64_t kFillStepKeys = 100;
// A memtable entry's bytes beyond its key and value (skiplist node, varint
// lengths, sequence number, arena slack), as measured: 11,400 entries of 16 +
// 32 bytes filled kFullMemtable of a 1 MB memtable.
constexpr size_t kMemtableEntryOverheadBytes = 35;

absl::Status ToStatus(const rocksdb::Status& s, const std::string& what) {
  if (s.ok()) return absl::OkStatus();
  return absl::InternalError(absl::StrCat(what, ": ", s.ToString()));
}

rocksdb::Options MakeOptions(const RocksDbConfig& config) {
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy = config.policy;
  table.block_cache = rocksdb::NewLRUCache(kBlockCacheBytes);
  rocksdb::Options options;
  options.create_if_missing = true;
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  options.num_levels = kRocksDbNumLevels;
  options.write_buffer_size = kRocksDbWriteBufferBytes;
  options.target_file_size_base = kRocksDbWriteBufferBytes;
  options.level0_file_num_compaction_trigger = kRocksDbL0CompactionTrigger;
  options.max_bytes_for_level_base = kRocksDbBaseLevelBytes;
  options.max_bytes_for_level_multiplier = kRocksDbFanOut;
  // Levels sized from the last one up (RocksDB's recommended setting): the
  // last level holds most keys from the start, and compactions into it merge
  // with its data, so each table's filter is built at the level it lives in
  // rather than moved down unchanged from a level above.
  options.level_compaction_dynamic_level_bytes = true;
  options.max_background_jobs = 2;
  options.max_open_files =
      -1;  // every table opened (and its filter loaded) at open
  options.statistics = rocksdb::CreateDBStatistics();
  return options;
}

uint64_t IntProperty(rocksdb::DB* db, const std::string& name) {
  uint64_t value = 0;
  db->GetIntProperty(name, &value);
  return value;
}

// Waits until no flush or compaction is running or pending.
void WaitForCompactions(rocksdb::DB* db) {
  while (IntProperty(db, "rocksdb.compaction-pending") != 0 ||
         IntProperty(db, "rocksdb.num-running-compactions") != 0 ||
         IntProperty(db, "rocksdb.num-running-flushes") != 0 ||
         IntProperty(db, "rocksdb.mem-table-flush-pending") != 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

// Writes keys [first, first + count) with shape's values, in batches.
absl::Status WriteKeys(rocksdb::DB* db, uint64_t first, uint64_t count,
                       size_t value_bytes) {
  rocksdb::WriteOptions write_options;
  write_options.disableWAL = true;  // the database is rebuilt, never recovered
  const std::string value(value_bytes, 'v');
  char key[kMaxKeyBytes];
  rocksdb::WriteBatch batch;
  for (uint64_t i = first; i < first + count; ++i) {
    const size_t len = MakeKey(KeyKind::kRandom16, i, key);
    batch.Put(rocksdb::Slice(key, len), value);
    if (batch.Count() == kWriteBatchKeys || i + 1 == first + count) {
      absl::Status status = ToStatus(db->Write(write_options, &batch), "write");
      if (!status.ok()) return status;
      batch.Clear();
    }
  }
  return absl::OkStatus();
}

absl::Status Build(const RocksDbConfig& config, const DbShape& shape,
                   const std::string& path) {
  rocksdb::DB* raw = nullptr;
  absl::Status status =
      ToStatus(rocksdb::DB::Open(MakeOptions(config), path, &raw), "open");
  if (!status.ok()) return status;
  std::unique_ptr<rocksdb::DB> db(raw);
  status = WriteKeys(db.get(), 0, shape.keys, shape.value_bytes);
  if (!status.ok()) return status;
  status = ToStatus(db->Flush(rocksdb::FlushOptions()), "flush");
  if (!status.ok()) return status;
  WaitForCompactions(db.get());
  // The settled tree: whatever flushes were left in L0 below the compaction
  // trigger are compacted too, so that every configuration's tree has the
  // same shape whatever the timing of its background compactions.
  status =
      ToStatus(db->SetOptions({{"level0_file_num_compaction_trigger", "1"}}),
               "set the L0 trigger");
  if (!status.ok()) return status;
  WaitForCompactions(db.get());
  return ToStatus(db->Close(), "close");
}

// Files, keys and filter bits by level, from the tables' properties (keyed by
// path) joined with the levels' file lists.
void Describe(rocksdb::DB* db, DbResult* result) {
  result->files_per_level.clear();
  result->entries_per_level.clear();
  result->bits_per_key_per_level.clear();
  result->filter_bytes = 0;
  rocksdb::TablePropertiesCollection tables;
  db->GetPropertiesOfAllTables(&tables);
  rocksdb::ColumnFamilyMetaData meta;
  db->GetColumnFamilyMetaData(&meta);
  for (const rocksdb::LevelMetaData& level : meta.levels) {
    uint64_t entries = 0;
    uint64_t filter_bytes = 0;
    for (const rocksdb::SstFileMetaData& file : level.files) {
      entries += file.num_entries;
      const auto found =
          tables.find(file.directory + "/" + file.relative_filename);
      if (found != tables.end()) filter_bytes += found->second->filter_size;
    }
    result->files_per_level.push_back(static_cast<int>(level.files.size()));
    result->entries_per_level.push_back(entries);
    result->bits_per_key_per_level.push_back(
        entries == 0 ? 0.0
                     : 8.0 * static_cast<double>(filter_bytes) /
                           static_cast<double>(entries));
  }
  for (const auto& entry : tables) {
    result->filter_bytes += entry.second->filter_size;
  }
  while (!result->files_per_level.empty() &&
         result->files_per_level.back() == 0) {
    result->files_per_level.pop_back();
    result->entries_per_level.pop_back();
    result->bits_per_key_per_level.pop_back();
  }
}

class OpenRocksDb final : public OpenDb {
 public:
  OpenRocksDb(std::string path, rocksdb::Options options,
              std::unique_ptr<rocksdb::DB> db)
      : path_(std::move(path)),
        options_(std::move(options)),
        db_(std::move(db)) {}
  ~OpenRocksDb() override {
    db_->Close();
    db_.reset();
    rocksdb::DestroyDB(path_, rocksdb::Options());
  }

  bool Lookup(absl::string_view key) override {
    rocksdb::ReadOptions read;
    read.fill_cache = false;  // every data block a lookup needs is read
    return db_->Get(read, rocksdb::Slice(key.data(), key.size()), &value_).ok();
  }
  uint64_t DataReads() override {
    return options_.statistics->getTickerCount(rocksdb::BLOCK_CACHE_DATA_MISS);
  }

  absl::Status AddRecentFlushes(const DbShape& shape) override {
    uint64_t next = shape.keys;
    for (int flush = 0; flush < kRocksDbRecentFlushes; ++flush) {
      // Fills the memtable to nearly its size, short of RocksDB's own flush
      // (which would split it across two tables), then flushes it.
      while (IntProperty(db_.get(), "rocksdb.cur-size-active-mem-table") <
             kRocksDbWriteBufferBytes * kFullMemtable) {
        absl::Status status =
            WriteKeys(db_.get(), next, kFillStepKeys, shape.value_bytes);
        if (!status.ok()) return status;
        next += kFillStepKeys;
      }
      absl::Status status =
          ToStatus(db_->Flush(rocksdb::FlushOptions()), "flush");
      if (!status.ok()) return status;
    }
    WaitForCompactions(db_.get());
    Describe(db_.get(), &result);
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
  const std::string path_;
  const rocksdb::Options options_;
  std::unique_ptr<rocksdb::DB> db_;
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
  const std::string path = absl::StrCat(shape.dir, "/", config.name);
  rocksdb::DestroyDB(path, rocksdb::Options());  // a leftover of a killed run
  const auto fail = [&](const absl::Status& status) {
    rocksdb::DestroyDB(path, rocksdb::Options());
    return absl::Status(status.code(),
                        absl::StrCat(config.name, ": ", status.message()));
  };
  progress(absl::StrFormat("%s: writing %d keys", config.name, shape.keys));
  const auto start = std::chrono::steady_clock::now();
  absl::Status status = Build(config, shape, path);
  if (!status.ok()) return fail(status);
  const double build_seconds = SecondsSince(start);
  rocksdb::Options options = MakeOptions(config);
  rocksdb::DB* raw = nullptr;
  status = ToStatus(rocksdb::DB::Open(options, path, &raw), "reopen");
  if (!status.ok()) return fail(status);
  auto db = std::make_unique<OpenRocksDb>(path, options,
                                          std::unique_ptr<rocksdb::DB>(raw));
  db->result =
      BuiltResult("rocksdb", config.name, config.filter, shape, build_seconds);
  DbResult& result = db->result;
  Describe(raw, &result);
  FinishBuiltResult(progress, &result);
  return db;
}

}  // namespace bench
}  // namespace sstfilter
