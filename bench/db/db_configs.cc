#include "bench/db/db_configs.h"

#include <algorithm>
#include <memory>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "filter/adapters/leveldb_adapter.h"
#include "filter/adapters/rocksdb_adapter.h"
#include "filter/adapters/rocksdb_per_level_policy.h"
#include "filter/bloom/bloom.h"
#include "filter/burr/burr.h"
#include "leveldb/filter_policy.h"
#include "rocksdb/filter_policy.h"

namespace sstfilter {
namespace bench {
namespace {

// RocksDB's Ribbon is sized by the Bloom bits/key whose rate it should match,
// and stores about 30% less. This setting gives it about kDbBitsPerKey of
// memory (the table's bits/key column shows what it took).
constexpr double kRibbonBloomEquivalentBitsPerKey = 14;
// Ribbon at every level, flushes included (RocksDB's default, 0, writes Bloom
// filters in flushes).
constexpr int kRibbonAtEveryLevel = -1;

// A policy of sstfilter at kDbBitsPerKey, shared.
absl::StatusOr<std::shared_ptr<const FilterPolicy>> SharedPolicy(
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> (*factory)(
        const FilterOptions&)) {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      factory(FilterOptions::BitsPerKey(kDbBitsPerKey));
  if (!policy.ok()) return policy.status();
  return std::shared_ptr<const FilterPolicy>(*std::move(policy));
}

}  // namespace

absl::StatusOr<DbConfigs> MakeDbConfigs() {
  absl::StatusOr<std::shared_ptr<const FilterPolicy>> native =
      SharedPolicy(NewBloomFilterPolicy);
  if (!native.ok()) return native.status();
  absl::StatusOr<std::shared_ptr<const FilterPolicy>> compact =
      SharedPolicy(NewBumpedRibbonFilterPolicy);
  if (!compact.ok()) return compact.status();
  const std::string native_text =
      absl::StrFormat("sstfilter NewBloomFilterPolicy(BitsPerKey(%g)) (%s)",
                      kDbBitsPerKey, (*native)->Name());

  DbConfigs configs;
  configs.rocksdb.push_back(
      {kRocksDbBloomConfig,
       absl::StrFormat("rocksdb::NewBloomFilterPolicy(%g): FastLocalBloom",
                       kDbBitsPerKey),
       std::shared_ptr<const rocksdb::FilterPolicy>(
           rocksdb::NewBloomFilterPolicy(kDbBitsPerKey))});
  configs.rocksdb.push_back(
      {"rocksdb.ribbon",
       absl::StrFormat(
           "rocksdb::NewRibbonFilterPolicy(%g, %d): Standard128Ribbon",
           kRibbonBloomEquivalentBitsPerKey, kRibbonAtEveryLevel),
       std::shared_ptr<const rocksdb::FilterPolicy>(
           rocksdb::NewRibbonFilterPolicy(kRibbonBloomEquivalentBitsPerKey,
                                          kRibbonAtEveryLevel))});
  configs.rocksdb.push_back({kUniformConfig,
                             "AsRocksDbFilterPolicy of " + native_text,
                             AsRocksDbFilterPolicy(*native)});
  configs.rocksdb.push_back({kPerLevelConfig, "", nullptr});
  for (const RocksDbConfig& config : configs.rocksdb) {
    if (config.policy != nullptr) configs.section_policies.push_back(config);
  }
  configs.section_policies.push_back(
      {kCompactConfig,
       absl::StrFormat("AsRocksDbFilterPolicy of sstfilter "
                       "NewBumpedRibbonFilterPolicy(BitsPerKey(%g)) (%s)",
                       kDbBitsPerKey, (*compact)->Name()),
       AsRocksDbFilterPolicy(*compact)});

  configs.leveldb.push_back(
      {"leveldb.bloom",
       absl::StrFormat("leveldb::NewBloomFilterPolicy(%g)", kDbBitsPerKey),
       std::unique_ptr<const leveldb::FilterPolicy>(
           leveldb::NewBloomFilterPolicy(static_cast<int>(kDbBitsPerKey)))});
  configs.leveldb.push_back({"leveldb+sstfilter.native",
                             "AsLevelDbFilterPolicy of " + native_text,
                             AsLevelDbFilterPolicy(*native)});
  return configs;
}

absl::StatusOr<RocksDbConfig> MakePerLevelConfig(const DbResult& uniform,
                                                 size_t value_bytes) {
  // The model is the full tree RocksDB's dynamic level sizes aim at: the last
  // level as the uniform run left it, each level above it a fan-out smaller.
  // Levels that happened to be empty when the uniform run ended get their
  // share all the same, since RocksDB writes tables there as the tree grows
  // and may move them down unchanged.
  //
  // L0 is modelled as it is while the database runs, not as it ends up:
  // flushed tables of one memtable each, kRocksDbRecentFlushes of them.
  std::vector<TreeLevel> tree(
      std::max<size_t>(1, uniform.entries_per_level.size()));
  double keys = uniform.entries_per_level.empty()
                    ? 1.0
                    : static_cast<double>(std::max<uint64_t>(
                          1, uniform.entries_per_level.back()));
  for (size_t i = tree.size(); i-- > 1;) {
    tree[i].keys = keys;
    keys /= kRocksDbFanOut;
  }
  tree[0].keys = static_cast<double>(RocksDbKeysPerFlush(value_bytes));
  tree[0].runs = kRocksDbRecentFlushes;

  absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> policy =
      NewRocksDbPerLevelFilterPolicy(tree, kDbBitsPerKey);
  if (!policy.ok()) return policy.status();
  absl::StatusOr<FilterAllocation> allocation =
      AllocateFilterBits(tree, kDbBitsPerKey, NativeBloomCost());
  std::string bits = "?";
  if (allocation.ok()) {
    std::vector<std::string> per_level;
    for (const LevelFilter& level : allocation->levels) {
      per_level.push_back(absl::StrFormat("%.1f", level.bits_per_key));
    }
    bits = absl::StrJoin(per_level, "/");
  }
  return RocksDbConfig{
      kPerLevelConfig,
      absl::StrFormat("NewRocksDbPerLevelFilterPolicy, %g bits/key over the "
                      "tree of %s (bits/key by level: %s)",
                      kDbBitsPerKey, kUniformConfig, bits),
      *std::move(policy)};
}

}  // namespace bench
}  // namespace sstfilter
