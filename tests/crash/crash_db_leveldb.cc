// crash_db.h for LevelDB 1.23.

#include <memory>
#include <string>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engines/leveldb/leveldb_adapter.h"
#include "filter/bloom/bloom.h"
#include "filter/burr/burr.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/options.h"
#include "leveldb/table.h"
#include "leveldb/write_batch.h"
#include "table/table_filter.h"
#include "table/testing/real_tables.h"
#include "tests/crash/crash_db_engines.h"
#include "tests/crash/leveldb_table_writes_env.h"

namespace sstfilter {
namespace test {
namespace {

constexpr double kBitsPerKey = 10;
// Small memtables (64 KB is the least LevelDB accepts): a flush every few
// hundred writes, and a level-0 compaction (at four L0 tables, LevelDB's
// trigger) every few flushes. LevelDB's level sizes are fixed (10 MB for
// L1) and its tables at least 1 MB, so its compactions are mostly L0 into
// L1, into one or a few tables.
constexpr size_t kWriteBufferBytes = 64 << 10;
// LevelDB's tag after each user key in a table: sequence number and type.
constexpr size_t kInternalKeyTagBytes = 8;

absl::StatusOr<std::unique_ptr<leveldb::FilterPolicy>> LevelDbPolicy(
    const std::string& name) {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      absl::InvalidArgumentError(
          absl::StrCat("no LevelDB policy \"", name, "\""));
  if (name == "native") {
    policy = NewBloomFilterPolicy(FilterOptions::BitsPerKey(kBitsPerKey));
  } else if (name == "compact") {
    policy = NewBurrFilterPolicy(FilterOptions::BitsPerKey(kBitsPerKey));
  }
  if (!policy.ok()) return policy.status();
  return AsLevelDbFilterPolicy(*std::move(policy));
}

class LevelDbCrashDb : public CrashDb {
 public:
  class LevelDbSnapshot : public Snapshot {
   public:
    LevelDbSnapshot(leveldb::DB* db) : db_(db), snapshot_(db->GetSnapshot()) {}
    ~LevelDbSnapshot() override { db_->ReleaseSnapshot(snapshot_); }
    const leveldb::Snapshot* get() const { return snapshot_; }

   private:
    leveldb::DB* db_;
    const leveldb::Snapshot* snapshot_;
  };

  LevelDbCrashDb(std::string dir, std::unique_ptr<leveldb::Env> env,
                 std::unique_ptr<leveldb::FilterPolicy> policy,
                 std::unique_ptr<leveldb::DB> db)
      : dir_(std::move(dir)),
        env_(std::move(env)),
        policy_(std::move(policy)),
        db_(std::move(db)) {}

  // LevelDB has no other shutdown than deleting the database.
  absl::Status Close() override {
    db_.reset();
    return absl::OkStatus();
  }

  absl::Status Apply(const Op& op, bool sync) override {
    leveldb::WriteOptions options;
    options.sync = sync;
    leveldb::WriteBatch batch;
    if (op.type == Op::kPut) {
      batch.Put(op.key, op.value);
    } else {
      batch.Delete(op.key);
    }
    return FromLevelDb(db_->Write(options, &batch), "Write");
  }

  absl::StatusOr<std::optional<std::string>> Get(
      const std::string& key, const Snapshot* snapshot) override {
    leveldb::ReadOptions options;
    if (snapshot != nullptr) {
      options.snapshot = static_cast<const LevelDbSnapshot*>(snapshot)->get();
    }
    std::string value;
    leveldb::Status s = db_->Get(options, key, &value);
    if (s.IsNotFound()) return std::nullopt;
    if (!s.ok()) return FromLevelDb(s, absl::StrCat("Get ", key));
    return value;
  }

  std::unique_ptr<Snapshot> TakeSnapshot() override {
    return std::make_unique<LevelDbSnapshot>(db_.get());
  }

  std::string FilterName() const override { return policy_->Name(); }

  std::unique_ptr<Snapshot> NewIteratorPin() override {
    class IteratorPin : public Snapshot {
     public:
      explicit IteratorPin(leveldb::Iterator* it) : it_(it) {}

     private:
      std::unique_ptr<leveldb::Iterator> it_;
    };
    return std::make_unique<IteratorPin>(
        db_->NewIterator(leveldb::ReadOptions()));
  }

