// Filling a column family's building filter from its tables, then making it
// serve: a recovery reads the tables a restored filter's save does not list;
// a rebuild reads every live table into a new filter. Either swaps the
// filter in under the writers lock and frees the one it replaces once no
// lookup can still be reading it.

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_REBUILDS_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_REBUILDS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engines/rocksdb/presence/column_family_filter.h"
#include "engines/rocksdb/presence/key_scans.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "engines/rocksdb/presence/progress_lines.h"
#include "engines/rocksdb/presence/read_epochs.h"
#include "engines/rocksdb/presence/saved_filters.h"
#include "engines/rocksdb/presence/task_thread.h"
#include "engines/rocksdb/presence/writers_lock.h"
#include "rocksdb/db.h"

namespace sstfilter {
namespace presence_internal {

// A new filter for keys (at least options.expected_keys) at options.fpp,
// tracking its changes for the saves; sized for twice as many items when it
// also holds each key's prefix.
absl::StatusOr<std::unique_ptr<PresenceFilter>> NewFilter(
    const PresenceFilterOptions& options, uint64_t keys, PrefixItems prefixes);

// The prefix extractor a new filter of the column family adds prefixes
// under: the column family's current one when options.filter_prefix_seeks,
// with the generation it was read at; none when a SetOptions naming
// prefix_extractor runs meanwhile (its end queues a rebuild).
PrefixItems CurrentPrefixes(const PresenceFilterOptions& options,
                            rocksdb::DB* db, const ColumnFamilyFilter& filter,
                            rocksdb::ColumnFamilyHandle* handle);

// Keys a rebuild of filter sizes for: RocksDB's estimate or the last scan's
// count, whichever is larger, times kRebuildHeadroom.
uint64_t RebuildKeys(rocksdb::DB* db, const ColumnFamilyFilter& filter);

// Runs on the background thread only (the one that installs and promotes
// building filters).
class Rebuilds {
 public:
  // Reads db's tables into filters swapped under writers and epochs.
  // stopping is polled during scans: true abandons them. Progress lines go
  // to progress. REQUIRES: the pointers outlive this object.
  Rebuilds(const PresenceFilterOptions& options, rocksdb::DB* db,
           WritersLock* writers, ReadEpochs* epochs,
           std::function<bool()> stopping, ProgressFn progress);

  // A recovery, and a rebuild (kUnreadableTables) if it fails otherwise
  // than by stopping, cancellation or a StopServing meanwhile (which queued
  // a rebuild already); or a rebuild.
  void Run(const BackgroundTask& task);

  // Reads the tables not in saved_tables into the building filter (the
  // restored one), then makes it serve. AbortedError when StopServing was
  // called meanwhile; CancelledError when the handle is gone.
  absl::Status Recover(ColumnFamilyFilter* filter,
                       const std::vector<SavedTable>& saved_tables);
  // Reads every live table of the column family into the building filter
  // (a new one unless one is installed), then makes it serve. Tells the
  // listener, records the outcome in the filter's stats, and drops the
  // building filter on failure.
  absl::Status Rebuild(ColumnFamilyFilter* filter,
                       PresenceRebuildReason reason);

 private:
  // A scan adding to filter's building filter, reporting to lines.
  KeyScan ScanInto(ColumnFamilyFilter* filter, ProgressLines* lines) const;
  // Makes the building filter serve and frees the one it replaces.
  void Promote(ColumnFamilyFilter* filter);

  const PresenceFilterOptions options_;
  rocksdb::DB* const db_;
  WritersLock* const writers_;
  ReadEpochs* const epochs_;
  const std::function<bool()> stopping_;
  const ProgressFn progress_;
};

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_REBUILDS_H_
