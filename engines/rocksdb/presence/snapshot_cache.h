// The snapshot the wrapper's iterators read at, shared while no write lands:
// a snapshot taken at the same latest sequence number reads the same state,
// so the iterators created between two writes share one instead of each
// taking the database mutex twice for its own. The first write after drops
// it (Forget), so that it holds back no compaction once writes resume.

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_SNAPSHOT_CACHE_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_SNAPSHOT_CACHE_H_

#include <atomic>
#include <memory>
#include <mutex>

#include "rocksdb/db.h"

namespace sstfilter {
namespace presence_internal {

// A snapshot of db, released when the last owner lets go. REQUIRES: db
// outlives it.
std::shared_ptr<const rocksdb::Snapshot> SharedSnapshot(rocksdb::DB* db);

// Any thread.
class SnapshotCache {
 public:
  // REQUIRES: db outlives every snapshot handed out.
  explicit SnapshotCache(rocksdb::DB* db) : db_(db) {}

  // A snapshot of the latest state: the cached one while its sequence
  // number is still the latest, else a new one, cached.
  std::shared_ptr<const rocksdb::Snapshot> Latest();
  // Drops the cached snapshot (its last owner releases it); one relaxed load
  // when there is none.
  void Forget();

 private:
  rocksdb::DB* const db_;
  std::mutex mutex_;
  std::shared_ptr<const rocksdb::Snapshot> cached_;  // guarded by mutex_
  std::atomic<bool> has_cached_{false};
};

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_SNAPSHOT_CACHE_H_