  std::vector<std::string> LiveTableFiles() override {
    // One line per table, " <number>:<bytes>[<smallest> .. <largest>]",
    // under a "--- level N ---" line per level.
    std::string text;
    db_->GetProperty("leveldb.sstables", &text);
    std::vector<std::string> paths;
    for (absl::string_view line : absl::StrSplit(text, '\n')) {
      uint64_t number = 0;
      if (!absl::ConsumePrefix(&line, " ") ||
          !absl::SimpleAtoi(line.substr(0, line.find(':')), &number)) {
        continue;
      }
      paths.push_back(absl::StrFormat("%s/%06d.ldb", dir_, number));
    }
    return paths;
  }

 private:
  const std::string dir_;
  // Declared before the database, which uses them until it is deleted.
  std::unique_ptr<leveldb::Env> env_;  // null: none of our own
  std::unique_ptr<leveldb::FilterPolicy> policy_;
  std::unique_ptr<leveldb::DB> db_;
};

// Every user key of the LevelDB table at path, through LevelDB's own reader.
absl::StatusOr<std::vector<std::string>> TableKeys(const std::string& path) {
  leveldb::Env* env = leveldb::Env::Default();
  uint64_t size = 0;
  absl::Status s = FromLevelDb(env->GetFileSize(path, &size), path);
  if (!s.ok()) return s;
  leveldb::RandomAccessFile* raw_file = nullptr;
  s = FromLevelDb(env->NewRandomAccessFile(path, &raw_file), path);
  if (!s.ok()) return s;
  std::unique_ptr<leveldb::RandomAccessFile> file(raw_file);
  leveldb::Table* raw_table = nullptr;
  s = FromLevelDb(
      leveldb::Table::Open(leveldb::Options(), file.get(), size, &raw_table),
      path);
  if (!s.ok()) return s;
  std::unique_ptr<leveldb::Table> table(raw_table);
  std::unique_ptr<leveldb::Iterator> it(
      table->NewIterator(leveldb::ReadOptions()));
  std::vector<std::string> keys;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    leveldb::Slice key = it->key();
    if (key.size() < kInternalKeyTagBytes) {
      return absl::DataLossError(absl::StrCat(path, ": a key without a tag"));
    }
    keys.emplace_back(key.data(), key.size() - kInternalKeyTagBytes);
  }
  s = FromLevelDb(it->status(), path);
  if (!s.ok()) return s;
  return keys;
}

}  // namespace

absl::StatusOr<std::unique_ptr<CrashDb>> OpenLevelDbCrashDb(
    const std::string& policy_name, const std::string& dir, leveldb::Env* env,
    BackgroundWorkListener* listener) {
  absl::StatusOr<std::unique_ptr<leveldb::FilterPolicy>> policy =
      LevelDbPolicy(policy_name);
  if (!policy.ok()) return policy.status();
  leveldb::Options options;
  options.create_if_missing = true;
  options.filter_policy = policy->get();
  options.write_buffer_size = kWriteBufferBytes;
  // sstfilter's table reader reads uncompressed tables only.
  options.compression = leveldb::kNoCompression;
  if (env != nullptr) options.env = env;
  std::unique_ptr<leveldb::Env> table_writes;
  if (listener != nullptr) {
    table_writes =
        std::make_unique<LevelDbTableWritesEnv>(options.env, listener);
    options.env = table_writes.get();
  }
  absl::StatusOr<std::unique_ptr<leveldb::DB>> db = OpenLevelDb(options, dir);
  if (!db.ok()) return db.status();
  return std::make_unique<LevelDbCrashDb>(dir, std::move(table_writes),
                                          *std::move(policy), *std::move(db));
}

absl::Status CheckLevelDbTableFilter(const std::string& path,
                                     const std::string& filter_name) {
  absl::StatusOr<std::unique_ptr<TableFilter>> filter =
      TableFilter::OpenFile(path, TableFilterOptions());
  if (!filter.ok()) return filter.status();
  const TableFilterInfo& info = (*filter)->info();
  if (!info.filter.has_value() || info.filter->policy_name != filter_name) {
    return absl::FailedPreconditionError(absl::StrCat(
        path, ": filter \"",
        info.filter.has_value() ? info.filter->policy_name : "(none)",
        "\", expected \"", filter_name, "\""));
  }
  absl::StatusOr<std::vector<std::string>> keys = TableKeys(path);
  if (!keys.ok()) return keys.status();
  for (const std::string& key : *keys) {
    if (!(*filter)->KeyMayMatch(key)) {
      return absl::DataLossError(
          absl::StrCat(path, ": its filter rules out its key ", key));
    }
  }
  return (*filter)->corruption();
}

}  // namespace test
}  // namespace sstfilter
