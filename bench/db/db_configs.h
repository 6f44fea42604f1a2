// The filter configurations db_bench compares, at about the same filter
// memory (10 bits/key).

#ifndef SSTFILTER_BENCH_DB_DB_CONFIGS_H_
#define SSTFILTER_BENCH_DB_DB_CONFIGS_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "bench/db/leveldb_store.h"
#include "bench/db/rocksdb_store.h"
#include "engines/tree/per_level_allocation.h"

namespace sstfilter {
namespace bench {

// The memory every configuration is given.
constexpr double kDbBitsPerKey = 10;

// Configurations are named as filter_bench names its rows: sstfilter's
// policies by their spec (filter/filter_spec.h), sized at kDbBitsPerKey when
// the spec gives no size, and the other libraries' filters as "lib:" peers.
constexpr char kUniformConfig[] = "bloom";
constexpr char kCompactConfig[] = "burr";
// The tree policies of engines/rocksdb (NewRocksDbTreeFilterPolicy), sized
// for the tree the uniform native filter's database ended up with
// (SizedFromTree): the native filter at a rate per level, and each level's
// family (native Bloom, compact filter or none) and rate.
constexpr char kPerLevelConfig[] = "bloom:levels=tree";
constexpr char kHybridConfig[] = "hybrid:levels=tree";
// rocksdb::NewBloomFilterPolicy, FastLocalBloom (bench/impls.h's baseline).
constexpr char kRocksDbBloomConfig[] = "lib:rocksdb.fastbloom";
// RocksDB's Ribbon at every level, and RocksDB's own hybrid (Bloom filters
// in L0 and flushes, Ribbon below: NewRibbonFilterPolicy(X, 1)), both sized
// to kRocksDbBloomConfig's filter memory.
constexpr char kRocksDbRibbonConfig[] = "lib:rocksdb.ribbon";
constexpr char kRocksDbRibbonHybridConfig[] = "lib:rocksdb.ribbon_hybrid";
// leveldb::NewBloomFilterPolicy.
constexpr char kLevelDbBloomConfig[] = "lib:leveldb.bloom";
// A database without a filter of the kind a section measures.
constexpr char kNoFilterConfig[] = "none";

// A configuration whose policy is made from the database another one built
// (`base`): sized for its tree, or to its filter memory.
struct SizedRocksDbConfig {
  std::string name;
  std::string base;
  std::function<absl::StatusOr<RocksDbConfig>(const DbResult& base,
                                              const DbShape& shape)>
      make;
};

// The configuration named by `spec`, a tree policy's spec (levels=tree), for
// the tree of its base's database (kUniformConfig's in the point section; the
// report names the base) at the spec's bits_per_key, or kDbBitsPerKey when it
// gives none: the last level as that run left it, each level above it
// kRocksDbFanOut times smaller, and L0 as kRocksDbRecentFlushes flushes of one
// memtable each. Every configuration builds the same tree shape, so any base's
// tree serves.
SizedRocksDbConfig SizedFromTree(std::string spec);

// The point section's RocksDB configurations made from another's database,
// in the order they run; each one's base is built before it. A policy sized
// from a tree is one more line here.
std::vector<SizedRocksDbConfig> SizedRocksDbConfigs();

struct DbConfigs {
  // The point section's, in the order they run: kRocksDbBloomConfig,
  // kUniformConfig, then those of `sized`, whose policies are null.
  std::vector<RocksDbConfig> rocksdb;
  // SizedRocksDbConfigs(), then the tree policies --filter named.
  std::vector<SizedRocksDbConfig> sized;
  std::vector<LevelDbConfig> leveldb;
  // The policies the partitioned-filter and prefix-seek sections compare,
  // named as above: RocksDB's Bloom and Ribbon, sstfilter's native filter
  // (kUniformConfig) and kCompactConfig.
  std::vector<RocksDbConfig> section_policies;
};

absl::StatusOr<DbConfigs> MakeDbConfigs();

// The point section's configurations of --filter: for each spec string
// (filter/filter_spec.h), a RocksDB and a LevelDB configuration named by the
// spec, the policy it names through AsRocksDbFilterPolicy and
// AsLevelDbFilterPolicy at the spec's own size; for a tree policy's spec
// (levels=tree), a RocksDB configuration sized from the tree (SizedFromTree).
// InvalidArgumentError, the parser's one line, for a malformed spec.
absl::Status AddSpecConfigs(absl::Span<const std::string> specs,
                            DbConfigs* configs);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_DB_CONFIGS_H_
