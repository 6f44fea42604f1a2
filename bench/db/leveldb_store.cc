#include "bench/db/leveldb_store.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bench/db/lookups.h"
#include "bench/keys.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/write_batch.h"
#include "table/table_filter.h"

namespace sstfilter {
namespace bench {
namespace {

constexpr size_t kWriteBatchKeys = 1000;
// LevelDB clamps max_open_files to 50,000; far more than these databases'
// tables, so each table is opened once, in the warm-up, and stays open.
constexpr int kMaxOpenFiles = 50'000;
// LevelDB exposes no "compaction pending"; its per-level statistics stop
// changing when background compaction has nothing left to do.
constexpr auto kIdlePoll = std::chrono::seconds(1);
constexpr int kIdlePollsRequired = 3;

absl::Status ToStatus(const leveldb::Status& s, const std::string& what) {
  if (s.ok()) return absl::OkStatus();
  return absl::InternalError(absl::StrCat(what, ": ", s.ToString()));
}

class CountingEnv;

// Counts the reads of a table file after it is open: with the index and
// filter blocks held by the open table, and lookups that do not fill the block
// cache, each read is a data block a lookup needed.
class CountingFile : public leveldb::RandomAccessFile {
 public:
  CountingFile(std::unique_ptr<leveldb::RandomAccessFile> file,
               CountingEnv* env)
      : file_(std::move(file)), env_(env) {}
  leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result,
                       char* scratch) const override;

 private:
  const std::unique_ptr<leveldb::RandomAccessFile> file_;
  CountingEnv* const env_;
};

// Counts only the reads made by the thread that created it, the one doing
// the lookups: LevelDB compacts a table after enough lookups pass through it
// (its seek-triggered compaction), and the background thread's reads of
// compaction inputs are not lookup costs.
class CountingEnv : public leveldb::EnvWrapper {
 public:
  CountingEnv()
      : leveldb::EnvWrapper(leveldb::Env::Default()),
        lookup_thread_(std::this_thread::get_id()) {}
  leveldb::Status NewRandomAccessFile(
      const std::string& name, leveldb::RandomAccessFile** result) override {
    leveldb::Status s = target()->NewRandomAccessFile(name, result);
    if (s.ok() && absl::EndsWith(name, ".ldb")) {
      *result = new CountingFile(
          std::unique_ptr<leveldb::RandomAccessFile>(*result), this);
    }
    return s;
  }
  void CountRead() {
    if (std::this_thread::get_id() == lookup_thread_) {
      reads_.fetch_add(1, std::memory_order_relaxed);
    }
  }
  uint64_t reads() const { return reads_.load(std::memory_order_relaxed); }

