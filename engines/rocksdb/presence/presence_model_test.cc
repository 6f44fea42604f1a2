// PresenceFilteredDB against a model: writer threads each own a part of the
// key space and keep a std::map of what it must hold, while reader threads
// look up keys whose writes were acknowledged, one reader chases writes the
// base database has made visible but whose Put or ingestion has not
// returned, and a maintenance thread flushes, compacts, saves and rebuilds.
// Between rounds the database is reopened every way it can be (a saved
// close, a close without a save, a damaged saved file, no saved file) and
// checked against the model key by key and by a full scan. Runs under TSan
// (tag "tsan").

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "engines/rocksdb/presence/presence_testing.h"
#include "engines/rocksdb/presence/saved_filters.h"
#include "gtest/gtest.h"
#include "inmemory/mutable/mutable_bloom.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/listener.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/statistics.h"
#include "rocksdb/version.h"
#include "rocksdb/write_batch.h"
#include "table/testing/real_tables.h"
#include "util/testing/random.h"

// RocksDB, Snappy and libstdc++ come from Debian, built without the thread
// sanitizer: their own synchronization (the atomics of RocksDB's write path
// and block cache) is invisible to TSan, which would report races on the
// memory they hand each other (a block a reader decompressed and another
// copies a value from). Accesses those libraries make are not checked; the
// wrapper's own code, built with the sanitizer, is.
extern "C" const char* __tsan_default_options() {
  return "ignore_noninstrumented_modules=1";
}
extern "C" const char* __tsan_default_suppressions() {
  return "called_from_lib:librocksdb.so\nrace:librocksdb.so\n";
}

