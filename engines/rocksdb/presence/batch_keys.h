// The keys a WriteBatch makes visible, by column family: what the filter
// must hold before the batch is written.

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_BATCH_KEYS_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_BATCH_KEYS_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "rocksdb/write_batch.h"

namespace sstfilter {
namespace presence_internal {

struct KeyInColumnFamily {
  uint32_t column_family_id;
  absl::string_view key;  // into the batch's bytes
};

// Appends the key of every entry that makes a key visible (Put, TimedPut,
// PutEntity, Merge) to *keys; deletions add nothing. InvalidArgumentError
// naming the record for an entry that is neither (a blob index, a
// transaction marker), which the filter cannot account for.
absl::Status VisibleKeysOf(const rocksdb::WriteBatch& batch,
                           std::vector<KeyInColumnFamily>* keys);

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_BATCH_KEYS_H_
