// The filter configurations db_bench compares, at about the same filter
// memory (10 bits/key).

#ifndef SSTFILTER_BENCH_DB_DB_CONFIGS_H_
#define SSTFILTER_BENCH_DB_DB_CONFIGS_H_

#include <vector>

#include "absl/status/statusor.h"
#include "bench/db/leveldb_store.h"
#include "bench/db/rocksdb_store.h"

namespace sstfilter {
namespace bench {

// The memory every configuration is given.
constexpr double kDbBitsPerKey = 10;

struct DbConfigs {
  std::vector<RocksDbConfig> rocksdb;
  std::vector<LevelDbConfig> leveldb;
};

absl::StatusOr<DbConfigs> MakeDbConfigs();

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_DB_CONFIGS_H_
