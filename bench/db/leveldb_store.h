// db_bench's LevelDB 1.23 databases: one per filter configuration, built
// from DbShape's keys and reopened for lookups.

#ifndef SSTFILTER_BENCH_DB_LEVELDB_STORE_H_
#define SSTFILTER_BENCH_DB_LEVELDB_STORE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "bench/db/db_store.h"
#include "bench/db/lookups.h"
#include "leveldb/filter_policy.h"

namespace sstfilter {
namespace bench {

struct LevelDbConfig {
  std::string name;    // e.g. "lib:leveldb.bloom" (db_configs.h)
  std::string filter;  // what the policy is, for the report
  std::unique_ptr<const leveldb::FilterPolicy> policy;
};

// Builds one database under shape.dir, waits for its compactions and
// reopens it. The database is removed when the OpenDb goes.
absl::StatusOr<std::unique_ptr<OpenDb>> BuildLevelDb(
    const LevelDbConfig& config, const DbShape& shape,
    const Progress& progress);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_LEVELDB_STORE_H_
