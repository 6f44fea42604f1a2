#include "engines/rocksdb/presence/presence_core.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <mutex>
#include <shared_mutex>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engines/rocksdb/presence/key_scans.h"
#include "filter/filter_policy.h"
#include "inmemory/mutable/mutable_bloom.h"
#include "rocksdb/comparator.h"
#include "rocksdb/env.h"
#include "rocksdb/metadata.h"

namespace sstfilter {
namespace presence_internal {
namespace {

class BackgroundWorkListener : public rocksdb::EventListener {
 public:
  explicit BackgroundWorkListener(std::shared_ptr<BackgroundSignal> signal)
      : signal_(std::move(signal)) {}
  const char* Name() const override { return "sstfilter.PresenceFilter"; }
  void OnFlushCompleted(rocksdb::DB*, const rocksdb::FlushJobInfo&) override {
    Wake();
  }
  void OnCompactionCompleted(rocksdb::DB*,
                             const rocksdb::CompactionJobInfo&) override {
    Wake();
  }

 private:
  void Wake() {
    {
      std::lock_guard<std::mutex> lock(signal_->mutex);
      signal_->background_work_done = true;
    }
    signal_->wake.notify_all();
  }
  std::shared_ptr<BackgroundSignal> signal_;
};

// Re-enables file deletions on every path out of a recovery.
class FileDeletionsPaused {
 public:
  explicit FileDeletionsPaused(rocksdb::DB* db)
      : db_(db), paused_(db->DisableFileDeletions().ok()) {}
  ~FileDeletionsPaused() {
    if (!paused_) return;
#if ROCKSDB_MAJOR >= 9
    db_->EnableFileDeletions().PermitUncheckedError();
#else
    // Not forced: only this pause ends, not one the user holds.
    db_->EnableFileDeletions(/*force=*/false).PermitUncheckedError();
#endif
  }
  FileDeletionsPaused(const FileDeletionsPaused&) = delete;
  FileDeletionsPaused& operator=(const FileDeletionsPaused&) = delete;

 private:
  rocksdb::DB* db_;
  bool paused_;
};

// A scan's progress line at most once per kProgressInterval.
class ProgressLines {
 public:
  ProgressLines(std::function<void(const std::string&)> emit,
                std::string prefix)
      : emit_(std::move(emit)),
        prefix_(std::move(prefix)),
        start_(std::chrono::steady_clock::now()),
        last_(start_) {}
  void Keys(uint64_t keys) {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < kProgressInterval) return;
    last_ = now;
    emit_(absl::StrCat(prefix_, ": ", keys, " keys read in ",
                       SecondsSinceStart(), " s"));
  }
  double SecondsSinceStart() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start_)
        .count();
  }

 private:
  std::function<void(const std::string&)> emit_;
  std::string prefix_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

std::string Describe(const ColumnFamilyFilter& filter) {
  return absl::StrCat("presence filter of column family '", filter.name(), "'");
}

absl::Status LacksKeysError(const ColumnFamilyFilter& filter) {
  return absl::AbortedError(
      absl::StrCat(Describe(filter),
                   ": keys were written that it could not read; rebuilding "
                   "again"));
}

// Whether a lookup with these options may be answered from a filter, which
// holds every key an ordinary read of the current state can return.
bool FilterMayAnswer(const rocksdb::ReadOptions& options) {
  // Reads that can see more than that: keys under range tombstones, and
  // history at a read timestamp.
  if (options.ignore_range_deletions || options.timestamp != nullptr) {
    return false;
  }
  // Tiers that stop at what is in memory answer Incomplete, not NotFound,
  // for a key they cannot rule out: RocksDB's answer, which the filter's
  // NotFound would not equal.
  if (options.read_tier != rocksdb::kReadAllTier &&
      options.read_tier != rocksdb::kPersistedTier) {
    return false;
  }
#if ROCKSDB_MAJOR >= 9
  // RocksDB refuses a lookup that names another activity (InvalidArgument).
  if (options.io_activity != rocksdb::Env::IOActivity::kUnknown) return false;
#endif
  return true;
}

}  // namespace

