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

// Data blocks come through a block cache far smaller than the data, so a data
// block a lookup needs is almost always read from the file: each block cache
// miss is a read. Index and filter blocks stay in the table readers (RocksDB's
// default, cache_index_and_filter_blocks = false), so they are never counted.
constexpr size_t kBlockCacheBytes = 8 << 20;
constexpr size_t kWriteBatchKeys = 1000;

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

absl::Status Build(const RocksDbConfig& config, const DbShape& shape,
                   const std::string& path) {
  rocksdb::DB* raw = nullptr;
  absl::Status status =
      ToStatus(rocksdb::DB::Open(MakeOptions(config), path, &raw), "open");
  if (!status.ok()) return status;
  std::unique_ptr<rocksdb::DB> db(raw);
  rocksdb::WriteOptions write_options;
  write_options.disableWAL = true;  // the database is rebuilt, never recovered
  const std::string value(shape.value_bytes, 'v');
  char key[kMaxKeyBytes];
  rocksdb::WriteBatch batch;
  for (uint64_t i = 0; i < shape.keys; ++i) {
    const size_t len = MakeKey(KeyKind::kRandom16, i, key);
    batch.Put(rocksdb::Slice(key, len), value);
    if (batch.Count() == kWriteBatchKeys || i + 1 == shape.keys) {
      status = ToStatus(db->Write(write_options, &batch), "write");
      if (!status.ok()) return status;
      batch.Clear();
    }
  }
  status = ToStatus(db->Flush(rocksdb::FlushOptions()), "flush");
  if (!status.ok()) return status;
  WaitForCompactions(db.get());
  return ToStatus(db->Close(), "close");
}

// Files, keys and filter bits by level, from the tables' properties (keyed by
// path) joined with the levels' file lists.
void Describe(rocksdb::DB* db, DbResult* result) {
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
    return db_
        ->Get(rocksdb::ReadOptions(), rocksdb::Slice(key.data(), key.size()),
              &value_)
        .ok();
  }
  uint64_t DataReads() override {
    return options_.statistics->getTickerCount(rocksdb::BLOCK_CACHE_DATA_MISS);
  }

 private:
  const std::string path_;
  const rocksdb::Options options_;
  std::unique_ptr<rocksdb::DB> db_;
  std::string value_;
};

}  // namespace

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
