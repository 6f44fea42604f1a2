// A MultiGet answered through a column family's filter: the keys it rules
// out answer NotFound, and the base database looks up the rest as one batch,
// each answer landing in the caller's own PinnableSlice and Status.

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_MULTI_GET_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_MULTI_GET_H_

#include <cstddef>
#include <functional>

#include "rocksdb/db.h"

namespace sstfilter {
namespace presence_internal {

class PresenceCore;

// The column families of a MultiGet: one for every key (each == nullptr), or
// one per key.
struct MultiGetFamilies {
  rocksdb::ColumnFamilyHandle* one;
  rocksdb::ColumnFamilyHandle** each;
  rocksdb::ColumnFamilyHandle* at(size_t i) const {
    return each == nullptr ? one : each[i];
  }
};

// The base database's MultiGet of n keys: (options, n, the keys' column
// families or null when there is one for all, keys, values, statuses).
using MultiGetLookup = std::function<void(
    const rocksdb::ReadOptions&, size_t, rocksdb::ColumnFamilyHandle**,
    const rocksdb::Slice*, rocksdb::PinnableSlice*, rocksdb::Status*)>;

// Answers a MultiGet of num_keys keys as the base database would: every
// value, status and PinnableSlice (its own buffer or the caller's) as a
// single call of lookup over all the keys would leave them. Several calls of
// lookup share one snapshot, so their answers are of one moment.
void MultiGetThroughFilter(PresenceCore* core, rocksdb::DB* base,
                           const rocksdb::ReadOptions& options, size_t num_keys,
                           MultiGetFamilies families,
                           const rocksdb::Slice* keys,
                           rocksdb::PinnableSlice* values,
                           rocksdb::Status* statuses,
                           const MultiGetLookup& lookup);

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_MULTI_GET_H_
