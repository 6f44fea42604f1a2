// RocksDB 7.8.3's FilterBitsBuilder and FilterBitsReader, declared with the
// exact virtual layout of table/block_based/filter_policy_internal.h at tag
// v7.8.3.
//
// Since RocksDB 7.0 the public headers only forward-declare these classes, yet
// FilterPolicy::GetBuilderWithContext and GetFilterBitsReader return them, and
// the shared library implements them. Calling through these declarations is
// correct only while the vtable order matches the library's, so this header
// refuses any other RocksDB release (8.x inserts AddKeyAndAlt before
// EstimateEntriesAdded).
//
// Users: code that drives RocksDB's own filter builders and readers (the
// benchmark, the differential tests of filter/rocksdb/), and adapters that
// present an sstfilter policy to RocksDB as a rocksdb::FilterPolicy. Such code
// should also check the 5-byte trailer of the filters it gets back
// (filter/rocksdb/rocksdb_format.h), so that a mismatch cannot pass silently.

#ifndef SSTFILTER_FILTER_ROCKSDB_ROCKSDB_FILTER_BITS_H_
#define SSTFILTER_FILTER_ROCKSDB_ROCKSDB_FILTER_BITS_H_

#include <cstddef>
#include <memory>

#include "rocksdb/filter_policy.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "rocksdb/version.h"

#if ROCKSDB_MAJOR != 7 || ROCKSDB_MINOR != 8
#error \
    "filter/rocksdb/rocksdb_filter_bits.h declares RocksDB 7.8's internal filter classes; \
check table/block_based/filter_policy_internal.h of this RocksDB and update it"
#endif

namespace ROCKSDB_NAMESPACE {

class FilterBitsBuilder {
 public:
  virtual ~FilterBitsBuilder() {}
  virtual void AddKey(const Slice& key) = 0;
  virtual size_t EstimateEntriesAdded() = 0;
  virtual Slice Finish(std::unique_ptr<const char[]>* buf) = 0;
  virtual Slice Finish(std::unique_ptr<const char[]>* buf, Status* /*status*/) {
    return Finish(buf);
  }
  virtual Status MaybePostVerify(const Slice& /*filter_content*/) {
    return Status::OK();
  }
  virtual size_t ApproximateNumEntries(size_t bytes) = 0;
};

class FilterBitsReader {
 public:
  virtual ~FilterBitsReader() {}
  virtual bool MayMatch(const Slice& entry) = 0;
  virtual void MayMatch(int num_keys, Slice** keys, bool* may_match) {
    for (int i = 0; i < num_keys; ++i) may_match[i] = MayMatch(*keys[i]);
  }
};

}  // namespace ROCKSDB_NAMESPACE

#endif  // SSTFILTER_FILTER_ROCKSDB_ROCKSDB_FILTER_BITS_H_
