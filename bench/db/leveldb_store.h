// db_bench's LevelDB 1.23 runs: build a database of DbShape's keys with a
// filter policy, wait for its compactions, reopen it, and time point lookups.

#ifndef SSTFILTER_BENCH_DB_LEVELDB_STORE_H_
#define SSTFILTER_BENCH_DB_LEVELDB_STORE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "bench/db/db_store.h"
#include "leveldb/filter_policy.h"

namespace sstfilter {
namespace bench {

struct LevelDbConfig {
  std::string name;    // e.g. "leveldb.bloom"
  std::string filter;  // what the policy is, for the report
  std::unique_ptr<const leveldb::FilterPolicy> policy;
};

// Builds, measures and removes one database under shape.dir.
absl::StatusOr<DbResult> RunLevelDb(const LevelDbConfig& config,
                                    const DbShape& shape,
                                    const Progress& progress);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_LEVELDB_STORE_H_
