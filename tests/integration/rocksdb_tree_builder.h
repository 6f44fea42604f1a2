// Builds a RocksDB tree whose tables are each written at a chosen level
// (CompactFiles into it), and records in every table the level RocksDB wrote
// it to: the level a per-level policy sized its filter for. With automatic
// compactions a growing tree fills its last level largely by trivial moves,
// and which tables end where depends on timing; built this way a test is the
// same on every run.

#ifndef SSTFILTER_TESTS_INTEGRATION_ROCKSDB_TREE_BUILDER_H_
#define SSTFILTER_TESTS_INTEGRATION_ROCKSDB_TREE_BUILDER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "engines/tree/per_level_allocation.h"
#include "rocksdb/options.h"
#include "rocksdb/table_properties.h"
#include "tests/integration/rocksdb_db_util.h"

namespace sstfilter {
namespace test {

// Keys written, flushed and compacted into one level (level 0: left as the
// flushed table, one more run of L0).
struct LevelBatch {
  int level;
  size_t keys;
};

// The tree a policy is told about: the keys each level holds, each batch
// written to L0 one more run there.
std::vector<TreeLevel> ModelTree(absl::Span<const LevelBatch> batches,
                                 int num_levels);

// Options of a tree of num_levels levels with automatic compactions off, a
// collector recording each table's level, and the counting statistics of
// CountingOptions.
rocksdb::Options TreeOptions(
    std::shared_ptr<const rocksdb::FilterPolicy> policy, int num_levels);

// Writes the batches in order, each into its level, in tables of at most
// table_bytes; closes the database. REQUIRES: entries holds at least the
// batches' keys.
absl::Status BuildTree(const rocksdb::Options& options, const std::string& dir,
                       const std::vector<Entry>& entries,
                       absl::Span<const LevelBatch> batches,
                       uint64_t table_bytes);

// The level a table of such a tree was written at, or -1 when it does not
// say.
int LevelWrittenAt(const rocksdb::TableProperties& table);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_INTEGRATION_ROCKSDB_TREE_BUILDER_H_
