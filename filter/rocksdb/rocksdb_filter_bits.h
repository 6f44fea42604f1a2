// RocksDB's FilterBitsBuilder and FilterBitsReader, declared with the exact
// virtual layout of table/block_based/filter_policy_internal.h in each
// supported release:
//
//   RocksDB 7.8 (tag v7.8.3; Debian 12's librocksdb-dev)
//   RocksDB 9.7 (9.7.4; --config=rocksdb9): AddKeyAndAlt follows AddKey
//
// Since RocksDB 7.0 the public headers only forward-declare these classes, yet
// FilterPolicy::GetBuilderWithContext and GetFilterBitsReader return them, and
// the library implements them. Calling through these declarations is correct
// only while the vtable order matches the library's, so this header refuses
// any release not listed above: check that release's
// filter_policy_internal.h, then add it here.
//
// Users: code that drives RocksDB's own filter builders and readers (the
// benchmark, the differential tests of filter/rocksdb/), and adapters that
// present an sstfilter policy to RocksDB as a rocksdb::FilterPolicy. Such code
// should also check the 5-byte trailer of the filters it gets back
// (filter/rocksdb/rocksdb_format.h), so that a mismatch cannot pass silently.
// A builder written against this header implements AddKeyAndAlt when
// SSTFILTER_ROCKSDB_HAS_ADD_KEY_AND_ALT is 1.

#ifndef SSTFILTER_FILTER_ROCKSDB_ROCKSDB_FILTER_BITS_H_
#define SSTFILTER_FILTER_ROCKSDB_ROCKSDB_FILTER_BITS_H_

#include <cstddef>
#include <memory>

#include "rocksdb/filter_policy.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "rocksdb/version.h"

#if ROCKSDB_MAJOR == 7 && ROCKSDB_MINOR == 8
#define SSTFILTER_ROCKSDB_HAS_ADD_KEY_AND_ALT 0
#elif ROCKSDB_MAJOR == 9 && ROCKSDB_MINOR == 7
#define SSTFILTER_ROCKSDB_HAS_ADD_KEY_AND_ALT 1
#else
#error \
    "filter/rocksdb/rocksdb_filter_bits.h declares the internal filter classes of RocksDB \
7.8 and 9.7 only; check table/block_based/filter_policy_internal.h of this RocksDB and \
add it"
#endif

namespace ROCKSDB_NAMESPACE {

class FilterBitsBuilder {
 public:
  virtual ~FilterBitsBuilder() {}
  virtual void AddKey(const Slice& key) = 0;
#if SSTFILTER_ROCKSDB_HAS_ADD_KEY_AND_ALT
  // Adds key and, as the alternate, its prefix; RocksDB 9's contract on which
  // of them repeat and are dropped is in rocksdb_adapter.cc.
  virtual void AddKeyAndAlt(const Slice& key, const Slice& alt) = 0;
#endif
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