const char* WhyUnfiltered(rocksdb::ColumnFamilyHandle* handle) {
  const rocksdb::Comparator* comparator = handle->GetComparator();
  if (comparator->timestamp_size() > 0) {
    return "its comparator carries user-defined timestamps";
  }
  if (comparator->CanKeysWithDifferentByteContentsBeEqual()) {
    return "its comparator may call keys of different bytes equal";
  }
  if (handle->GetID() >= kMaxFilteredColumnFamilies) {
    return "its id is past the filtered column families' limit";
  }
  return nullptr;
}

std::shared_ptr<rocksdb::EventListener> NewBackgroundWorkListener(
    std::shared_ptr<BackgroundSignal> signal) {
  return std::make_shared<BackgroundWorkListener>(std::move(signal));
}

PresenceCore::PresenceCore(const PresenceFilterOptions& options,
                           std::string path,
                           std::shared_ptr<BackgroundSignal> signal)
    : options_(options), path_(std::move(path)), signal_(std::move(signal)) {}

PresenceCore::~PresenceCore() { Stop(); }

absl::StatusOr<std::unique_ptr<PresenceFilter>> PresenceCore::NewFilter(
    uint64_t keys) const {
  absl::StatusOr<MutableBloomFilter> filter = MutableBloomFilter::Create(
      FilterOptions::Fpp(options_.fpp), std::max(keys, options_.expected_keys));
  if (!filter.ok()) return filter.status();
  if (absl::Status tracked = filter->TrackChanges(); !tracked.ok()) {
    return tracked;
  }
  return std::make_unique<PresenceFilter>(*std::move(filter));
}

uint64_t PresenceCore::RebuildKeys(ColumnFamilyFilter* filter) {
  uint64_t estimate = 0;
  if (filter->handle() != nullptr) {
    db_->GetIntProperty(filter->handle(), "rocksdb.estimate-num-keys",
                        &estimate);
  }
  const double keys =
      static_cast<double>(std::max(estimate, filter->last_scanned_keys()));
  return static_cast<uint64_t>(std::ceil(keys * kRebuildHeadroom));
}

void PresenceCore::Progress(const std::string& line) const {
  if (options_.progress) {
    options_.progress(line);
    return;
  }
  std::shared_ptr<rocksdb::Logger> log = db_->GetDBOptions().info_log;
  if (log != nullptr) {
    rocksdb::Log(rocksdb::InfoLogLevel::INFO_LEVEL, log, "%s", line.c_str());
  }
}

