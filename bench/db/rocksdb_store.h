// db_bench's RocksDB 7.8.3 runs: build a database of DbShape's keys with a
// filter policy, wait for its compactions, reopen it, and time point lookups.

#ifndef SSTFILTER_BENCH_DB_ROCKSDB_STORE_H_
#define SSTFILTER_BENCH_DB_ROCKSDB_STORE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "bench/db/db_store.h"
#include "rocksdb/filter_policy.h"

namespace sstfilter {
namespace bench {

struct RocksDbConfig {
  std::string name;    // e.g. "rocksdb.bloom"
  std::string filter;  // what the policy is, for the report
  std::shared_ptr<const rocksdb::FilterPolicy> policy;
};

// The tree's shape: memtables and L1 small enough that 10^7 keys spread over
// L0..L3 (a 10x fan-out from a 32 MB L1), as a store of a few hundred MB has.
constexpr int kRocksDbNumLevels = 7;
constexpr uint64_t kRocksDbLevel1Bytes = 32ull << 20;
constexpr int kRocksDbFanOut = 10;

// Builds, measures and removes one database under shape.dir.
absl::StatusOr<DbResult> RunRocksDb(const RocksDbConfig& config,
                                    const DbShape& shape,
                                    const Progress& progress);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_ROCKSDB_STORE_H_
