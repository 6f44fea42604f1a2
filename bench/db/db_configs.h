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

// The per-level policy is sized for the tree the uniform native filter's
// database ended up with: its keys per level, and L0's files as runs.
constexpr char kUniformConfig[] = "sstfilter.native";
constexpr char kPerLevelConfig[] = "sstfilter.per_level";
// sstfilter's compact filter, the bumped Ribbon (filter/burr/burr.h).
constexpr char kCompactConfig[] = "sstfilter.burr";
constexpr char kRocksDbBloomConfig[] = "rocksdb.bloom";

struct DbConfigs {
  std::vector<RocksDbConfig> rocksdb;  // kPerLevelConfig's policy is null
  std::vector<LevelDbConfig> leveldb;
  // The policies the partitioned-filter and prefix-seek sections compare,
  // named as above: RocksDB's Bloom and Ribbon, sstfilter's native filter
  // (kUniformConfig) and kCompactConfig.
  std::vector<RocksDbConfig> section_policies;
};

absl::StatusOr<DbConfigs> MakeDbConfigs();

// The per-level policy for the tree of `uniform` (kUniformConfig's result).
absl::StatusOr<RocksDbConfig> MakePerLevelConfig(const DbResult& uniform,
                                                 size_t value_bytes);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_DB_CONFIGS_H_
