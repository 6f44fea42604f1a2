// The keys a WriteBatch makes visible, by column family: what the filter
// must hold before the batch is written.

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_BATCH_KEYS_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_BATCH_KEYS_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "rocksdb/write_batch.h"

namespace sstfilter {
namespace presence_internal {

// keys[i] (into the batch's bytes) is written to column family
// column_family_ids[i]: two arrays, so that a run of one column family's keys
// is a span for the filter's batched Add.
struct BatchKeys {
  std::vector<uint32_t> column_family_ids;
  std::vector<absl::string_view> keys;
};

// Sets *keys to the key of every entry that makes a key visible (Put,
// TimedPut, PutEntity, Merge); deletions add nothing. InvalidArgumentError
// naming the record for an entry that is neither (a blob index, a
// transaction marker), which the filter cannot account for.
// A batch of the common records (puts, merges, entities, deletions) is read
// from its bytes; any other asks RocksDB's own reading
// (VisibleKeysThroughHandler), and the answer is the same.
absl::Status VisibleKeysOf(const rocksdb::WriteBatch& batch, BatchKeys* keys);

// VisibleKeysOf by WriteBatch::Iterate, a virtual call per record: knows
// every kind of record, and is the reference the tests hold the faster
// reading to.
absl::Status VisibleKeysThroughHandler(const rocksdb::WriteBatch& batch,
                                       BatchKeys* keys);

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_BATCH_KEYS_H_
