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
// the spec gives no size; the other libraries' filters as "lib:" peers; and
// the two tree policies of engines/rocksdb by a "tree." name.
constexpr char kUniformConfig[] = "bloom";
constexpr char kCompactConfig[] = "burr";
// NewRocksDbPerLevelFilterPolicy: the native filter at a rate per level, sized
// for the tree the uniform native filter's database ended up with
// (SizedFromTree).
constexpr char kPerLevelConfig[] = "tree.per_level";
// NewRocksDbHybridFilterPolicy: each level's family (native Bloom, compact
// filter or none) and rate chosen over the same tree as kPerLevelConfig.
constexpr char kHybridConfig[] = "tree.hybrid";
// rocksdb::NewBloomFilterPolicy, FastLocalBloom (bench/impls.h's baseline).
constexpr char kRocksDbBloomConfig[] = "lib:rocksdb.fastbloom";
// RocksDB's Ribbon at every level, and RocksDB's own hybrid (Bloom filters
// in L0 and flushes, Ribbon below: NewRibbonFilterPolicy(X, 1)), both sized
// to kRocksDbBloomConfig's filter memory.
constexpr char kRocksDbRibbonConfig[] = "lib:rocksdb.ribbon";
constexpr char kRocksDbRibbonHybridConfig[] = "lib:rocksdb.ribbon_hybrid";
// What the tree policies' names start with.
constexpr char kTreePolicyPrefix[] = "tree.";
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

// A policy of sstfilter sized for a tree's shape at a budget in bits/key.
using TreePolicyFactory =
    std::function<absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>>(
        absl::Span<const TreeLevel> tree, double budget_bits_per_key)>;

// The configuration `name` of factory's policy (called `factory_name` in the
// report) at kDbBitsPerKey, for the tree of its base's database
// (kUniformConfig's in the point section; the report names the base): the
// last level as that run left it, each level above it kRocksDbFanOut times
// smaller, and L0 as kRocksDbRecentFlushes flushes of one memtable each. Every
// configuration builds the same tree shape, so any base's tree serves.
SizedRocksDbConfig SizedFromTree(std::string name, std::string factory_name,
                                 TreePolicyFactory factory);

// The point section's RocksDB configurations made from another's database,
// in the order they run; each one's base is built before it. A policy sized
// from a tree is one more line here.
std::vector<SizedRocksDbConfig> SizedRocksDbConfigs();

struct DbConfigs {
  // The point section's, in the order they run: kRocksDbBloomConfig,
  // kUniformConfig, then SizedRocksDbConfigs(), whose policies are null.
  std::vector<RocksDbConfig> rocksdb;
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
// AsLevelDbFilterPolicy at the spec's own size.
// InvalidArgumentError, the parser's one line, for a malformed spec.
absl::Status AddSpecConfigs(absl::Span<const std::string> specs,
                            DbConfigs* configs);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_DB_CONFIGS_H_
