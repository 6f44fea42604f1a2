// db_bench's RocksDB 7.8.3 databases: one per filter configuration, built
// from DbShape's keys and reopened for lookups.

#ifndef SSTFILTER_BENCH_DB_ROCKSDB_STORE_H_
#define SSTFILTER_BENCH_DB_ROCKSDB_STORE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "bench/db/db_store.h"
#include "bench/db/lookups.h"
#include "bench/db/rocksdb_tree.h"
#include "rocksdb/filter_policy.h"

namespace sstfilter {
namespace bench {

// The RocksDB release db_bench is built against: "7.8.3".
std::string RocksDbVersion();

struct RocksDbConfig {
  std::string name;    // e.g. "lib:rocksdb.fastbloom" (db_configs.h)
  std::string filter;  // what the policy is, for the report
  std::shared_ptr<const rocksdb::FilterPolicy> policy;
};

// kRecentFlushesTree: flushed tables a lookup meets in L0 while the store
// takes writes, on average (0 to kRocksDbL0CompactionTrigger - 1), of about
// one memtable each.
constexpr int kRocksDbRecentFlushes = 2;
uint64_t RocksDbKeysPerFlush(const DbShape& shape);

// The options a configuration's database is built and reopened with for
// lookups: the tree's (RocksDbTreeOptions), the policy, and a block cache
// lookups do not fill.
rocksdb::Options RocksDbLookupOptions(const RocksDbConfig& config,
                                      const DbShape& shape);

// The block cache of DirectReadFigures for a tree of these bytes: room for
// every filter and index block, far less than the data.
uint64_t DirectReadCacheBytes(const RocksDbTree::BlockBytes& bytes);

// The options of DirectReadFigures' mode: use_direct_reads when `direct`, and
// a block cache of cache_bytes holding every filter and index block, pinned.
rocksdb::Options RocksDbDirectReadOptions(const RocksDbConfig& config,
                                          const DbShape& shape,
                                          uint64_t cache_bytes, bool direct);

// Builds one database under shape.dir, waits for its compactions and
// reopens it. The database is removed when the OpenDb goes.
absl::StatusOr<std::unique_ptr<OpenDb>> BuildRocksDb(
    const RocksDbConfig& config, const DbShape& shape,
    const Progress& progress);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_ROCKSDB_STORE_H_