void PresenceCore::Start(
    rocksdb::DB* db, const std::vector<rocksdb::ColumnFamilyHandle*>& handles) {
  db_ = db;
  db_->GetDbIdentity(db_identity_).PermitUncheckedError();

  // What the saved file says, or why it cannot be used.
  PresenceRebuildReason file_problem = PresenceRebuildReason::kNone;
  std::string file_error;
  std::map<uint32_t, SavedRecord> records;
  absl::StatusOr<std::string> bytes =
      ReadWholeFile(db_->GetEnv(), PresenceFilterFileName(path_));
  absl::StatusOr<SavedFilters> saved =
      bytes.ok() ? DecodeSavedFilters(*bytes) : bytes.status();
  if (db_->GetDBOptions().best_efforts_recovery) {
    // The open may have rolled the database back to tables the saved filter
    // never covered, holding keys it may lack.
    file_problem = PresenceRebuildReason::kRecoveryMayRollBack;
  } else if (absl::IsNotFound(saved.status())) {
    file_problem = PresenceRebuildReason::kNoSavedFilter;
  } else if (!saved.ok()) {
    file_problem = PresenceRebuildReason::kDamaged;
    file_error = saved.status().ToString();
  } else if (saved->db_identity != db_identity_) {
    file_problem = PresenceRebuildReason::kOtherDatabase;
  } else {
    for (const std::string& encoded : saved->records) {
      absl::StatusOr<SavedColumnFamily> record =
          DecodeColumnFamilyRecord(encoded);
      if (!record.ok()) {
        file_problem = PresenceRebuildReason::kDamaged;
        file_error = record.status().ToString();
        records.clear();
        break;
      }
      const uint32_t id = record->id;
      records[id] = {*std::move(record), encoded, {}};
    }
    if (file_problem == PresenceRebuildReason::kNone) {
      ReadChanges(*bytes, &records);
    }
  }
  if (!file_error.empty()) Progress("presence filters: " + file_error);

  for (rocksdb::ColumnFamilyHandle* handle : handles) {
    const uint32_t id = handle->GetID();
    if (WhyUnfiltered(handle) != nullptr) continue;
    auto filter = std::make_unique<ColumnFamilyFilter>(id, handle->GetName());
    // The default column family's own handle lives as long as the database.
    filter->set_handle(id == 0 ? db_->DefaultColumnFamily() : handle);

    PresenceRebuildReason reason = file_problem;
    auto record = records.find(id);
    if (reason == PresenceRebuildReason::kNone) {
      if (record == records.end() ||
          record->second.decoded.name != filter->name()) {
        reason = PresenceRebuildReason::kNoSavedFilter;
      } else {
        absl::StatusOr<std::unique_ptr<PresenceFilter>> restored =
            Restore(&record->second);
        if (restored.ok()) {
          filter->InstallBuilding(*std::move(restored));
          filter->last_record() = record->second.encoded;
          Enqueue({Task::kRecover, filter.get(), PresenceRebuildReason::kNone,
                   record->second.decoded.tables});
        } else {
          Progress(Describe(*filter) + ": " + restored.status().ToString());
          reason = PresenceRebuildReason::kDamaged;
        }
      }
    }
    if (reason != PresenceRebuildReason::kNone) {
      // Writes from now on reach this filter; the scan adds what came before.
      absl::StatusOr<std::unique_ptr<PresenceFilter>> fresh =
          NewFilter(RebuildKeys(filter.get()));
      if (fresh.ok()) {
        filter->InstallBuilding(*std::move(fresh));
        Enqueue({Task::kRebuild, filter.get(), reason, {}});
      } else {
        filter->RecordRebuildEnd(fresh.status());
      }
    }
    filters_[id].store(filter.get(), std::memory_order_release);
    std::lock_guard<std::mutex> lock(filters_mutex_);
    owned_filters_.push_back(std::move(filter));
  }
  background_ = std::thread([this] { BackgroundLoop(); });
}

void PresenceCore::Stop() {
  {
    std::lock_guard<std::mutex> lock(signal_->mutex);
    stopping_.store(true, std::memory_order_relaxed);
  }
  signal_->wake.notify_all();
  if (background_.joinable()) background_.join();
  idle_.notify_all();
}

const PresenceFilter* PresenceCore::ServingFor(
    const rocksdb::ReadOptions& options, rocksdb::ColumnFamilyHandle* handle) {
  ColumnFamilyFilter* filter = FilterOf(handle);
  if (filter == nullptr || !FilterMayAnswer(options)) return nullptr;
  const PresenceFilter* serving = filter->serving();
  if (serving == nullptr) return nullptr;
  if (options.snapshot != nullptr &&
      options.snapshot->GetSequenceNumber() < serving->oldest_snapshot) {
    return nullptr;
  }
  return serving;
}

bool PresenceCore::RulesOut(const rocksdb::ReadOptions& options,
                            rocksdb::ColumnFamilyHandle* handle,
                            absl::string_view key) {
  ProbeSampling::Slot* sampling = nullptr;
  if (options_.skip_probes_when_mostly_present) {
    sampling = sampling_.Mine();
    if (!ProbeSampling::ShouldProbe(sampling)) return false;
  }
  bool ruled_out = false;
  {
    ReadEpochs::Guard guard(&epochs_);
    if (!guard.active()) return false;
    const PresenceFilter* serving = ServingFor(options, handle);
    if (serving == nullptr) return false;
    ruled_out = !serving->keys.MayContain(key);
  }
  ProbeSampling::Record(sampling, ruled_out);
  return ruled_out;
}

