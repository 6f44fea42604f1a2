// crash_db.h for RocksDB 7.8.3, plain or behind a PresenceFilteredDB.

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "engines/rocksdb/rocksdb_adapter.h"
#include "engines/rocksdb/rocksdb_hybrid_policy.h"
#include "engines/rocksdb/rocksdb_per_level_policy.h"
#include "engines/tree/per_level_allocation.h"
#include "filter/bloom/bloom.h"
#include "filter/burr/burr.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/write_batch.h"
#include "table/table_filter.h"
#include "tests/crash/crash_db_engines.h"
#include "tests/crash/presence_background_listener.h"
#include "tests/crash/rocksdb_background_listener.h"
#include "tests/crash/rocksdb_lookups.h"
#include "tests/crash/rocksdb_table_sync_floor_fs.h"
#include "tests/integration/rocksdb_db_util.h"

namespace sstfilter {
namespace test {
namespace {

constexpr double kBitsPerKey = 10;
// Small memtables, tables and levels: a flush every few hundred writes, an
// L0 compaction every second flush, and compactions into L2 and L3 as the
// levels fill, most of them in flight at any moment.
constexpr int kNumLevels = 4;
constexpr size_t kWriteBufferBytes = 64 << 10;
constexpr uint64_t kTableBytes = 64 << 10;
constexpr uint64_t kLevel1Bytes = 128 << 10;
constexpr double kFanOut = 10;
// The presence filter is first sized for a quarter of the workload's keys:
// the workload outgrows it within its first thousand ops, and each rebuild
// sizes for the keys then present, which the workload outgrows again until
// its key space is full.
constexpr uint64_t kPresenceExpectedKeys = kKeySpace / 4;

absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> RocksDbPolicy(
    const std::string& name) {
  if (name == "native" || name == "compact") {
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
        name == "native"
            ? NewBloomFilterPolicy(FilterOptions::BitsPerKey(kBitsPerKey))
            : NewBurrFilterPolicy(FilterOptions::BitsPerKey(kBitsPerKey));
    if (!policy.ok()) return policy.status();
    return AsRocksDbFilterPolicy(*std::move(policy));
  }
  if (name == "per_level" || name == "hybrid") {
    absl::StatusOr<std::vector<TreeLevel>> tree =
        LeveledTree(kNumLevels, kFanOut);
    if (!tree.ok()) return tree.status();
    return name == "per_level"
               ? NewRocksDbPerLevelFilterPolicy(*tree, kBitsPerKey)
               : NewRocksDbHybridFilterPolicy(*tree, kBitsPerKey);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("no RocksDB policy \"", name, "\""));
}

class RocksDbCrashDb : public CrashDb {
 public:
  class RocksDbSnapshot : public Snapshot {
   public:
    RocksDbSnapshot(rocksdb::DB* db) : db_(db), snapshot_(db->GetSnapshot()) {}
    ~RocksDbSnapshot() override { db_->ReleaseSnapshot(snapshot_); }
    const rocksdb::Snapshot* get() const { return snapshot_; }

   private:
    rocksdb::DB* db_;
    const rocksdb::Snapshot* snapshot_;
  };

  // presence: null, or the PresenceFilteredDB db is, with the listener it
  // reports to (or null).
  // env: null, or the Env db uses, which the CrashDb owns.
  RocksDbCrashDb(std::shared_ptr<const rocksdb::FilterPolicy> policy,
                 std::unique_ptr<rocksdb::Env> env,
                 std::unique_ptr<PresenceFilterListener> presence_listener,
                 std::unique_ptr<rocksdb::DB> db, PresenceFilteredDB* presence)
      : policy_(std::move(policy)),
        env_(std::move(env)),
        presence_listener_(std::move(presence_listener)),
        db_(std::move(db)),
        presence_(presence) {}

  absl::Status Close() override {
    if (presence_ != nullptr) return presence_->CloseAndSave();
    return FromRocksDb(db_->Close(), "Close");
  }

  // Odd ops are one-op batches through Write, even ones single Puts and
  // Deletes: a presence-filtered database adds the keys of each to its
  // filter on its own path.
  absl::Status Apply(const Op& op, bool sync) override {
    rocksdb::WriteOptions options;
    options.sync = sync;
    rocksdb::Status s;
    if (op.index % 2 == 0) {
      s = op.type == Op::kPut ? db_->Put(options, op.key, op.value)
                              : db_->Delete(options, op.key);
    } else {
      rocksdb::WriteBatch batch;
      s = op.type == Op::kPut ? batch.Put(op.key, op.value)
                              : batch.Delete(op.key);
      if (s.ok()) s = db_->Write(options, &batch);
    }
    return FromRocksDb(s, "Write");
  }

  absl::StatusOr<std::optional<std::string>> Get(
      const std::string& key, const Snapshot* snapshot) override {
    return RocksDbGet(db_.get(), key,
                      snapshot != nullptr
                          ? static_cast<const RocksDbSnapshot*>(snapshot)->get()
                          : nullptr);
  }

  absl::StatusOr<std::vector<std::optional<std::string>>> MultiGet(
      const std::vector<std::string>& keys) override {
    return RocksDbMultiGet(db_.get(), keys);
  }

  std::unique_ptr<Snapshot> TakeSnapshot() override {
    return std::make_unique<RocksDbSnapshot>(db_.get());
  }

  PresenceFilteredDB* presence_filtered_db() override { return presence_; }

  std::string FilterName() const override { return policy_->Name(); }

