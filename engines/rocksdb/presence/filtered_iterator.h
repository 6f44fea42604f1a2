// An iterator of a PresenceFilteredDB. A Seek or SeekForPrev that can return
// only keys of one prefix (seek_prefix.h), which the filter rules out, leaves
// it not Valid(), status OK, without entering RocksDB; every other call goes to
// a RocksDB iterator created at the first one that needs it, reading at a
// snapshot of the state when this iterator was created (snapshot_cache.h), so
// that it sees what RocksDB's own iterator created then would see.

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_FILTERED_ITERATOR_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_FILTERED_ITERATOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "engines/rocksdb/presence/presence_core.h"
#include "engines/rocksdb/presence/probe_sampling.h"
#include "rocksdb/db.h"
#include "rocksdb/iterator.h"
#include "rocksdb/version.h"

namespace sstfilter {
namespace presence_internal {

// A RocksDB iterator of db's column family, wrapped as above when core may
// answer its seeks (PresenceCore::MayAnswerSeeks), else
// RocksDB's own. REQUIRES: db and core outlive it.
rocksdb::Iterator* NewFilteredIterator(rocksdb::DB* db, PresenceCore* core,
                                       const rocksdb::ReadOptions& options,
                                       rocksdb::ColumnFamilyHandle* handle);
// As DB::NewIterators: iterators of the column families reading one state,
// each wrapped when one of them may have its seeks answered.
rocksdb::Status NewFilteredIterators(
    rocksdb::DB* db, PresenceCore* core, const rocksdb::ReadOptions& options,
    const std::vector<rocksdb::ColumnFamilyHandle*>& handles,
    std::vector<rocksdb::Iterator*>* iterators);

// Not thread-safe, as RocksDB's iterators are not.
class FilteredIterator : public rocksdb::Iterator {
 public:
  // Reads at options.snapshot, or else (unless tailing) at snapshot, or
  // else at core's snapshot of the latest state. sampling: the creating
  // thread's seek sampling state (PresenceCore::SeekSampling), told what each
  // of its seeks on that thread found; may be null.
  FilteredIterator(rocksdb::DB* db, PresenceCore* core,
                   const rocksdb::ReadOptions& options,
                   rocksdb::ColumnFamilyHandle* handle,
                   ProbeSampling::Slot* sampling,
                   std::shared_ptr<const rocksdb::Snapshot> snapshot = nullptr);
  ~FilteredIterator() override;

  bool Valid() const override {
    return !ruled_out_ && base_ != nullptr && base_->Valid();
  }
  void SeekToFirst() override;
  void SeekToLast() override;
  void Seek(const rocksdb::Slice& target) override;
  void SeekForPrev(const rocksdb::Slice& target) override;
  void Next() override;
  void Prev() override;
  rocksdb::Slice key() const override { return base_->key(); }
  rocksdb::Slice value() const override { return base_->value(); }
  const rocksdb::WideColumns& columns() const override {
    return base_->columns();
  }
  rocksdb::Slice timestamp() const override { return base_->timestamp(); }
  rocksdb::Status status() const override;
  rocksdb::Status GetProperty(std::string name, std::string* value) override;
#if ROCKSDB_MAJOR >= 9
  rocksdb::Status Refresh(const rocksdb::Snapshot* snapshot) override;
#endif
  rocksdb::Status Refresh() override;

  // Whether a RocksDB iterator was created (for tests).
  bool entered_rocksdb() const { return base_ != nullptr; }

 private:
  // The RocksDB iterator, created on first use.
  rocksdb::Iterator* Base();
  // True when the filter rules out every key a seek for target can return.
  bool RulesOut(const rocksdb::Slice& target, SeekDirection direction);
  // Reads at snapshot from now on, dropping the RocksDB iterator; the
  // second keeps owned alive as long as it reads at it.
  void ReadAt(const rocksdb::Snapshot* snapshot);
  void ReadAt(std::shared_ptr<const rocksdb::Snapshot> owned);

  rocksdb::DB* const db_;
  PresenceCore* const core_;
  rocksdb::ColumnFamilyHandle* const handle_;
  rocksdb::ReadOptions options_;
  // The column family's prefix generation at creation: answers stop once a
  // SetOptions naming prefix_extractor has begun since.
  const uint64_t prefix_generation_;
  ProbeSampling::Slot* const sampling_;
  const std::thread::id creator_ = std::this_thread::get_id();
  // Taken for this iterator (options_.snapshot then points to it).
  std::shared_ptr<const rocksdb::Snapshot> own_snapshot_;
  std::unique_ptr<rocksdb::Iterator> base_;
  bool ruled_out_ = false;  // positioned by a seek the filter answered
};

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_FILTERED_ITERATOR_H_