void PresenceCore::RulesOut(const rocksdb::ReadOptions& options,
                            rocksdb::ColumnFamilyHandle* handle,
                            absl::Span<const absl::string_view> keys,
                            bool* results) {
  std::fill(results, results + keys.size(), false);
  ReadEpochs::Guard guard(&epochs_);
  if (!guard.active()) return;
  const PresenceFilter* serving = ServingFor(options, handle);
  if (serving == nullptr) return;
  serving->keys.MayContain(keys, results);
  for (size_t i = 0; i < keys.size(); ++i) results[i] = !results[i];
}

void PresenceCore::AddColumnFamily(rocksdb::ColumnFamilyHandle* handle,
                                   bool imported) {
  const uint32_t id = handle->GetID();
  if (WhyUnfiltered(handle) != nullptr) return;
  auto filter = std::make_unique<ColumnFamilyFilter>(id, handle->GetName());
  filter->set_handle(handle);
  absl::StatusOr<std::unique_ptr<PresenceFilter>> fresh =
      NewFilter(options_.expected_keys);
  if (!fresh.ok()) {
    filter->RecordRebuildEnd(fresh.status());
  } else {
    // Nobody can write to the column family before its handle is returned.
    filter->InstallBuilding(*std::move(fresh));
    if (imported) {
      Enqueue(
          {Task::kRebuild, filter.get(), PresenceRebuildReason::kImported, {}});
    } else {
      filter->PromoteBuilding();  // empty, and so complete
    }
  }
  filters_[id].store(filter.get(), std::memory_order_release);
  std::lock_guard<std::mutex> lock(filters_mutex_);
  owned_filters_.push_back(std::move(filter));
}

void PresenceCore::ForgetHandle(rocksdb::ColumnFamilyHandle* handle) {
  ColumnFamilyFilter* filter = FilterOf(handle);
  if (filter == nullptr || filter->handle() != handle) return;
  filter->cancelled().store(true);
  std::lock_guard<std::mutex> lock(filter->handle_mutex());
  filter->set_handle(nullptr);
}

void PresenceCore::Enqueue(Task task) {
  {
    std::lock_guard<std::mutex> lock(signal_->mutex);
    for (const Task& queued : tasks_) {
      if (queued.filter == task.filter) return;
    }
    tasks_.push_back(std::move(task));
  }
  signal_->wake.notify_all();
}

void PresenceCore::BackgroundLoop() {
  std::unique_lock<std::mutex> lock(signal_->mutex);
  // A save owed since a flush or compaction, made once save_interval has
  // passed since the last one.
  bool save_owed = false;
  auto last_save = std::chrono::steady_clock::now();
  while (true) {
    auto ready = [this] {
      return Stopping() || !tasks_.empty() || signal_->background_work_done;
    };
    if (save_owed) {
      signal_->wake.wait_until(lock, last_save + options_.save_interval, ready);
    } else {
      signal_->wake.wait(lock, ready);
    }
    if (Stopping()) break;
    if (!tasks_.empty()) {
      Task task = std::move(tasks_.front());
      tasks_.pop_front();
      ++tasks_running_;
      lock.unlock();
      Run(task);
      lock.lock();
      --tasks_running_;
      idle_.notify_all();
      continue;
    }
    const bool work_done = signal_->background_work_done;
    signal_->background_work_done = false;
    lock.unlock();
    if (work_done) {
      CheckRates();
      save_owed = save_owed || options_.save_after_background_work;
    }
    if (save_owed && std::chrono::steady_clock::now() - last_save >=
                         options_.save_interval) {
      Save().IgnoreError();
      save_owed = false;
      last_save = std::chrono::steady_clock::now();
    }
    lock.lock();
  }
}

