// What a PresenceFilteredDB keeps beside its base database: the filters of
// its column families, the lock that orders writes against filter swaps, the
// saves, and the background thread that recovers, rebuilds and saves.

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_PRESENCE_CORE_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_PRESENCE_CORE_H_

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engines/rocksdb/presence/column_family_filter.h"
#include "engines/rocksdb/presence/key_scans.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "engines/rocksdb/presence/probe_sampling.h"
#include "engines/rocksdb/presence/read_epochs.h"
#include "engines/rocksdb/presence/saved_filters.h"
#include "engines/rocksdb/presence/writers_lock.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/listener.h"

namespace sstfilter {
namespace presence_internal {

// Column families with an id at or above this get no filter (ids grow by one
// per column family ever created; a database rarely has more than a few).
constexpr uint32_t kMaxFilteredColumnFamilies = 4096;

// A rate check, after every flush and compaction, reads this many of a
// filter's blocks (256 KiB) rather than the whole filter: a fill flushing
// 1 MB memtables flushes dozens of times a second.
constexpr uint64_t kRateCheckBlocks = 4096;

// Wakes the background thread when RocksDB finishes a flush or compaction.
// Shared with the EventListener RocksDB keeps, which may outlive the core.
struct BackgroundSignal {
  std::mutex mutex;
  std::condition_variable wake;
  bool background_work_done = false;  // guarded by mutex
};

std::shared_ptr<rocksdb::EventListener> NewBackgroundWorkListener(
    std::shared_ptr<BackgroundSignal> signal);

// Why a column family gets no filter, or null when it gets one.
const char* WhyUnfiltered(rocksdb::ColumnFamilyHandle* handle);

// What ReadTables read.
struct TablesRead {
  uint64_t tables = 0;
  uint64_t keys = 0;  // summed over the tables: a key may count more than once
  // The latest sequence number once the tables were listed.
  uint64_t listed_at = 0;
};

class PresenceCore {
 public:
  PresenceCore(const PresenceFilterOptions& options, std::string path,
               std::shared_ptr<BackgroundSignal> signal);
  ~PresenceCore();

  // Sets up each column family's filter from the saved file (restored and
  // recovering, or rebuilding) and starts the background thread. REQUIRES:
  // handles are the open database's, one per column family.
  void Start(rocksdb::DB* db,
             const std::vector<rocksdb::ColumnFamilyHandle*>& handles);
  // Stops the background thread (a scan under way is abandoned). Idempotent.
  void Stop();

  // The filter of a column family, or null (no filter: pass through).
  ColumnFamilyFilter* FilterOf(rocksdb::ColumnFamilyHandle* handle) const {
    return handle == nullptr ? nullptr : FilterOf(handle->GetID());
  }
  ColumnFamilyFilter* FilterOf(uint32_t column_family_id) const {
    if (column_family_id >= kMaxFilteredColumnFamilies) return nullptr;
    return filters_[column_family_id].load(std::memory_order_acquire);
  }
  // The filter that may answer a lookup with options in the column family,
  // or null: none, not serving yet, or options that see what a filter does
  // not hold. REQUIRES: a ReadEpochs::Guard held while it is used.
  const PresenceFilter* ServingFor(const rocksdb::ReadOptions& options,
                                   rocksdb::ColumnFamilyHandle* handle);
  // True when the filter proves key absent from what options can see.
  bool RulesOut(const rocksdb::ReadOptions& options,
                rocksdb::ColumnFamilyHandle* handle, absl::string_view key);
  // results[i] = RulesOut(keys[i]) for keys of one column family, probing
  // the filter once for the batch. REQUIRES: results holds keys.size().
  void RulesOut(const rocksdb::ReadOptions& options,
                rocksdb::ColumnFamilyHandle* handle,
                absl::Span<const absl::string_view> keys, bool* results);

  // Every write holds this shared from before it adds its keys until the
  // base database returns, so that a filter installed under it exclusively
  // receives every write the snapshot after it does not see.
  WritersLock& writers() { return writers_; }

  // New column families: an empty filter, or (imported) a rebuild.
  void AddColumnFamily(rocksdb::ColumnFamilyHandle* handle, bool imported);
  // Detaches the handle before the user destroys it.
  void ForgetHandle(rocksdb::ColumnFamilyHandle* handle);

  // Lookups stop using the filter until a rebuild, queued now, replaces it:
  // for a filter that may lack keys a write made visible.
  void StopServing(ColumnFamilyFilter* filter, PresenceRebuildReason reason);

  absl::Status Save();
  absl::Status WaitUntilServing(std::chrono::milliseconds timeout);
  absl::Status RequestRebuild(rocksdb::ColumnFamilyHandle* handle,
                              PresenceRebuildReason reason);
  PresenceFilterState State(rocksdb::ColumnFamilyHandle* handle);
  PresenceFilterStats Stats(rocksdb::ColumnFamilyHandle* handle);
  // Flushes every column family with a handle (CloseAndSave).
  absl::Status FlushAll();

