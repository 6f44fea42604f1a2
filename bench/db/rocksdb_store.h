// db_bench's RocksDB 7.8.3 databases: one per filter configuration, built
// from DbShape's keys and reopened for lookups.

#ifndef SSTFILTER_BENCH_DB_ROCKSDB_STORE_H_
#define SSTFILTER_BENCH_DB_ROCKSDB_STORE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "bench/db/db_store.h"
#include "bench/db/lookups.h"
#include "rocksdb/filter_policy.h"

namespace sstfilter {
namespace bench {

struct RocksDbConfig {
  std::string name;    // e.g. "rocksdb.bloom"
  std::string filter;  // what the policy is, for the report
  std::shared_ptr<const rocksdb::FilterPolicy> policy;
};

// The tree's shape: 1 MB memtables and tables, levels a 10x fan-out apart
// sized from the last one up, so that 10^7 keys (about 250 MB of tables) fill
// the last three of 7 levels. L0 is compacted when it holds 4 tables
// (RocksDB's default level0_file_num_compaction_trigger) into a base level of
// at most that size, the proportion of RocksDB's defaults (64 MB memtables,
// 256 MB base level): a smaller base level would have RocksDB compact L0 by
// its size after a single flush.
constexpr int kRocksDbNumLevels = 7;
constexpr size_t kRocksDbWriteBufferBytes = 1 << 20;  // also each table's size
constexpr int kRocksDbL0CompactionTrigger = 4;
constexpr uint64_t kRocksDbBaseLevelBytes =
    kRocksDbL0CompactionTrigger * kRocksDbWriteBufferBytes;
constexpr int kRocksDbFanOut = 10;

// kRecentFlushesTree: flushed tables a lookup meets in L0 while the store
// takes writes, on average (0 to kRocksDbL0CompactionTrigger - 1), of about
// one memtable each.
constexpr int kRocksDbRecentFlushes = 2;
uint64_t RocksDbKeysPerFlush(size_t value_bytes);

// Builds one database under shape.dir, waits for its compactions and
// reopens it. The database is removed when the OpenDb goes.
absl::StatusOr<std::unique_ptr<OpenDb>> BuildRocksDb(
    const RocksDbConfig& config, const DbShape& shape,
    const Progress& progress);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_ROCKSDB_STORE_H_