void PresenceCore::Run(const Task& task) {
  if (task.kind == Task::kRecover) {
    absl::Status recovered = Recover(task.filter, task.saved_tables);
    // A filter found lacking keys has its rebuild queued already.
    if (recovered.ok() || Stopping() || task.filter->cancelled() ||
        absl::IsAborted(recovered)) {
      return;
    }
    Progress(absl::StrCat(Describe(*task.filter),
                          ": cannot read the tables its save does not cover (",
                          recovered.ToString(), "); rebuilding"));
    Rebuild(task.filter, PresenceRebuildReason::kUnreadableTables)
        .IgnoreError();
    return;
  }
  Rebuild(task.filter, task.reason).IgnoreError();
}

absl::StatusOr<TablesRead> PresenceCore::ReadTables(
    ColumnFamilyFilter* filter, rocksdb::ColumnFamilyHandle* handle,
    const std::vector<SavedTable>& skip, const KeyScan& scan) {
  // Tables stay on disk until they are read, whatever compactions do.
  FileDeletionsPaused paused(db_);
  // The memtables' keys (a WAL's replay, writes from before the filter was
  // installed) become a table, read below.
  absl::Status status =
      FromRocksDbStatus(db_->Flush(rocksdb::FlushOptions(), handle),
                        "flushing " + filter->name());
  if (!status.ok()) return status;
  std::vector<rocksdb::LiveFileMetaData> files;
  db_->GetLiveFilesMetaData(&files);
  TablesRead read;
  // Every deletion a listed table holds is at or below this.
  read.listed_at = db_->GetLatestSequenceNumber();
  const rocksdb::Options options = db_->GetOptions(handle);
  for (const rocksdb::LiveFileMetaData& file : files) {
    if (file.column_family_name != filter->name()) continue;
    const SavedTable table{file.file_number, file.size};
    if (std::find(skip.begin(), skip.end(), table) != skip.end()) continue;
    absl::StatusOr<uint64_t> added =
        AddTableFileKeys(options, file.db_path + file.name, scan);
    if (!added.ok()) return added.status();
    ++read.tables;
    read.keys += *added;
  }
  return read;
}

namespace {

// KeyScan::add for a scan filling filter's building filter, taking turns with
// the writes that reach it.
std::function<void(absl::Span<const absl::string_view>)> AddsToBuilding(
    ColumnFamilyFilter* filter) {
  return [filter, building = filter->building()](
             absl::Span<const absl::string_view> keys) {
    filter->AddTo(building, keys);
  };
}

}  // namespace

absl::Status PresenceCore::Recover(
    ColumnFamilyFilter* filter, const std::vector<SavedTable>& saved_tables) {
  std::lock_guard<std::mutex> handle_lock(filter->handle_mutex());
  rocksdb::ColumnFamilyHandle* handle = filter->handle();
  if (handle == nullptr) return absl::CancelledError("the handle is gone");
  ProgressLines lines([this](const std::string& line) { Progress(line); },
                      Describe(*filter) + ": reading tables the save misses");
  uint64_t lacks_keys_count = 0;
  {
    std::unique_lock<WritersLock> lock(writers_);
    lacks_keys_count = filter->lacks_keys_count();
  }
  KeyScan scan;
  scan.add = AddsToBuilding(filter);
  scan.stop = [this, filter] { return Stopping() || filter->cancelled(); };
  scan.progress = [&lines](uint64_t keys) { lines.Keys(keys); };
  absl::StatusOr<TablesRead> read =
      ReadTables(filter, handle, saved_tables, scan);
  if (!read.ok()) return read.status();
  if (filter->lacks_keys_count() != lacks_keys_count) {
    return LacksKeysError(*filter);
  }
  Promote(filter);
  Progress(absl::StrCat(Describe(*filter), ": restored; read ", read->tables,
                        " tables the save did not cover (", read->keys,
                        " keys) in ", lines.SecondsSinceStart(), " s"));
  return absl::OkStatus();
}