 private:
  const std::thread::id lookup_thread_;
  std::atomic<uint64_t> reads_{0};
};

leveldb::Status CountingFile::Read(uint64_t offset, size_t n,
                                   leveldb::Slice* result,
                                   char* scratch) const {
  env_->CountRead();
  return file_->Read(offset, n, result, scratch);
}

leveldb::Options MakeOptions(const LevelDbConfig& config, leveldb::Env* env) {
  leveldb::Options options;
  options.create_if_missing = true;
  options.filter_policy = config.policy.get();
  options.max_open_files = kMaxOpenFiles;
  options.env = env;
  return options;
}

void WaitForCompactions(leveldb::DB* db) {
  std::string last;
  int unchanged = 0;
  while (unchanged < kIdlePollsRequired) {
    std::this_thread::sleep_for(kIdlePoll);
    std::string stats;
    db->GetProperty("leveldb.stats", &stats);
    unchanged = stats == last ? unchanged + 1 : 0;
    last = stats;
  }
}

absl::Status Build(const LevelDbConfig& config, const DbShape& shape,
                   const std::string& path) {
  leveldb::DB* raw = nullptr;
  absl::Status status =
      ToStatus(leveldb::DB::Open(MakeOptions(config, leveldb::Env::Default()),
                                 path, &raw),
               "open");
  if (!status.ok()) return status;
  std::unique_ptr<leveldb::DB> db(raw);
  const std::string value(shape.value_bytes, 'v');
  char key[kMaxKeyBytes];
  leveldb::WriteBatch batch;
  uint64_t in_batch = 0;
  for (uint64_t i = 0; i < shape.keys; ++i) {
    const size_t len = MakeKey(KeyKind::kRandom16, i, key);
    batch.Put(leveldb::Slice(key, len), value);
    if (++in_batch == kWriteBatchKeys || i + 1 == shape.keys) {
      status = ToStatus(db->Write(leveldb::WriteOptions(), &batch), "write");
      if (!status.ok()) return status;
      batch.Clear();
      in_batch = 0;
    }
  }
  WaitForCompactions(db.get());
  return absl::OkStatus();
}

// Files per level from LevelDB's properties, and the filter bytes of every
// table as sstfilter's table reader finds them.
absl::Status Describe(leveldb::DB* db, const std::string& path,
                      DbResult* result) {
  for (int level = 0; level < 7; ++level) {
    std::string files;
    db->GetProperty(absl::StrCat("leveldb.num-files-at-level", level), &files);
    result->files_per_level.push_back(std::atoi(files.c_str()));
  }
  while (!result->files_per_level.empty() &&
         result->files_per_level.back() == 0) {
    result->files_per_level.pop_back();
  }
  std::vector<std::string> children;
  absl::Status status = ToStatus(
      leveldb::Env::Default()->GetChildren(path, &children), "list files");
  if (!status.ok()) return status;
  for (const std::string& child : children) {
    if (!absl::EndsWith(child, ".ldb")) continue;
    absl::StatusOr<std::unique_ptr<TableFilter>> table = TableFilter::OpenFile(
        absl::StrCat(path, "/", child), TableFilterOptions());
    if (!table.ok()) return table.status();
    result->filter_bytes += (*table)->info().filter_block_bytes;
  }
  return absl::OkStatus();
}

class OpenLevelDb final : public OpenDb {
 public:
  explicit OpenLevelDb(std::string path) : path_(std::move(path)) {}
  ~OpenLevelDb() override {
    db_.reset();  // before the Env it reads through
    leveldb::DestroyDB(path_, leveldb::Options());
  }

  absl::Status Open(const LevelDbConfig& config) {
    leveldb::DB* raw = nullptr;
    absl::Status status = ToStatus(
        leveldb::DB::Open(MakeOptions(config, &env_), path_, &raw), "reopen");
    db_.reset(raw);
    return status;
  }
  leveldb::DB* db() { return db_.get(); }

  bool Lookup(absl::string_view key) override {
    leveldb::ReadOptions read;
    read.fill_cache = false;  // every data block a lookup needs is read
    return db_->Get(read, leveldb::Slice(key.data(), key.size()), &value_).ok();
  }
  uint64_t DataReads() override { return env_.reads(); }

 private:
  const std::string path_;
  CountingEnv env_;  // counts the lookups of the thread that opened the db
  std::unique_ptr<leveldb::DB> db_;
  std::string value_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<OpenDb>> BuildLevelDb(
    const LevelDbConfig& config, const DbShape& shape,
    const Progress& progress) {
  const std::string path = DatabasePath(shape, kLevelDbStore, config.name);
  leveldb::DestroyDB(path, leveldb::Options());  // a leftover of a killed run
  const auto fail = [&](const absl::Status& status) {
    leveldb::DestroyDB(path, leveldb::Options());
    return absl::Status(status.code(),
                        absl::StrCat(config.name, ": ", status.message()));
  };
  progress(absl::StrFormat("%s: writing %d keys", config.name, shape.keys));
  const auto start = std::chrono::steady_clock::now();
  absl::Status status = Build(config, shape, path);
  if (!status.ok()) return fail(status);
  const double build_seconds = SecondsSince(start);
  auto db = std::make_unique<OpenLevelDb>(path);
  status = db->Open(config);
  if (!status.ok()) return fail(status);
  db->result = BuiltResult(kLevelDbStore, config.name, config.filter, shape,
                           build_seconds);
  DbResult& result = db->result;
  status = Describe(db->db(), path, &result);
  if (!status.ok()) return fail(status);
  FinishBuiltResult(progress, &result);
  return db;
}

}  // namespace bench
}  // namespace sstfilter
