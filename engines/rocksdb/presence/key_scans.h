// Reading the keys a filter must hold from RocksDB: every key of a table
// file (files about to be ingested) and of each live table of a column
// family (a rebuild, or the tables a saved filter does not cover).

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_KEY_SCANS_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_KEY_SCANS_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engines/rocksdb/presence/saved_filters.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"

namespace sstfilter {

class MutableBloomFilter;

namespace presence_internal {

struct KeyScan {
  // Receives every key, a group at a time (the views last only the call).
  std::function<void(absl::Span<const absl::string_view> keys)> add;
  // Polled between keys: true stops the scan with CancelledError.
  std::function<bool()> stop;
  // Told the running count of keys now and then, for progress lines.
  std::function<void(uint64_t keys)> progress;
};

// Adds every key an iterator positioned nowhere yields, and returns how many.
// The iterator's own error, if any, is returned as an absl::Status.
absl::StatusOr<uint64_t> AddIteratorKeys(rocksdb::Iterator* iterator,
                                         const KeyScan& scan);

// Adds every key of the table file at path, read with options (the
// comparator and merge operator of its column family).
absl::StatusOr<uint64_t> AddTableFileKeys(const rocksdb::Options& options,
                                          const std::string& path,
                                          const KeyScan& scan);

// What ReadTables read.
struct TablesRead {
  uint64_t tables = 0;
  uint64_t keys = 0;  // summed over the tables: a key may count more than once
  // The latest sequence number once the tables were listed.
  uint64_t listed_at = 0;
};

// Flushes the column family (named name) of handle, then adds every key of
// each of its live tables, as that table alone shows them, except the
// tables in skip. File deletions pause meanwhile, so that the tables stay on
// disk until they are read whatever compactions do.
absl::StatusOr<TablesRead> ReadTables(rocksdb::DB* db,
                                      rocksdb::ColumnFamilyHandle* handle,
                                      const std::string& name,
                                      const std::vector<SavedTable>& skip,
                                      const KeyScan& scan);

// rocksdb::Status as absl::Status, with context.
absl::Status FromRocksDbStatus(const rocksdb::Status& status,
                               const std::string& context);

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_KEY_SCANS_H_
