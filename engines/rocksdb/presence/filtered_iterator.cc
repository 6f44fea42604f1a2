#include "engines/rocksdb/presence/filtered_iterator.h"

#include <algorithm>
#include <utility>

namespace sstfilter {
namespace presence_internal {

rocksdb::Iterator* NewFilteredIterator(rocksdb::DB* db, PresenceCore* core,
                                       const rocksdb::ReadOptions& options,
                                       rocksdb::ColumnFamilyHandle* handle) {
  if (handle == nullptr || !core->MayAnswerSeeks(options, handle)) {
    return db->NewIterator(options, handle);
  }
  ProbeSampling::Slot* sampling = core->SeekSampling();
  if (!ProbeSampling::ShouldProbe(sampling)) {
    return db->NewIterator(options, handle);
  }
  return new FilteredIterator(db, core, options, handle, sampling);
}

rocksdb::Status NewFilteredIterators(
    rocksdb::DB* db, PresenceCore* core, const rocksdb::ReadOptions& options,
    const std::vector<rocksdb::ColumnFamilyHandle*>& handles,
    std::vector<rocksdb::Iterator*>* iterators) {
  const bool any = std::any_of(
      handles.begin(), handles.end(),
      [core, &options](rocksdb::ColumnFamilyHandle* handle) {
        return handle != nullptr && core->MayAnswerSeeks(options, handle);
      });
  if (!any || iterators == nullptr) {
    return db->NewIterators(options, handles, iterators);
  }
  std::shared_ptr<const rocksdb::Snapshot> snapshot;
  if (options.snapshot == nullptr && !options.tailing) {
    snapshot = core->snapshots().Latest();
  }
  iterators->clear();
  for (rocksdb::ColumnFamilyHandle* handle : handles) {
    if (handle == nullptr) {
      for (rocksdb::Iterator* made : *iterators) delete made;
      iterators->clear();
      return rocksdb::Status::InvalidArgument("a null column family handle");
    }
    iterators->push_back(new FilteredIterator(db, core, options, handle,
                                              /*sampling=*/nullptr, snapshot));
  }
  return rocksdb::Status::OK();
}

FilteredIterator::FilteredIterator(
    rocksdb::DB* db, PresenceCore* core, const rocksdb::ReadOptions& options,
    rocksdb::ColumnFamilyHandle* handle, ProbeSampling::Slot* sampling,
    std::shared_ptr<const rocksdb::Snapshot> snapshot)
    : db_(db),
      core_(core),
      handle_(handle),
      options_(options),
      prefix_generation_(core->PrefixGeneration(handle)),
      sampling_(sampling) {
  // A tailing iterator reads the latest state at each seek, as the filter
  // holds it; any other reads at its creation.
  if (options_.snapshot == nullptr && !options_.tailing) {
    if (snapshot == nullptr) snapshot = core->snapshots().Latest();
    ReadAt(std::move(snapshot));
  }
}

// The RocksDB iterator goes before the snapshot it reads at.
FilteredIterator::~FilteredIterator() { base_.reset(); }

void FilteredIterator::ReadAt(const rocksdb::Snapshot* snapshot) {
  base_.reset();
  ruled_out_ = false;
  own_snapshot_.reset();
  options_.snapshot = snapshot;
}

void FilteredIterator::ReadAt(std::shared_ptr<const rocksdb::Snapshot> owned) {
  ReadAt(owned.get());
  own_snapshot_ = std::move(owned);
}

rocksdb::Iterator* FilteredIterator::Base() {
  if (base_ == nullptr) base_.reset(db_->NewIterator(options_, handle_));
  return base_.get();
}

bool FilteredIterator::RulesOut(const rocksdb::Slice& target,
                                SeekDirection direction) {
  const bool ruled_out = core_->RulesOutSeek(
      options_, handle_, prefix_generation_,
      absl::string_view(target.data(), target.size()), direction);
  // The sampling state is its thread's alone.
  if (std::this_thread::get_id() == creator_) {
    ProbeSampling::Record(sampling_, ruled_out);
  }
  return ruled_out;
}

void FilteredIterator::SeekToFirst() {
  ruled_out_ = false;
  Base()->SeekToFirst();
}

void FilteredIterator::SeekToLast() {
  ruled_out_ = false;
  Base()->SeekToLast();
}

void FilteredIterator::Seek(const rocksdb::Slice& target) {
  ruled_out_ = RulesOut(target, SeekDirection::kForward);
  if (!ruled_out_) Base()->Seek(target);
}

void FilteredIterator::SeekForPrev(const rocksdb::Slice& target) {
  ruled_out_ = RulesOut(target, SeekDirection::kBackward);
  if (!ruled_out_) Base()->SeekForPrev(target);
}

// RocksDB requires Valid() for these; on an iterator that is not, they
// leave it as it is.
void FilteredIterator::Next() {
  if (Valid()) base_->Next();
}

void FilteredIterator::Prev() {
  if (Valid()) base_->Prev();
}

rocksdb::Status FilteredIterator::status() const {
  if (ruled_out_ || base_ == nullptr) return rocksdb::Status::OK();
  return base_->status();
}

rocksdb::Status FilteredIterator::GetProperty(std::string name,
                                              std::string* value) {
  return Base()->GetProperty(std::move(name), value);
}

#if ROCKSDB_MAJOR >= 9
rocksdb::Status FilteredIterator::Refresh(const rocksdb::Snapshot* snapshot) {
  if (options_.tailing) return Base()->Refresh(snapshot);
  if (snapshot != nullptr) {
    ReadAt(snapshot);
  } else {
    ReadAt(core_->snapshots().Latest());
  }
  return rocksdb::Status::OK();
}
#endif

rocksdb::Status FilteredIterator::Refresh() {
  if (options_.tailing) return Base()->Refresh();
  // RocksDB 7.8.3 refuses to refresh an iterator created with a snapshot.
  if (own_snapshot_ == nullptr && options_.snapshot != nullptr) {
    return Base()->Refresh();
  }
  ReadAt(core_->snapshots().Latest());
  return rocksdb::Status::OK();
}

}  // namespace presence_internal
}  // namespace sstfilter