namespace sstfilter {
namespace {

using presence_testing::AppendOperator;
using test::Random;
using test::TempDir;

constexpr int kWriters = 3;
constexpr int kReaders = 2;
constexpr int kRounds = 4;
constexpr int kOpsPerRound = 600;  // per writer
constexpr int kKeysPerWriter = 150;
constexpr int kFamilies = 2;
constexpr int kSavesReopenedPerRound = 12;
// Each round, the visibility checks must have looked a key up through the
// wrapper while the write that made it visible was still under way, for at
// least this many kept keys' Puts and this many ingestions. A round makes
// about 310 such Puts and 35 ingestions; with their windows held open
// (HoldWindowOpen) the checks looked into at least 290 and 23 a round, also
// with two runs of the test sharing two cores.
constexpr uint64_t kMinPutWindowsPerRound = 200;
constexpr uint64_t kMinIngestionWindowsPerRound = 15;
// Calls of IngestExternalFile for one file while RocksDB answers TryAgain.
constexpr int kIngestAttempts = 5;
constexpr std::chrono::milliseconds kWait{120000};

rocksdb::ColumnFamilyOptions FamilyOptions() {
  rocksdb::ColumnFamilyOptions options;
  options.merge_operator = std::make_shared<AppendOperator>();
  // Small memtables and level-0 triggers: flushes and compactions all the
  // time, so tables are written while filters are saved and rebuilt.
  options.write_buffer_size = 32 << 10;
  options.level0_file_num_compaction_trigger = 2;
  options.target_file_size_base = 32 << 10;
  options.max_bytes_for_level_base = 128 << 10;
  return options;
}

std::vector<rocksdb::ColumnFamilyDescriptor> Families() {
  return {{rocksdb::kDefaultColumnFamilyName, FamilyOptions()},
          {"second", FamilyOptions()}};
}

// A key that is written once and never deleted: lookups of it after its Put
// returned (or after the base database shows it) must find it.
std::string KeptKey(int writer, int i) {
  return absl::StrCat("w", writer, "/kept/", i);
}
std::string KeptValue(const std::string& key) { return "kept:" + key; }
std::string PoolKey(int writer, int i) {
  return absl::StrCat("w", writer, "/k", 1000 + i);
}
std::string NeverWrittenKey(uint64_t i) { return absl::StrCat("never/", i); }

// Set on a writer thread while it makes a write whose window the
// visibility checks must look into (from the moment RocksDB makes the write
// visible to the moment it returns); says whether they have. RocksDB calls
// back on the writing thread inside that window (below), and the callbacks
// hold it open until the checks have looked, for at most
// kLongestWindowHeld. Left to the scheduler, the checks looked into 0 to 4
// kept keys' Puts a round.
thread_local std::function<bool()> window_looked_into;
constexpr std::chrono::milliseconds kLongestWindowHeld{20};

void HoldWindowOpen() {
  if (!window_looked_into) return;
  const auto deadline = std::chrono::steady_clock::now() + kLongestWindowHeld;
  while (!window_looked_into() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

// RocksDB records a write's DB_WRITE time as the write returns, after its
// keys became visible. Records nothing.
class WriteWindowStatistics : public rocksdb::Statistics {
 public:
  const char* Name() const override { return "WriteWindowStatistics"; }
  uint64_t getTickerCount(uint32_t) const override { return 0; }
  void histogramData(uint32_t, rocksdb::HistogramData* data) const override {
    *data = rocksdb::HistogramData();
  }
  void recordTick(uint32_t, uint64_t) override {}
  void setTickerCount(uint32_t, uint64_t) override {}
  uint64_t getAndResetTickerCount(uint32_t) override { return 0; }
  void recordInHistogram(uint32_t histogram, uint64_t) override {
    if (histogram == rocksdb::DB_WRITE) HoldWindowOpen();
  }
};

// RocksDB tells listeners of an ingestion on the ingesting thread, after
// the file's keys became visible and before IngestExternalFile returns.
class IngestionWindowListener : public rocksdb::EventListener {
 public:
  const char* Name() const override { return "IngestionWindowListener"; }
  void OnExternalFileIngested(
      rocksdb::DB*, const rocksdb::ExternalFileIngestionInfo&) override {
    HoldWindowOpen();
  }
};

// Counts the rebuilds the filters' estimated rates triggered.
class RebuildCounter : public PresenceFilterListener {
 public:
  void OnRebuildBegin(const std::string&,
                      PresenceRebuildReason reason) override {
    if (reason == PresenceRebuildReason::kRateAboveTarget) ++rate_rebuilds;
  }
  std::atomic<uint64_t> rate_rebuilds{0};
};

// What a crash right after a save leaves: the full save, and the changes
// appended to it since (empty when none).
struct RecordedSave {
  std::string full;
  std::string changes;
};

// Keeps what each save leaves on disk (the saved-filters file a save renames
// into place, or the changes file a save appends to), so that a reopening
// can start from any of them: each is what a crash right after that save
// would have left, with the database as it is now (a crash later loses no
// acknowledged write), so each must lead to every key.
class SavesRecorder : public rocksdb::EnvWrapper {
 public:
  explicit SavesRecorder(rocksdb::Env* base) : rocksdb::EnvWrapper(base) {}
  const char* Name() const override { return "SavesRecorder"; }

  rocksdb::Status RenameFile(const std::string& from,
                             const std::string& to) override {
    if (absl::EndsWith(to, kSuffix)) {
      std::string bytes;
      if (rocksdb::ReadFileToString(target(), from, &bytes).ok()) {
        std::lock_guard<std::mutex> lock(mutex_);
        current_ = {std::move(bytes), ""};
        saves_.push_back(current_);
      }
    }
    return target()->RenameFile(from, to);
  }

  rocksdb::Status NewWritableFile(const std::string& name,
                                  std::unique_ptr<rocksdb::WritableFile>* file,
                                  const rocksdb::EnvOptions& options) override {
    rocksdb::Status status = target()->NewWritableFile(name, file, options);
    if (status.ok() && absl::EndsWith(name, kChangesSuffix)) {
      *file = std::make_unique<ChangesFile>(std::move(*file), this);
    }
    return status;
  }

  // The saves recorded since the last call, and forgets them.
  std::vector<RecordedSave> TakeSaves() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::move(saves_);
  }

 private:
  // Records a save each time the changes file is synced.
  class ChangesFile : public rocksdb::WritableFileWrapper {
   public:
    ChangesFile(std::unique_ptr<rocksdb::WritableFile> file,
                SavesRecorder* recorder)
        : rocksdb::WritableFileWrapper(file.get()),
          file_(std::move(file)),
          recorder_(recorder) {
      std::lock_guard<std::mutex> lock(recorder_->mutex_);
      recorder_->current_.changes.clear();
    }
    using rocksdb::WritableFileWrapper::Append;
    rocksdb::Status Append(const rocksdb::Slice& data) override {
      std::lock_guard<std::mutex> lock(recorder_->mutex_);
      recorder_->current_.changes.append(data.data(), data.size());
      return file_->Append(data);
    }
    rocksdb::Status Sync() override {
      rocksdb::Status status = file_->Sync();
      std::lock_guard<std::mutex> lock(recorder_->mutex_);
      recorder_->saves_.push_back(recorder_->current_);
      return status;
    }

   private:
    std::unique_ptr<rocksdb::WritableFile> file_;
    SavesRecorder* const recorder_;
  };

  static constexpr absl::string_view kSuffix = "/SSTFILTER-PRESENCE";
  static constexpr absl::string_view kChangesSuffix =
      "/SSTFILTER-PRESENCE-CHANGES";
  std::mutex mutex_;
  RecordedSave current_;
  std::vector<RecordedSave> saves_;
};

// Puts save's files in place in the database directory path.
void WriteSave(rocksdb::Env* env, const std::string& path,
               const RecordedSave& save) {
  const std::string full = PresenceFilterFileName(path);
  const std::string changes = presence_internal::ChangesFileName(full);
  ASSERT_TRUE(rocksdb::WriteStringToFile(env, save.full, full, false).ok());
  if (save.changes.empty()) {
    env->DeleteFile(changes).PermitUncheckedError();
  } else {
    ASSERT_TRUE(
        rocksdb::WriteStringToFile(env, save.changes, changes, false).ok());
  }
}

// What save says of each column family: the tables it lists, and the filter
// that holds their keys (the full save's, with every change after it).
struct SavedState {
  std::string name;
  std::vector<presence_internal::SavedTable> tables;
  MutableBloomFilter filter;
};
absl::StatusOr<std::vector<SavedState>> StateOf(const RecordedSave& save) {
  absl::StatusOr<presence_internal::SavedFilters> file =
      presence_internal::DecodeSavedFilters(save.full);
  if (!file.ok()) return file.status();
  std::map<uint32_t, SavedState> states;
  for (const std::string& encoded : file->records) {
    absl::StatusOr<presence_internal::SavedColumnFamily> record =
        presence_internal::DecodeColumnFamilyRecord(encoded);
    if (!record.ok()) return record.status();
    absl::StatusOr<MutableBloomFilter> filter =
        MutableBloomFilter::Restore(record->filter);
    if (!filter.ok()) return filter.status();
    states.emplace(record->id, SavedState{record->name, record->tables,
                                          *std::move(filter)});
  }
  if (!save.changes.empty()) {
    absl::StatusOr<presence_internal::SavedChanges> changes =
        presence_internal::DecodeSavedChanges(save.changes, save.full);
    if (!changes.ok()) return changes.status();
    if (!changes->stopped.empty()) {
      return absl::DataLossError("a recorded save is torn: " +
                                 changes->stopped);
    }
    for (const auto& record : changes->records) {
      for (const presence_internal::ChangedColumnFamily& changed : record) {
        auto state = states.find(changed.id);
        if (state == states.end()) {
          return absl::DataLossError(
              absl::StrCat("changes of column family ", changed.id,
                           ", which the full save lacks"));
        }
        state->second.tables = changed.tables;
        absl::Status applied =
            state->second.filter.ApplySavedBlocks(changed.blocks);
        if (!applied.ok()) return applied;
      }
    }
  }
  std::vector<SavedState> result;
  for (auto& [id, state] : states) result.push_back(std::move(state));
  return result;
}

SavesRecorder* Recorder() {
  static SavesRecorder* recorder = new SavesRecorder(rocksdb::Env::Default());
  return recorder;
}

RebuildCounter* Rebuilds() {
  static RebuildCounter* counter = new RebuildCounter;
  return counter;
}

struct Database {
  std::unique_ptr<PresenceFilteredDB> db;
  std::vector<rocksdb::ColumnFamilyHandle*> families;

  Database() = default;
  Database(Database&&) = default;
  Database& operator=(Database&& other) {
    Release();
    db = std::move(other.db);
    families = std::move(other.families);
    return *this;
  }
  // RocksDB requires every handle destroyed before its database, also when a
  // failed assertion ends a test early.
  ~Database() { Release(); }
  void Release() {
    if (db == nullptr) return;
    for (rocksdb::ColumnFamilyHandle* family : families) {
      db->DestroyColumnFamilyHandle(family).PermitUncheckedError();
    }
    families.clear();
    db.reset();
  }

  void Close(bool save) {
    for (rocksdb::ColumnFamilyHandle* family : families) {
      ASSERT_TRUE(db->DestroyColumnFamilyHandle(family).ok());
    }
    families.clear();
    if (save) {
      absl::Status closed = db->CloseAndSave();
      ASSERT_TRUE(closed.ok()) << closed;
    }
    db.reset();
  }
};

// How a test opens its database. The defaults: a filter sized far below
// the keys written, so that rate-triggered rebuilds happen often, and small
// memtables that flush and compact all the time.
struct OpenOptions {
  uint64_t expected_keys = 200;
  size_t write_buffer_size = 32 << 10;
  bool save_after_background_work = true;
  bool auto_compactions = true;
  SavesRecorder* env = Recorder();
};

Database Open(const std::string& path, const OpenOptions& how = {}) {
  rocksdb::DBOptions options;
  options.create_if_missing = true;
  options.create_missing_column_families = true;
  options.env = how.env;
  options.statistics = std::make_shared<WriteWindowStatistics>();
  options.listeners.push_back(std::make_shared<IngestionWindowListener>());
  PresenceFilterOptions filter_options;
  filter_options.listener = Rebuilds();
  filter_options.progress = [](const std::string&) {};
  filter_options.expected_keys = how.expected_keys;
  filter_options.save_after_background_work = how.save_after_background_work;
  std::vector<rocksdb::ColumnFamilyDescriptor> families = Families();
  for (rocksdb::ColumnFamilyDescriptor& family : families) {
    family.options.write_buffer_size = how.write_buffer_size;
    if (!how.auto_compactions) {
      family.options.disable_auto_compactions = true;
      // Level 0 grows without bound; writes must not stall on it.
      family.options.level0_slowdown_writes_trigger = 1 << 20;
      family.options.level0_stop_writes_trigger = 1 << 20;
    }
  }
  Database database;
  absl::StatusOr<std::unique_ptr<PresenceFilteredDB>> db =
      PresenceFilteredDB::Open(options, path, families, &database.families,
                               filter_options);
  EXPECT_TRUE(db.ok()) << db.status();
  if (db.ok()) database.db = *std::move(db);
  return database;
}

// One writer thread's keys and what they must hold.
struct Writer {
  int id = 0;
  std::map<std::string, std::string> model[kFamilies];
  // Kept keys [0, kept) were acknowledged; writing_kept is being written.
  std::atomic<int> kept{0};
  std::atomic<int> writing_kept{-1};
  // Odd while an ingestion is under way: ingesting (guarded by
  // ingesting_mutex) then holds its file's keys and their values, set before
  // ingestions turns odd.
  std::atomic<uint64_t> ingestions{0};
  std::mutex ingesting_mutex;
  std::map<std::string, std::string> ingesting;
  // The last Put (kept key index) and ingestion (ingestions) whose window
  // the visibility checks looked into.
  std::atomic<int> put_looked_into{-1};
  std::atomic<uint64_t> ingestion_looked_into{0};
  std::string failure;  // the first wrong answer this writer saw
};

std::string Describe(const rocksdb::Status& status, const std::string& value) {
  return status.ok() ? "\"" + value + "\"" : status.ToString();
}

// Checks one key of one family against the model through the wrapper.
void CheckKey(const Database& database, int family,
              const std::map<std::string, std::string>& model,
              const std::string& key, std::string* failure) {
  if (!failure->empty()) return;
  std::string value;
  rocksdb::Status status = database.db->Get(
      rocksdb::ReadOptions(), database.families[family], key, &value);
  auto expected = model.find(key);
  if (expected == model.end() ? !status.IsNotFound()
                              : !status.ok() || value != expected->second) {
    *failure =
        absl::StrCat("family ", family, " key ", key, ": got ",
                     Describe(status, value), ", model holds ",
                     expected == model.end() ? "nothing" : expected->second);
  }
}

class ModelRun {
 public:
  ModelRun(Database* database, const std::string& scratch)
      : database_(database), scratch_(scratch) {
    for (int w = 0; w < kWriters; ++w) writers_[w].id = w;
  }

  // One round of concurrent work; returns the first failure, if any.
  std::string RunRound(int round) {
    stop_.store(false);
    put_windows_.store(0);
    ingestion_windows_.store(0);
    std::vector<std::thread> threads;
    for (Writer& writer : writers_) {
      threads.emplace_back(
          [this, &writer, round] { WriterLoop(&writer, round); });
    }
    std::vector<std::string> reader_failures(kReaders + 2);
    for (int r = 0; r < kReaders; ++r) {
      threads.emplace_back([this, r, round, &reader_failures] {
        ReaderLoop(round * 100 + r, &reader_failures[r]);
      });
    }
    threads.emplace_back([this, &reader_failures] {
      VisibilityLoop(&reader_failures[kReaders]);
    });
    threads.emplace_back([this, round, &reader_failures] {
      MaintenanceLoop(round, &reader_failures[kReaders + 1]);
    });
    for (int w = 0; w < kWriters; ++w) threads[w].join();
    stop_.store(true);
    for (size_t t = kWriters; t < threads.size(); ++t) threads[t].join();
    for (const Writer& writer : writers_) {
      if (!writer.failure.empty()) return writer.failure;
    }
    for (const std::string& failure : reader_failures) {
      if (!failure.empty()) return failure;
    }
    return "";
  }

  // Every key of every writer, and nothing else, through the wrapper.
  std::string CheckEverything() {
    std::string failure;
    for (Writer& writer : writers_) {
      for (int family = 0; family < kFamilies; ++family) {
        for (int i = 0; i < kKeysPerWriter; ++i) {
          CheckKey(*database_, family, writer.model[family],
                   PoolKey(writer.id, i), &failure);
        }
        for (const auto& [key, value] : writer.model[family]) {
          CheckKey(*database_, family, writer.model[family], key, &failure);
        }
      }
      for (int i = 0; i < writer.kept.load(); ++i) {
        std::string value;
        const std::string key = KeptKey(writer.id, i);
        rocksdb::Status status =
            database_->db->Get(rocksdb::ReadOptions(), key, &value);
        if (failure.empty() && (!status.ok() || value != KeptValue(key))) {
          failure =
              absl::StrCat("kept key ", key, ": ", Describe(status, value));
        }
      }
    }
    if (!failure.empty()) return failure;
    // A full scan of each family holds exactly the models' keys (and the kept
    // keys in the default family): the model itself is checked.
    for (int family = 0; family < kFamilies; ++family) {
      std::map<std::string, std::string> expected;
      for (const Writer& writer : writers_) {
        expected.insert(writer.model[family].begin(),
                        writer.model[family].end());
        if (family == 0) {
          for (int i = 0; i < writer.kept.load(); ++i) {
            expected[KeptKey(writer.id, i)] = KeptValue(KeptKey(writer.id, i));
          }
        }
      }
      std::map<std::string, std::string> scanned;
      std::unique_ptr<rocksdb::Iterator> it(database_->db->NewIterator(
          rocksdb::ReadOptions(), database_->families[family]));
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        scanned[it->key().ToString()] = it->value().ToString();
      }
      if (!it->status().ok()) return it->status().ToString();
      if (scanned != expected) {
        return absl::StrCat("family ", family, ": the scan holds ",
                            scanned.size(), " keys, the model ",
                            expected.size());
      }
    }
    return "";
  }

  // In the last round, the kept keys' Puts and the ingestions that a
  // lookup through the wrapper began in while RocksDB already showed their
  // keys and they had not returned.
  uint64_t put_windows() const { return put_windows_.load(); }
  uint64_t ingestion_windows() const { return ingestion_windows_.load(); }

 private:
  rocksdb::ColumnFamilyHandle* FamilyHandle(int family) const {
    return database_->families[family];
  }

  void ApplyToModel(Writer* writer, int family, const std::string& key,
                    const std::string& value, bool merge) {
    auto& model = writer->model[family];
    auto existing = model.find(key);
    if (merge && existing != model.end()) {
      existing->second += "," + value;
    } else {
      model[key] = value;
    }
  }

  void WriterLoop(Writer* writer, int round) {
    Random rng(1000 * round + writer->id + 1);
    PresenceFilteredDB* db = database_->db.get();
    for (int op = 0; op < kOpsPerRound && writer->failure.empty(); ++op) {
      const int family = static_cast<int>(rng.Uniform(kFamilies));
      const std::string key =
          PoolKey(writer->id, static_cast<int>(rng.Uniform(kKeysPerWriter)));
      const std::string value = absl::StrCat("r", round, "o", op);
      const uint64_t kind = rng.Uniform(100);
      rocksdb::Status status;
      std::vector<std::pair<int, std::string>> touched = {{family, key}};
      if (kind < 30) {
        status =
            db->Put(rocksdb::WriteOptions(), FamilyHandle(family), key, value);
        if (status.ok()) ApplyToModel(writer, family, key, value, false);
      } else if (kind < 45) {
        status = db->Merge(rocksdb::WriteOptions(), FamilyHandle(family), key,
                           value);
        if (status.ok()) ApplyToModel(writer, family, key, value, true);
      } else if (kind < 60) {
        status = db->Delete(rocksdb::WriteOptions(), FamilyHandle(family), key);
        if (status.ok()) writer->model[family].erase(key);
      } else if (kind < 65) {
        const std::string end =
            PoolKey(writer->id, static_cast<int>(rng.Uniform(kKeysPerWriter)));
        if (key < end) {
          status = db->DeleteRange(rocksdb::WriteOptions(),
                                   FamilyHandle(family), key, end);
          auto& model = writer->model[family];
          if (status.ok()) {
            model.erase(model.lower_bound(key), model.lower_bound(end));
          }
          touched.push_back({family, end});
        }
      } else if (kind < 80) {
        // A batch across both families.
        rocksdb::WriteBatch batch;
        std::vector<std::tuple<int, std::string, int>> entries;
        const int size = static_cast<int>(rng.Range(2, 6));
        for (int e = 0; e < size; ++e) {
          const int f = static_cast<int>(rng.Uniform(kFamilies));
          const std::string k = PoolKey(
              writer->id, static_cast<int>(rng.Uniform(kKeysPerWriter)));
          const int what = static_cast<int>(rng.Uniform(3));
          if (what == 0)
            batch.Put(FamilyHandle(f), k, value).PermitUncheckedError();
          if (what == 1)
            batch.Merge(FamilyHandle(f), k, value).PermitUncheckedError();
          if (what == 2)
            batch.Delete(FamilyHandle(f), k).PermitUncheckedError();
          entries.emplace_back(f, k, what);
          touched.push_back({f, k});
        }
        status = db->Write(rocksdb::WriteOptions(), &batch);
        if (status.ok()) {
          for (const auto& [f, k, what] : entries) {
            if (what == 2) {
              writer->model[f].erase(k);
            } else {
              ApplyToModel(writer, f, k, value, what == 1);
            }
          }
        }
      } else if (kind < 82) {
        status = Ingest(writer, &rng, round, op, &touched);
      } else {
        const int i = writer->kept.load();
        const std::string kept = KeptKey(writer->id, i);
        writer->writing_kept.store(i);
        window_looked_into = [writer, i] {
          return writer->put_looked_into.load() == i;
        };
        status = db->Put(rocksdb::WriteOptions(), kept, KeptValue(kept));
        window_looked_into = nullptr;
        writer->writing_kept.store(-1);
        if (status.ok()) writer->kept.store(i + 1);
        continue;
      }
      if (!status.ok()) {
        writer->failure = "write failed: " + status.ToString();
        break;
      }
      for (const auto& [f, k] : touched) {
        CheckKey(*database_, f, writer->model[f], k, &writer->failure);
      }
    }
  }

  // Ingests a file of a few of the writer's keys into the default family.
  rocksdb::Status Ingest(Writer* writer, Random* rng, int round, int op,
                         std::vector<std::pair<int, std::string>>* touched) {
    std::map<std::string, std::string> entries;
    for (int e = 0; e < 4; ++e) {
      entries[PoolKey(writer->id,
                      static_cast<int>(rng->Uniform(kKeysPerWriter)))] =
          absl::StrCat("ingested", round, "/", op);
    }
    rocksdb::Options options(rocksdb::DBOptions(), FamilyOptions());
    rocksdb::SstFileWriter file(rocksdb::EnvOptions(), options);
    const std::string path =
        absl::StrCat(scratch_, "/w", writer->id, "-", round, "-", op, ".sst");
    rocksdb::Status status = file.Open(path);
    for (const auto& [key, value] : entries) {
      if (status.ok()) status = file.Put(key, value);
      touched->push_back({0, key});
    }
    if (status.ok()) status = file.Finish();
    if (status.ok()) {
      rocksdb::IngestExternalFileOptions ingest;
      ingest.move_files = true;
      {
        std::lock_guard<std::mutex> lock(writer->ingesting_mutex);
        writer->ingesting = entries;
      }
      const uint64_t ingestion = writer->ingestions.fetch_add(1) + 1;  // odd
      window_looked_into = [writer, ingestion] {
        return writer->ingestion_looked_into.load() == ingestion;
      };
      // RocksDB 7.8.3 built with assertions, as Debian builds it, answers
      // TryAgain when the memtable overlaps the file as the ingestion runs
      // (ExternalSstFileIngestionJob::Run's check, compiled without NDEBUG),
      // which a flush running beside it can leave. Nothing was ingested, and
      // the file is where it was: the status asks for the call again.
      for (int attempt = 1;; ++attempt) {
        status =
            database_->db->IngestExternalFile(FamilyHandle(0), {path}, ingest);
        if (!status.IsTryAgain() || attempt == kIngestAttempts) break;
      }
      window_looked_into = nullptr;
      writer->ingestions.fetch_add(1);
    }
    if (status.ok()) {
      for (const auto& [key, value] : entries) writer->model[0][key] = value;
    }
    return status;
  }

  // Looks up acknowledged kept keys with Get, MultiGet and KeyMayExist, and
  // keys never written, which must not be found.
  void ReaderLoop(int seed, std::string* failure) {
    Random rng(seed + 7);
    PresenceFilteredDB* db = database_->db.get();
    while (!stop_.load() && failure->empty()) {
      std::vector<std::string> keys;
      std::vector<bool> acknowledged;
      for (int k = 0; k < 16; ++k) {
        const Writer& writer = writers_[rng.Uniform(kWriters)];
        const int kept = writer.kept.load();
        if (kept > 0 && rng.OneIn(2)) {
          keys.push_back(
              KeptKey(writer.id, static_cast<int>(rng.Uniform(kept))));
          acknowledged.push_back(true);
        } else {
          keys.push_back(NeverWrittenKey(rng.Next64()));
          acknowledged.push_back(false);
        }
      }
      std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
      std::vector<rocksdb::PinnableSlice> values(keys.size());
      std::vector<rocksdb::Status> statuses(keys.size());
      db->MultiGet(rocksdb::ReadOptions(), db->DefaultColumnFamily(),
                   keys.size(), slices.data(), values.data(), statuses.data());
      for (size_t k = 0; k < keys.size() && failure->empty(); ++k) {
        std::string value;
        rocksdb::Status single =
            db->Get(rocksdb::ReadOptions(), keys[k], &value);
        const bool may_exist =
            db->KeyMayExist(rocksdb::ReadOptions(), keys[k], &value);
        if (acknowledged[k] &&
            (!statuses[k].ok() || !single.ok() || !may_exist)) {
          *failure =
              absl::StrCat("acknowledged key ", keys[k], ": MultiGet ",
                           statuses[k].ToString(), ", Get ", single.ToString(),
                           ", KeyMayExist ", may_exist);
        } else if (!acknowledged[k] &&
                   (!statuses[k].IsNotFound() || !single.IsNotFound())) {
          *failure = "a key never written was found: " + keys[k];
        }
      }
    }
  }

  // A key the base database already shows must be found through the
  // wrapper while the write that made it visible has not returned: a kept
  // key's Put, or the ingestion of a file holding the key. The filter holds
  // a key before its write becomes visible, not after.
  void VisibilityLoop(std::string* failure) {
    rocksdb::DB* base = database_->db->GetBaseDB();
    while (!stop_.load() && failure->empty()) {
      for (Writer& writer : writers_) {
        const int put = CheckPutUnderWay(base, &writer, failure);
        if (put >= 0 && writer.put_looked_into.exchange(put) != put) {
          ++put_windows_;
        }
        uint64_t ingestion = 0;
        if (CheckIngestionUnderWay(base, &writer, &ingestion, failure) &&
            writer.ingestion_looked_into.exchange(ingestion) != ingestion) {
          ++ingestion_windows_;
        }
      }
    }
  }

  // Looks up the kept key the writer is putting, if RocksDB shows it.
  // Returns its index if the lookup began before the Put returned, else -1.
  int CheckPutUnderWay(rocksdb::DB* base, Writer* writer,
                       std::string* failure) {
    const int i = writer->writing_kept.load();
    if (i < 0 || !failure->empty()) return -1;
    const std::string key = KeptKey(writer->id, i);
    std::string value;
    if (!base->Get(rocksdb::ReadOptions(), key, &value).ok()) return -1;
    const bool under_way = writer->writing_kept.load() == i;
    rocksdb::Status through =
        database_->db->Get(rocksdb::ReadOptions(), key, &value);
    // Kept keys are never deleted: visible once, found ever after.
    if (!through.ok()) {
      *failure = absl::StrCat("key ", key,
                              " is visible in RocksDB but the wrapper "
                              "answers ",
                              through.ToString());
    }
    return under_way ? i : -1;
  }

  // Looks up the keys of the file the writer is ingesting that RocksDB shows
  // with the file's values. Returns whether a lookup began before the
  // ingestion returned; *ingestion says which of the writer's it was.
  bool CheckIngestionUnderWay(rocksdb::DB* base, Writer* writer,
                              uint64_t* ingestion, std::string* failure) {
    *ingestion = writer->ingestions.load();
    if (*ingestion % 2 == 0 || !failure->empty()) return false;
    std::map<std::string, std::string> entries;
    {
      std::lock_guard<std::mutex> lock(writer->ingesting_mutex);
      entries = writer->ingesting;
    }
    // The entries may already be those of the writer's next ingestion.
    if (writer->ingestions.load() != *ingestion) return false;
    bool looked_up = false;
    for (const auto& [key, ingested] : entries) {
      std::string value;
      if (!base->Get(rocksdb::ReadOptions(), key, &value).ok() ||
          value != ingested) {
        continue;
      }
      rocksdb::Status through =
          database_->db->Get(rocksdb::ReadOptions(), key, &value);
      // Only the writer writes its keys, and not before its ingestion
      // returns; after that it may delete the key.
      if (writer->ingestions.load() != *ingestion) break;
      looked_up = true;
      if (!through.ok() || value != ingested) {
        *failure = absl::StrCat(
            "key ", key,
            " is visible in RocksDB while the ingestion of its file is under "
            "way, but the wrapper answers ",
            Describe(through, value), " instead of \"", ingested, "\"");
        break;
      }
    }
    return looked_up;
  }

  void MaintenanceLoop(int round, std::string* failure) {
    Random rng(round + 99);
    PresenceFilteredDB* db = database_->db.get();
    while (!stop_.load() && failure->empty()) {
      const int family = static_cast<int>(rng.Uniform(kFamilies));
      const uint64_t what = rng.Uniform(4);
      if (what == 0) {
        db->Flush(rocksdb::FlushOptions(), FamilyHandle(family))
            .PermitUncheckedError();
      } else if (what == 1) {
        db->CompactRange(rocksdb::CompactRangeOptions(), FamilyHandle(family),
                         nullptr, nullptr)
            .PermitUncheckedError();
      } else if (what == 2) {
        // Requested rebuilds wait for the first rebuild for the rate: one
        // queued or just done sizes the filter for the keys it holds, and
        // the rate check after the next flush would find nothing to do.
        if (Rebuilds()->rate_rebuilds.load() == 0) {
          db->Flush(rocksdb::FlushOptions(), FamilyHandle(family))
              .PermitUncheckedError();
        } else {
          absl::Status rebuild = db->RebuildFilter(FamilyHandle(family));
          if (!rebuild.ok()) *failure = rebuild.ToString();
        }
      } else {
        absl::Status saved = db->SaveFilters();
        if (!saved.ok()) *failure = "save: " + saved.ToString();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }

  Database* database_;
  const std::string scratch_;
  Writer writers_[kWriters];
  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> put_windows_{0};
  std::atomic<uint64_t> ingestion_windows_{0};
};

enum class Reopening { kSavedClose, kNoSave, kDamagedSave, kNoSavedFile };

void Damage(const std::string& path) {
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  file.seekp(static_cast<std::streamoff>(std::filesystem::file_size(path) / 2));
  file.put('\x5a');
}

TEST(PresenceModelTest, ConcurrentWorkAndEveryReopeningMatchTheModel) {
  TempDir dir;
  TempDir scratch;
  Database database = Open(dir.path());
  ASSERT_NE(database.db, nullptr);
  ModelRun run(&database, scratch.path());
  const Reopening reopenings[] = {Reopening::kNoSave, Reopening::kSavedClose,
                                  Reopening::kDamagedSave,
                                  Reopening::kNoSavedFile};
  for (int round = 0; round < kRounds; ++round) {
    SCOPED_TRACE(absl::StrCat("round ", round));
    const std::string failure = run.RunRound(round);
    ASSERT_EQ(failure, "");
    std::printf(
        "round %d: looked into the windows of %llu Puts and %llu "
        "ingestions\n",
        round, static_cast<unsigned long long>(run.put_windows()),
        static_cast<unsigned long long>(run.ingestion_windows()));
    // Else the visibility checks did not test the order of the filter's
    // update and the write.
    EXPECT_GE(run.put_windows(), kMinPutWindowsPerRound);
    EXPECT_GE(run.ingestion_windows(), kMinIngestionWindowsPerRound);
    ASSERT_EQ(run.CheckEverything(), "");
    ASSERT_TRUE(database.db->WaitUntilServing(kWait).ok());

    const Reopening reopening = reopenings[round % 4];
    database.Close(reopening == Reopening::kSavedClose);
    const std::string saved = PresenceFilterFileName(dir.path());
    // Reopen from saves made while the round's threads were running (by the
    // maintenance thread, and after flushes and compactions) and at the
    // close. Without any, the reopenings below would check nothing.
    std::vector<RecordedSave> saves = Recorder()->TakeSaves();
    ASSERT_FALSE(saves.empty()) << "no save was recorded";
    const RecordedSave last_save = saves.back();
    Random pick(round);
    for (int s = 0; s < kSavesReopenedPerRound; ++s) {
      WriteSave(rocksdb::Env::Default(), dir.path(),
                saves[pick.Uniform(saves.size())]);
      database = Open(dir.path());
      ASSERT_NE(database.db, nullptr);
      ASSERT_TRUE(database.db->WaitUntilServing(kWait).ok());
      ASSERT_EQ(run.CheckEverything(), "") << "from save " << s;
      database.Close(/*save=*/false);
    }
    Recorder()->TakeSaves();
    WriteSave(rocksdb::Env::Default(), dir.path(), last_save);
    if (reopening == Reopening::kDamagedSave) Damage(saved);
    if (reopening == Reopening::kNoSavedFile) std::remove(saved.c_str());
    database = Open(dir.path());
    ASSERT_NE(database.db, nullptr);
    // Before the filters serve (lookups go through RocksDB) ...
    ASSERT_EQ(run.CheckEverything(), "");
    // ... and after.
    ASSERT_TRUE(database.db->WaitUntilServing(kWait).ok());
    ASSERT_EQ(run.CheckEverything(), "");
    const PresenceFilterStats stats =
        database.db->Stats(database.db->DefaultColumnFamily());
    EXPECT_EQ(stats.state, PresenceFilterState::kServing);
    EXPECT_EQ(stats.last_rebuild, reopening == Reopening::kDamagedSave
                                      ? PresenceRebuildReason::kDamaged
                                  : reopening == Reopening::kNoSavedFile
                                      ? PresenceRebuildReason::kNoSavedFilter
                                      : PresenceRebuildReason::kNone);
  }
  // The run exercised what it claims to: a filter that stopped being
  // accurate enough was rebuilt at least once.
  EXPECT_GT(Rebuilds()->rate_rebuilds.load(), 0u);
  database.Close(/*save=*/true);
}

// Saves taken while writes are flushed into new tables every few
// milliseconds, each of a filter large enough that taking its bytes spans
// several flushes: every table a save lists must have all its keys in the
// filter it saved (checked on the tables themselves, kept on disk for the
// check), and reopening from a save must find every key.
TEST(PresenceModelTest, SavesTakenDuringFlushesCoverWhatTheyList) {
  constexpr int kPutters = 2;
  constexpr int kMostSaves = 24;
  // Putters go on past kPutsEach until this many saves ended, so that two
  // saves overlap the writes however long one takes on a loaded machine.
  constexpr int kLeastSaves = 2;
  constexpr int kPutsEach = 150000;
  constexpr int kReopenings = 2;
  OpenOptions large_filter;
  large_filter.expected_keys = 10000000;
  large_filter.write_buffer_size = 64 << 10;
  large_filter.save_after_background_work = false;
  // In memory: the saves' syncs cost nothing, so there can be many.
  std::unique_ptr<rocksdb::Env> memory(
      rocksdb::NewMemEnv(rocksdb::Env::Default()));
  SavesRecorder recorder(memory.get());
  large_filter.env = &recorder;
  TempDir dir;
  Database database = Open(dir.path(), large_filter);
  ASSERT_NE(database.db, nullptr);
  ASSERT_TRUE(database.db->WaitUntilServing(kWait).ok());
  // Every table a save lists stays readable, compacted away or not.
  ASSERT_TRUE(database.db->DisableFileDeletions().ok());
  recorder.TakeSaves();
  std::atomic<int> putters_running{kPutters};
  std::atomic<int> saves_ended{0};
  int puts[kPutters] = {};
  std::vector<std::thread> putters;
  for (int t = 0; t < kPutters; ++t) {
    putters.emplace_back([&database, &putters_running, &saves_ended, &puts, t] {
      for (int i = 0; i < kPutsEach || saves_ended.load() < kLeastSaves; ++i) {
        const std::string key = KeptKey(100 + t, i);
        ASSERT_TRUE(
            database.db->Put(rocksdb::WriteOptions(), key, KeptValue(key))
                .ok());
        puts[t] = i + 1;
      }
      --putters_running;
    });
  }
  // Saves while the putters run: afterwards no table is flushed meanwhile.
  int saves_made = 0;
  while (putters_running.load() > 0 && saves_made < kMostSaves) {
    absl::Status saved = database.db->SaveFilters();
    ++saves_made;
    saves_ended.store(saves_made);
    ASSERT_TRUE(saved.ok()) << saved;
  }
  for (std::thread& putter : putters) putter.join();
  const std::vector<RecordedSave> saves = recorder.TakeSaves();
  ASSERT_EQ(saves.size(), static_cast<size_t>(saves_made));
  ASSERT_GE(saves.size(), static_cast<size_t>(kLeastSaves));

  // What each save claims, against the tables themselves.
  rocksdb::Options table_options(rocksdb::DBOptions(), FamilyOptions());
  table_options.env = memory.get();
  uint64_t tables_checked = 0;
  // A table an earlier save listed was checked against that save's filter,
  // which this save's filter holds (filters only grow without a rebuild,
  // and this one is sized never to need one): check each table once.
  std::set<uint64_t> checked;
  for (size_t s = 0; s < saves.size(); ++s) {
    absl::StatusOr<std::vector<SavedState>> states = StateOf(saves[s]);
    ASSERT_TRUE(states.ok()) << states.status();
    for (const SavedState& state : *states) {
      for (const presence_internal::SavedTable& table : state.tables) {
        if (!checked.insert(table.file_number).second) continue;
        char name[32];
        std::snprintf(name, sizeof(name), "/%06llu.sst",
                      static_cast<unsigned long long>(table.file_number));
        rocksdb::SstFileReader reader(table_options);
        ASSERT_TRUE(reader.Open(dir.path() + name).ok()) << name;
        std::unique_ptr<rocksdb::Iterator> it(
            reader.NewIterator(rocksdb::ReadOptions()));
        uint64_t lacking = 0;
        for (it->SeekToFirst(); it->Valid(); it->Next()) {
          lacking += !state.filter.MayContain(
              absl::string_view(it->key().data(), it->key().size()));
        }
        ASSERT_TRUE(it->status().ok()) << it->status().ToString();
        ASSERT_EQ(lacking, 0u)
            << "save " << s << " of " << saves.size() << " lists table" << name
            << " of family " << state.name
            << " but its filter lacks that many of the "
               "table's keys";
        ++tables_checked;
      }
    }
  }
  // The saves listed tables flushed while the putters ran.
  EXPECT_GT(tables_checked, saves.size());
  ASSERT_TRUE(database.db
                  ->EnableFileDeletions(
#if ROCKSDB_MAJOR < 9
                      /*force=*/false
#endif
                      )
                  .ok());
  database.Close(/*save=*/false);

  // Both kinds of save are checked: full ones, and ones that appended the
  // changes since.
  const auto appended = [](const RecordedSave& save) {
    return !save.changes.empty();
  };
  EXPECT_TRUE(std::any_of(saves.begin(), saves.end(), appended));
  EXPECT_FALSE(appended(saves.front()));
  for (int r = 0; r < kReopenings; ++r) {
    const size_t which = saves.size() * r / kReopenings;
    SCOPED_TRACE(absl::StrCat("reopened from save ", which));
    WriteSave(memory.get(), dir.path(), saves[which]);
    database = Open(dir.path(), large_filter);
    ASSERT_NE(database.db, nullptr);
    ASSERT_TRUE(database.db->WaitUntilServing(kWait).ok());
    ASSERT_EQ(
        database.db->Stats(database.db->DefaultColumnFamily()).last_rebuild,
        PresenceRebuildReason::kNone);
    int missing = 0;
    std::string first_missing;
    for (int t = 0; t < kPutters; ++t) {
      for (int i = 0; i < puts[t]; ++i) {
        std::string value;
        const std::string key = KeptKey(100 + t, i);
        rocksdb::Status status =
            database.db->Get(rocksdb::ReadOptions(), key, &value);
        if (status.ok()) continue;
        if (missing++ == 0) first_missing = key + ": " + status.ToString();
      }
    }
    EXPECT_EQ(missing, 0) << "first: " << first_missing;
    database.Close(/*save=*/false);
    recorder.TakeSaves();
  }
}

}  // namespace
}  // namespace sstfilter