  std::unique_ptr<Snapshot> NewIteratorPin() override {
    class IteratorPin : public Snapshot {
     public:
      explicit IteratorPin(rocksdb::Iterator* it) : it_(it) {}

     private:
      std::unique_ptr<rocksdb::Iterator> it_;
    };
    return std::make_unique<IteratorPin>(
        db_->NewIterator(rocksdb::ReadOptions()));
  }

  std::vector<std::string> LiveTableFiles() override {
    std::vector<rocksdb::LiveFileMetaData> files;
    db_->GetLiveFilesMetaData(&files);
    std::vector<std::string> paths;
    for (const rocksdb::LiveFileMetaData& file : files) {
      paths.push_back(file.db_path + "/" + file.name);
    }
    return paths;
  }

 private:
  std::shared_ptr<const rocksdb::FilterPolicy> policy_;
  // Declared before the database, which uses it until it is deleted.
  std::unique_ptr<rocksdb::Env> env_;
  // Declared before the database, which reports to it until it is deleted.
  std::unique_ptr<PresenceFilterListener> presence_listener_;
  std::unique_ptr<rocksdb::DB> db_;
  PresenceFilteredDB* const presence_;  // db_, or null
};

}  // namespace

absl::StatusOr<std::unique_ptr<CrashDb>> OpenRocksDbCrashDb(
    const CrashConfig& config, const std::string& dir, rocksdb::Env* env,
    BackgroundWorkListener* listener) {
  absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> policy =
      RocksDbPolicy(config.policy);
  if (!policy.ok()) return policy.status();
  rocksdb::BlockBasedTableOptions table_options;
  table_options.filter_policy = *policy;
  rocksdb::Options options;
  options.table_factory.reset(
      rocksdb::NewBlockBasedTableFactory(table_options));
  options.create_if_missing = true;
  options.num_levels = kNumLevels;
  options.write_buffer_size = kWriteBufferBytes;
  options.level0_file_num_compaction_trigger = 2;
  options.target_file_size_base = kTableBytes;
  options.max_bytes_for_level_base = kLevel1Bytes;
  options.max_background_jobs = 2;
  options.compression = rocksdb::kNoCompression;
  std::unique_ptr<rocksdb::Env> own_env;
  if (listener != nullptr) {
    options.listeners.push_back(NewRocksDbBackgroundListener(listener));
    // Tables' windows as long as on a disk, for the kills aimed at them.
    if (env == nullptr) env = (own_env = NewRocksDbTableSyncFloorEnv()).get();
  }
  if (env != nullptr) options.env = env;
  if (!config.presence_filtered) {
    absl::StatusOr<std::unique_ptr<rocksdb::DB>> db = OpenDb(options, dir);
    if (!db.ok()) return db.status();
    return std::make_unique<RocksDbCrashDb>(*std::move(policy),
                                            std::move(own_env), nullptr,
                                            *std::move(db), nullptr);
  }
  // The checks count the lookups the filter lets through to RocksDB.
  options.statistics = rocksdb::CreateDBStatistics();
  PresenceFilterOptions filter_options;
  filter_options.expected_keys = kPresenceExpectedKeys;
  // Saves after every flush and compaction, many for kills to land in;
  // paced ones wait for table bytes as by default.
  filter_options.save_interval = std::chrono::milliseconds(0);
  if (!config.paced_saves) filter_options.table_bytes_per_saved_byte = 0;
  // Range items too, saved and rebuilt with the keys (reopen_checks.h
  // checks them with bounded seeks).
  filter_options.filter_range_seeks = true;
  std::unique_ptr<PresenceFilterListener> presence_listener;
  if (listener != nullptr) {
    presence_listener = NewPresenceBackgroundListener(listener);
    filter_options.listener = presence_listener.get();
  }
  absl::StatusOr<std::unique_ptr<PresenceFilteredDB>> db =
      PresenceFilteredDB::Open(options, dir, filter_options);
  if (!db.ok()) return db.status();
  PresenceFilteredDB* presence = db->get();
  return std::make_unique<RocksDbCrashDb>(
      *std::move(policy), std::move(own_env), std::move(presence_listener),
      std::unique_ptr<rocksdb::DB>(db->release()), presence);
}

absl::Status CheckRocksDbTableFilter(const std::string& path,
                                     const std::string& filter_name) {
  rocksdb::SstFileReader reader((rocksdb::Options()));
  absl::Status s = FromRocksDb(reader.Open(path), path);
  if (!s.ok()) return s;
  const std::string recorded = reader.GetTableProperties()->filter_policy_name;
  absl::StatusOr<std::unique_ptr<TableFilter>> filter =
      TableFilter::OpenFile(path, TableFilterOptions());
  if (!filter.ok()) return filter.status();
  const TableFilterInfo& info = (*filter)->info();
  const std::string stored =
      info.filter.has_value() ? info.filter->policy_name : "(none)";
  if (recorded != filter_name || stored != filter_name) {
    return absl::FailedPreconditionError(absl::StrCat(
        path, ": filter_policy_name \"", recorded, "\", filter block \"",
        stored, "\", expected \"", filter_name, "\""));
  }
  std::unique_ptr<rocksdb::Iterator> it(
      reader.NewIterator(rocksdb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    if (!(*filter)->KeyMayMatch(it->key().ToString())) {
      return absl::DataLossError(absl::StrCat(
          path, ": its filter rules out its key ", it->key().ToString()));
    }
  }
  s = FromRocksDb(it->status(), path);
  if (!s.ok()) return s;
  return (*filter)->corruption();
}

}  // namespace test
}  // namespace sstfilter
