#include "engines/rocksdb/presence/snapshot_cache.h"

#include <utility>

namespace sstfilter {
namespace presence_internal {

std::shared_ptr<const rocksdb::Snapshot> SharedSnapshot(rocksdb::DB* db) {
  return std::shared_ptr<const rocksdb::Snapshot>(
      db->GetSnapshot(), [db](const rocksdb::Snapshot* snapshot) {
        db->ReleaseSnapshot(snapshot);
      });
}

std::shared_ptr<const rocksdb::Snapshot> SnapshotCache::Latest() {
  const rocksdb::SequenceNumber latest = db_->GetLatestSequenceNumber();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (cached_ != nullptr && cached_->GetSequenceNumber() == latest) {
      return cached_;
    }
  }
  std::shared_ptr<const rocksdb::Snapshot> fresh = SharedSnapshot(db_);
  std::shared_ptr<const rocksdb::Snapshot> replaced;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    replaced = std::exchange(cached_, fresh);
    has_cached_.store(true, std::memory_order_relaxed);
  }
  return fresh;  // replaced is released here, outside the lock
}

void SnapshotCache::Forget() {
  if (!has_cached_.load(std::memory_order_relaxed)) return;
  std::shared_ptr<const rocksdb::Snapshot> dropped;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    dropped = std::move(cached_);
    has_cached_.store(false, std::memory_order_relaxed);
  }
}

}  // namespace presence_internal
}  // namespace sstfilter