absl::Status PresenceCore::Rebuild(ColumnFamilyFilter* filter,
                                   PresenceRebuildReason reason) {
  if (options_.listener != nullptr) {
    options_.listener->OnRebuildBegin(filter->name(), reason);
  }
  filter->RecordRebuildStart(reason);
  auto finish = [this, filter](absl::Status status) {
    if (!status.ok()) {
      std::unique_ptr<PresenceFilter> dropped;
      {
        std::unique_lock<WritersLock> lock(writers_);
        dropped = filter->DropBuilding();
      }
      Progress(absl::StrCat(Describe(*filter),
                            ": rebuild failed: ", status.ToString()));
    }
    filter->RecordRebuildEnd(status);
    if (options_.listener != nullptr) {
      options_.listener->OnRebuildEnd(filter->name(), status);
    }
    return status;
  };

  std::lock_guard<std::mutex> handle_lock(filter->handle_mutex());
  rocksdb::ColumnFamilyHandle* handle = filter->handle();
  if (handle == nullptr) return finish(absl::CancelledError("handle gone"));
  std::unique_ptr<PresenceFilter> fresh;
  if (!filter->has_building()) {
    absl::StatusOr<std::unique_ptr<PresenceFilter>> made =
        NewFilter(RebuildKeys(filter));
    if (!made.ok()) return finish(made.status());
    fresh = *std::move(made);
  }
  uint64_t lacks_keys_count = 0;
  {
    // Every write that has not returned by now reaches the new filter; every
    // one that has is in a memtable or a table read next.
    std::unique_lock<WritersLock> lock(writers_);
    if (fresh != nullptr) filter->InstallBuilding(std::move(fresh));
    lacks_keys_count = filter->lacks_keys_count();
  }
  const std::string what =
      absl::StrCat(Describe(*filter), ": rebuilding from its tables (",
                   PresenceRebuildReasonName(reason), ")");
  ProgressLines lines([this](const std::string& line) { Progress(line); },
                      what);
  Progress(what);
  // Each live table is read on its own, as that table alone shows its keys,
  // not through the column family's merged view: a key deleted in another
  // table than the one holding its value stays in the new filter. So no
  // table that leaves without a compaction (DeleteFilesInRange, a recovery
  // that rolls back) can bring back a key the filter lacks. Only keys whose
  // value and deletion share one table are left out, and an older snapshot
  // that still sees them is answered by RocksDB (oldest_snapshot).
  KeyScan scan;
  scan.add = AddsToBuilding(filter);
  scan.stop = [this, filter] { return Stopping() || filter->cancelled(); };
  scan.progress = [&lines](uint64_t keys) { lines.Keys(keys); };
  absl::StatusOr<TablesRead> read =
      ReadTables(filter, handle, /*skip=*/{}, scan);
  if (!read.ok()) return finish(read.status());
  if (filter->lacks_keys_count() != lacks_keys_count) {
    return finish(LacksKeysError(*filter));
  }
  filter->set_last_scanned_keys(read->keys);
  filter->building()->oldest_snapshot = read->listed_at;
  Promote(filter);
  Progress(absl::StrCat(Describe(*filter), ": rebuilt from ", read->tables,
                        " tables (", read->keys, " keys) in ",
                        lines.SecondsSinceStart(), " s"));
  return finish(absl::OkStatus());
}

void PresenceCore::Promote(ColumnFamilyFilter* filter) {
  std::unique_ptr<PresenceFilter> replaced;
  {
    std::unique_lock<WritersLock> lock(writers_);
    replaced = filter->PromoteBuilding();
  }
  if (replaced != nullptr) {
    epochs_.WaitForReaders();
    replaced.reset();
  }
}

std::vector<ColumnFamilyFilter*> PresenceCore::Filters() {
  std::lock_guard<std::mutex> lock(filters_mutex_);
  std::vector<ColumnFamilyFilter*> filters;
  for (const auto& filter : owned_filters_) filters.push_back(filter.get());
  return filters;
}

