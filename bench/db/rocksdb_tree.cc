#include "bench/db/rocksdb_tree.h"

#include <chrono>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "bench/db/lookups.h"
#include "bench/keys.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/write_batch.h"

namespace sstfilter {
namespace bench {
namespace {

absl::Status WriteAndSettle(const RocksDbTreeSpec& spec, const DbShape& shape,
                            const std::string& path) {
  rocksdb::Options options = spec.build;
  if (spec.one_level) options.disable_auto_compactions = true;
  rocksdb::DB* raw = nullptr;
  absl::Status status =
      FromRocksDb(rocksdb::DB::Open(options, path, &raw), "open");
  if (!status.ok()) return status;
  std::unique_ptr<rocksdb::DB> db(raw);
  status = WriteRocksDbKeys(db.get(), spec.make_key, 0, shape.keys,
                            shape.value_bytes);
  if (!status.ok()) return status;
  status = FromRocksDb(db->Flush(rocksdb::FlushOptions()), "flush");
  if (!status.ok()) return status;
  if (spec.one_level) {
    // (Not WaitForRocksDbCompactions: with automatic compactions off, L0's
    // compaction stays pending.)
    // Every table is in L0; with dynamic level sizes and nothing below, the
    // manual compaction writes them to the last level in one merge.
    status = FromRocksDb(
        db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr),
        "compact into the last level");
  } else {
    WaitForRocksDbCompactions(db.get());
    status = FromRocksDb(
        db->SetOptions({{"level0_file_num_compaction_trigger", "1"}}),
        "set the L0 trigger");
    if (status.ok()) WaitForRocksDbCompactions(db.get());
  }
  if (!status.ok()) return status;
  return FromRocksDb(db->Close(), "close");
}

}  // namespace

rocksdb::Options RocksDbTreeOptions(
    const rocksdb::BlockBasedTableOptions& table, size_t table_bytes) {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  options.num_levels = kRocksDbNumLevels;
  options.write_buffer_size = table_bytes;
  options.target_file_size_base = table_bytes;
  options.level0_file_num_compaction_trigger = kRocksDbL0CompactionTrigger;
  options.max_bytes_for_level_base = kRocksDbL0CompactionTrigger * table_bytes;
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

absl::Status WriteRocksDbKeys(rocksdb::DB* db, KeyMaker make_key,
                              uint64_t first, uint64_t count,
                              size_t value_bytes) {
  const std::string value(value_bytes, 'v');
  char key[kMaxKeyBytes];
  return WriteRocksDbBatches(
      db, count, [&](uint64_t i, rocksdb::WriteBatch* batch) {
        batch->Put(rocksdb::Slice(key, make_key(first + i, key)), value);
      });
}

absl::StatusOr<std::unique_ptr<RocksDbTree>> RocksDbTree::Build(
    const RocksDbTreeSpec& spec, const DbShape& shape, const Progress& progress,
    DbResult* result) {
  const std::string path = DatabasePath(
      shape, kRocksDbStore,
      spec.variant.empty() ? spec.name : spec.name + "." + spec.variant);
  rocksdb::DestroyDB(path, rocksdb::Options());  // a leftover of a killed run
  const auto fail = [&](const absl::Status& status) {
    rocksdb::DestroyDB(path, rocksdb::Options());
    return absl::Status(status.code(),
                        absl::StrCat(spec.name, ": ", status.message()));
  };
  progress(absl::StrFormat("%s: writing %d keys", spec.name, shape.keys));
  const auto start = std::chrono::steady_clock::now();
  absl::Status status = WriteAndSettle(spec, shape, path);
  if (!status.ok()) return fail(status);
  const double build_seconds = SecondsSince(start);
  rocksdb::DB* raw = nullptr;
  status = FromRocksDb(rocksdb::DB::Open(spec.reopen, path, &raw), "reopen");
  if (!status.ok()) return fail(status);
  std::unique_ptr<RocksDbTree> tree(
      new RocksDbTree(path, spec.reopen, std::unique_ptr<rocksdb::DB>(raw)));
  *result =
      BuiltResult(kRocksDbStore, spec.name, spec.filter, shape, build_seconds);
  tree->Describe(result);
  FinishBuiltResult(progress, result);
  return tree;
}

RocksDbTree::RocksDbTree(std::string path, rocksdb::Options options,
                         std::unique_ptr<rocksdb::DB> db)
    : path_(std::move(path)),
      options_(std::move(options)),
      db_(std::move(db)) {}

RocksDbTree::~RocksDbTree() {
  if (db_ != nullptr) db_->Close();
  db_.reset();
  rocksdb::DestroyDB(path_, rocksdb::Options());
}

uint64_t RocksDbTree::Ticker(rocksdb::Tickers ticker) const {
  return options_.statistics->getTickerCount(ticker);
}

absl::Status RocksDbTree::Close() {
  if (db_ == nullptr) return absl::OkStatus();
  absl::Status status = FromRocksDb(db_->Close(), "close");
  db_.reset();
  return status;
}

absl::Status RocksDbTree::Reopen(rocksdb::Options options) {
  absl::Status status = Close();
  if (!status.ok()) return status;
  rocksdb::DB* raw = nullptr;
  status = FromRocksDb(rocksdb::DB::Open(options, path_, &raw), "reopen");
  if (!status.ok()) return status;
  db_.reset(raw);
  options_ = std::move(options);
  return absl::OkStatus();
}

RocksDbTree::BlockBytes RocksDbTree::Bytes() const {
  rocksdb::TablePropertiesCollection tables;
  db_->GetPropertiesOfAllTables(&tables);
  BlockBytes bytes;
  for (const auto& entry : tables) {
    bytes.data += entry.second->data_size;
    bytes.filter_and_index +=
        entry.second->filter_size + entry.second->index_size;
  }
  return bytes;
}

// The tables' properties (keyed by path) joined with the levels' file lists.
void RocksDbTree::Describe(DbResult* result) const {
  result->files_per_level.clear();
  result->entries_per_level.clear();
  result->bits_per_key_per_level.clear();
  result->filter_bytes = 0;
  rocksdb::TablePropertiesCollection tables;
  db_->GetPropertiesOfAllTables(&tables);
  rocksdb::ColumnFamilyMetaData meta;
  db_->GetColumnFamilyMetaData(&meta);
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

}  // namespace bench
}  // namespace sstfilter
