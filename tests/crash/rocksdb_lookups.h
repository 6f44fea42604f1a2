// Point lookups in a RocksDB database with their outcomes as the crash
// tests' checks want them: a value, nullopt for NotFound, or an error.

#ifndef SSTFILTER_TESTS_CRASH_ROCKSDB_LOOKUPS_H_
#define SSTFILTER_TESTS_CRASH_ROCKSDB_LOOKUPS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "rocksdb/db.h"

namespace sstfilter {
namespace test {

// The key's value in the default column family at the latest state, through
// an iterator whose bounds hold only the key: Seek under an upper bound just
// above it (backward: SeekForPrev above a lower bound at it), as a range
// scan of one possible key asks.
absl::StatusOr<std::optional<std::string>> RocksDbSeek(rocksdb::DB* db,
                                                       const std::string& key,
                                                       bool backward);

// Keys of one call of the batched MultiGet in RocksDbMultiGet.
constexpr size_t kMultiGetBatch = 64;

// Get in the default column family, at snapshot when not null.
absl::StatusOr<std::optional<std::string>> RocksDbGet(
    rocksdb::DB* db, const std::string& key,
    const rocksdb::Snapshot* snapshot = nullptr);

// The keys' values in the default column family at the latest state, with
// the batched MultiGet (keys as Slices, PinnableSlice values), kMultiGetBatch
// keys a call. The first lookup that fails is the error.
absl::StatusOr<std::vector<std::optional<std::string>>> RocksDbMultiGet(
    rocksdb::DB* db, const std::vector<std::string>& keys);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_CRASH_ROCKSDB_LOOKUPS_H_