void PresenceCore::CheckRates() {
  const std::vector<ColumnFamilyFilter*> filters = Filters();
  for (ColumnFamilyFilter* filter : filters) {
    if (filter->cancelled()) continue;
    bool serving = false;
    bool building = false;
    double rate = 0;
    PresenceRebuildReason last_rebuild = PresenceRebuildReason::kNone;
    {
      std::shared_lock<WritersLock> lock(writers_);
      building = filter->has_building();
      last_rebuild = filter->last_rebuild();
      ReadEpochs::Guard guard(&epochs_);
      if (!guard.active()) return;  // no slot for this thread: check later
      const PresenceFilter* current = filter->serving();
      serving = current != nullptr;
      if (serving && !building) {
        rate = current->keys.SampledExpectedFpp(kRateCheckBlocks);
      }
    }
    if (building) continue;
    if (!serving) {
      // A rebuild failed earlier; try again now the database has moved on.
      Enqueue({Task::kRebuild, filter, last_rebuild, {}});
    } else if (rate > options_.rebuild_fpp_ratio * options_.fpp) {
      Enqueue({Task::kRebuild,
               filter,
               PresenceRebuildReason::kRateAboveTarget,
               {}});
    }
  }
}

absl::Status PresenceCore::WaitUntilServing(std::chrono::milliseconds timeout) {
  {
    std::unique_lock<std::mutex> lock(signal_->mutex);
    auto done = [this] {
      return Stopping() || (tasks_.empty() && tasks_running_ == 0);
    };
    bool idle = true;
    if (timeout == std::chrono::milliseconds::max()) {
      idle_.wait(lock, done);  // wait_for would overflow its deadline
    } else {
      idle = idle_.wait_for(lock, timeout, done);
    }
    if (!idle) {
      return absl::DeadlineExceededError(
          "presence filters are still recovering or rebuilding");
    }
  }
  std::lock_guard<std::mutex> lock(filters_mutex_);
  for (const auto& filter : owned_filters_) {
    std::shared_lock<WritersLock> writers(writers_);
    const PresenceFilterStats stats = filter->Stats();
    if (stats.state != PresenceFilterState::kServing &&
        !stats.last_error.ok() && filter->handle() != nullptr) {
      return stats.last_error;
    }
  }
  return absl::OkStatus();
}

void PresenceCore::StopServing(ColumnFamilyFilter* filter,
                               PresenceRebuildReason reason) {
  filter->StopServing();
  Enqueue({Task::kRebuild, filter, reason, {}});
}

absl::Status PresenceCore::RequestRebuild(rocksdb::ColumnFamilyHandle* handle,
                                          PresenceRebuildReason reason) {
  ColumnFamilyFilter* filter = FilterOf(handle);
  if (filter == nullptr) {
    return absl::FailedPreconditionError(
        "the column family has no presence filter");
  }
  Enqueue({Task::kRebuild, filter, reason, {}});
  return absl::OkStatus();
}

PresenceFilterState PresenceCore::State(rocksdb::ColumnFamilyHandle* handle) {
  ColumnFamilyFilter* filter = FilterOf(handle);
  if (filter == nullptr) return PresenceFilterState::kUnfiltered;
  std::shared_lock<WritersLock> lock(writers_);
  if (filter->serving() != nullptr) return PresenceFilterState::kServing;
  return filter->has_building() ? PresenceFilterState::kRecovering
                                : PresenceFilterState::kUnfiltered;
}

PresenceFilterStats PresenceCore::Stats(rocksdb::ColumnFamilyHandle* handle) {
  ColumnFamilyFilter* filter = FilterOf(handle);
  if (filter == nullptr) {
    PresenceFilterStats stats;
    const char* why = handle == nullptr ? nullptr : WhyUnfiltered(handle);
    if (why != nullptr) stats.unfiltered_reason = why;
    return stats;
  }
  std::shared_lock<WritersLock> lock(writers_);
  return filter->Stats();
}

absl::Status PresenceCore::FlushAll() {
  const std::vector<ColumnFamilyFilter*> filters = Filters();
  for (ColumnFamilyFilter* filter : filters) {
    std::lock_guard<std::mutex> handle_lock(filter->handle_mutex());
    if (filter->handle() == nullptr) continue;
    absl::Status status =
        FromRocksDbStatus(db_->Flush(rocksdb::FlushOptions(), filter->handle()),
                          "flushing " + filter->name());
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

}  // namespace presence_internal
}  // namespace sstfilter
