// RocksDB's FilterBitsBuilder and FilterBitsReader, declared with the exact
// virtual layout of table/block_based/filter_policy_internal.h in each
// supported release (RocksDB 7.8 and 9.7), for code that drives RocksDB's own
// filter builders and readers or presents an sstfilter policy to RocksDB.
// Calling through these declarations is correct only while the vtable order
// matches the library's, so this header refuses any other release.
// filter/rocksdb/README.md ("FilterBitsBuilder and FilterBitsReader") says
// why, and how to add a release.

#ifndef SSTFILTER_FILTER_ROCKSDB_ROCKSDB_FILTER_BITS_H_
#define SSTFILTER_FILTER_ROCKSDB_ROCKSDB_FILTER_BITS_H_

#include <cstddef>
#include <memory>

#include "rocksdb/filter_policy.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "rocksdb/version.h"

// 1 where FilterBitsBuilder has AddKeyAndAlt (after AddKey; RocksDB 9.7): a
// builder written against this header implements it then. Code that gets
// filters back from RocksDB should also check their 5-byte trailer
// (filter/rocksdb/rocksdb_format.h), so that a mismatch cannot pass silently.
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