 private:
  struct Task {
    enum Kind { kRecover, kRebuild } kind;
    ColumnFamilyFilter* filter;
    PresenceRebuildReason reason;
    std::vector<SavedTable> saved_tables;  // kRecover: what the save covered
  };

  // A new filter sized for keys (at least options_.expected_keys).
  absl::StatusOr<std::unique_ptr<PresenceFilter>> NewFilter(
      uint64_t keys) const;
  // A column family's record in the saved file, and the blocks its filter
  // changed in the saves after it, in order.
  struct SavedRecord {
    SavedColumnFamily decoded;
    std::string encoded;
    std::vector<std::string> changed_blocks;
  };
  // Reads the changes appended after full_save (the saved file's bytes)
  // into records: the latest tables and sequence number, and the blocks.
  void ReadChanges(absl::string_view full_save,
                   std::map<uint32_t, SavedRecord>* records);
  // The filter of record, with its changes; record->encoded then says what
  // it holds (for saves while it recovers).
  absl::StatusOr<std::unique_ptr<PresenceFilter>> Restore(
      SavedRecord* record) const;
  // Keys a rebuild of filter sizes for, from RocksDB's estimate and the
  // last scan.
  uint64_t RebuildKeys(ColumnFamilyFilter* filter);
  void Enqueue(Task task);
  void Progress(const std::string& line) const;

  void BackgroundLoop();
  void Run(const Task& task);
  // Flushes the column family, then adds every key of each of its live
  // tables, as that table alone shows them, except the tables in skip.
  absl::StatusOr<TablesRead> ReadTables(ColumnFamilyFilter* filter,
                                        rocksdb::ColumnFamilyHandle* handle,
                                        const std::vector<SavedTable>& skip,
                                        const KeyScan& scan);
  // Reads the tables the saved filter does not list, then serves.
  absl::Status Recover(ColumnFamilyFilter* filter,
                       const std::vector<SavedTable>& saved_tables);
  // Reads the column family's tables into a new filter, then swaps it in.
  absl::Status Rebuild(ColumnFamilyFilter* filter,
                       PresenceRebuildReason reason);
  // Makes the building filter serve and frees the one it replaces.
  void Promote(ColumnFamilyFilter* filter);
  // Queues a rebuild of each serving filter whose rate passed its bound.
  void CheckRates();
  // Every column family's filter, in the order they were added.
  std::vector<ColumnFamilyFilter*> Filters();

  // Saves (presence_save.cc). REQUIRES: save_mutex_ held.
  struct SaveSnapshot;
  // The last full save, which the saves after it append changes to.
  struct FullSave {
    bool valid = false;  // false: the next save is a full one
    std::string header;  // EncodeChangesHeader of it
    uint64_t bytes = 0;
    std::map<uint32_t, uint64_t> serials;  // column family id: filter serial
    uint64_t changes_bytes = 0;            // appended since
    std::unique_ptr<rocksdb::WritableFile> changes;  // once one is appended
  };
  absl::Status SaveLocked();
  // True when the last full save holds every serving filter of snapshot,
  // each changed since only in the blocks marked.
  bool FullSaveHoldsFilters(const SaveSnapshot& snapshot) const;
  // The record of snapshot's changes; the full save of it (and, in next,
  // what it holds).
  std::string ChangesOf(const SaveSnapshot& snapshot) const;
  std::string FullSaveOf(const SaveSnapshot& snapshot, FullSave* next) const;
  absl::Status AppendChanges(const std::string& record);
  absl::Status WriteFullSave(const std::string& bytes, FullSave next);
  bool Stopping() const { return stopping_.load(std::memory_order_relaxed); }

  const PresenceFilterOptions options_;
  const std::string path_;
  const std::shared_ptr<BackgroundSignal> signal_;
  rocksdb::DB* db_ = nullptr;
  std::string db_identity_;

  std::array<std::atomic<ColumnFamilyFilter*>, kMaxFilteredColumnFamilies>
      filters_{};
  std::mutex filters_mutex_;  // guards owned_filters_ and additions
  std::vector<std::unique_ptr<ColumnFamilyFilter>> owned_filters_;

  WritersLock writers_;
  ReadEpochs epochs_;
  ProbeSampling sampling_;
  std::mutex save_mutex_;  // one save at a time
  FullSave full_save_;     // guarded by save_mutex_

  // Background work, guarded by signal_->mutex.
  std::deque<Task> tasks_;
  int tasks_running_ = 0;
  std::condition_variable idle_;
  std::atomic<bool> stopping_{false};
  std::thread background_;
};

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_PRESENCE_CORE_H_
