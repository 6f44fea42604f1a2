// What a PresenceFilteredDB keeps beside its base database, and how its
// parts meet: the column families' filters (column_family_slots.h), the lock
// that orders writes against filter swaps, lookups (filter_lookups.h), and
// the background thread (task_thread.h) that recovers and rebuilds
// (rebuilds.h), checks rates (rate_checks.h) and saves (filter_saves.h).

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_PRESENCE_CORE_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_PRESENCE_CORE_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engines/rocksdb/presence/column_family_filter.h"
#include "engines/rocksdb/presence/column_family_slots.h"
#include "engines/rocksdb/presence/filter_lookups.h"
#include "engines/rocksdb/presence/filter_saves.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "engines/rocksdb/presence/progress_lines.h"
#include "engines/rocksdb/presence/read_epochs.h"
#include "engines/rocksdb/presence/rebuilds.h"
#include "engines/rocksdb/presence/saved_at_open.h"
#include "engines/rocksdb/presence/snapshot_cache.h"
#include "engines/rocksdb/presence/task_thread.h"
#include "engines/rocksdb/presence/writers_lock.h"
#include "rocksdb/db.h"

namespace sstfilter {
namespace presence_internal {

class PresenceCore {
 public:
  // The filters of db, opened at path; signal wakes the background thread
  // (its listener must be among db's). REQUIRES: db outlives this object.
  PresenceCore(const PresenceFilterOptions& options, const std::string& path,
               std::shared_ptr<BackgroundSignal> signal, rocksdb::DB* db);
  ~PresenceCore();

  // Sets up each column family's filter from the saved file (restored and
  // recovering, or rebuilding) and starts the background thread. REQUIRES:
  // handles are the open database's, one per column family.
  void Start(const std::vector<rocksdb::ColumnFamilyHandle*>& handles);
  // Stops the background thread (a scan under way is abandoned). Idempotent.
  void Stop();

  // The filter of a column family, or null (no filter: pass through).
  ColumnFamilyFilter* FilterOf(rocksdb::ColumnFamilyHandle* handle) const {
    return slots_.Of(handle);
  }
  ColumnFamilyFilter* FilterOf(uint32_t column_family_id) const {
    return slots_.Of(column_family_id);
  }
  // True when the filter proves key absent from what options can see.
  // Inlined, as FilterLookups::RulesOut is.
  ABSL_ATTRIBUTE_ALWAYS_INLINE bool RulesOut(
      const rocksdb::ReadOptions& options, rocksdb::ColumnFamilyHandle* handle,
      absl::string_view key) {
    return lookups_.RulesOut(options, handle, key);
  }
  // results[i] = RulesOut(keys[i]) for keys of one column family, probing
  // the filter once for the batch. REQUIRES: results holds keys.size().
  void RulesOut(const rocksdb::ReadOptions& options,
                rocksdb::ColumnFamilyHandle* handle,
                absl::Span<const absl::string_view> keys, bool* results) {
    lookups_.RulesOut(options, handle, keys, results);
  }

  // Seeks answered from prefixes or range items (PresenceFilterOptions::
  // filter_prefix_seeks, filter_range_seeks): see FilterLookups.
  // PrefixGeneration: the column family's, or 0 without a filter.
  bool MayAnswerSeeks(const rocksdb::ReadOptions& options,
                      rocksdb::ColumnFamilyHandle* handle) const {
    return lookups_.MayAnswerSeeks(options, handle);
  }
  uint64_t PrefixGeneration(rocksdb::ColumnFamilyHandle* handle) const {
    ColumnFamilyFilter* filter = FilterOf(handle);
    return filter == nullptr ? 0 : filter->prefix_generation();
  }
  bool RulesOutSeek(const rocksdb::ReadOptions& options,
                    rocksdb::ColumnFamilyHandle* handle,
                    uint64_t prefix_generation, absl::string_view target,
                    SeekDirection direction) {
    return lookups_.RulesOutSeek(options, handle, prefix_generation, target,
                                 direction);
  }
  ProbeSampling::Slot* SeekSampling() { return lookups_.SeekSampling(); }
  // The snapshot iterators read at; every write adds its keys through
  // WriteBegins.
  SnapshotCache& snapshots() { return snapshots_; }
  // Called by each write before it adds its keys: the cached snapshot is
  // dropped, so that it holds back no compaction.
  void WriteBegins() { snapshots_.Forget(); }
  // Around a SetOptions of the column family that names prefix_extractor:
  // prefix seeks go to RocksDB from Begin on, and End queues a rebuild that
  // reads the new prefixes.
  void BeginPrefixChange(rocksdb::ColumnFamilyHandle* handle);
  void EndPrefixChange(rocksdb::ColumnFamilyHandle* handle);

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

  absl::Status Save() { return saves_.Save(/*bytes_written=*/nullptr); }
  absl::Status WaitUntilServing(std::chrono::milliseconds timeout);
  absl::Status RequestRebuild(rocksdb::ColumnFamilyHandle* handle,
                              PresenceRebuildReason reason);
  PresenceFilterState State(rocksdb::ColumnFamilyHandle* handle);
  PresenceFilterStats Stats(rocksdb::ColumnFamilyHandle* handle);
  // Flushes every column family with a handle (CloseAndSave).
  absl::Status FlushAll();

 private:
  // A column family's filter at open: restored from its record in saved and
  // queued to recover, or new and queued to rebuild.
  std::unique_ptr<ColumnFamilyFilter> OpenFilter(
      rocksdb::ColumnFamilyHandle* handle, SavedAtOpen* saved);
  // Queues a rebuild of filter (none if one is queued).
  void QueueRebuild(ColumnFamilyFilter* filter, PresenceRebuildReason reason);

  const PresenceFilterOptions options_;
  const std::string saved_file_;
  rocksdb::DB* const db_;
  const std::string db_identity_;
  const ProgressFn progress_;

  ColumnFamilySlots slots_;
  WritersLock writers_;
  ReadEpochs epochs_;
  FilterLookups lookups_;
  TaskThread tasks_;
  Rebuilds rebuilds_;
  FilterSaves saves_;
  SnapshotCache snapshots_;
};

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_PRESENCE_CORE_H_
