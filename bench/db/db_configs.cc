#include "bench/db/db_configs.h"

#include <algorithm>
#include <memory>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "bench/db/ribbon_sizing.h"
#include "engines/leveldb/leveldb_adapter.h"
#include "engines/rocksdb/rocksdb_adapter.h"
#include "engines/rocksdb/rocksdb_tree_policy.h"
#include "filter/bloom/bloom.h"
#include "filter/burr/burr.h"
#include "filter/filter_spec.h"
#include "leveldb/filter_policy.h"
#include "rocksdb/filter_policy.h"

namespace sstfilter {
namespace bench {
namespace {

// RocksDB's Ribbon is sized by the Bloom bits/key whose rate it should match,
// and stores about 30% less. The partitioned-filter and prefix-seek sections
// give it this setting, about kDbBitsPerKey of memory (their tables show what
// it took); the point section sizes it to RocksDB's Bloom filter's memory in
// the tree it measures (ribbon_sizing.h).
constexpr double kSectionRibbonBloomEquivalentBitsPerKey = 14;
// Ribbon at every level, flushes included (RocksDB's default, 0, writes Bloom
// filters in flushes).
constexpr int kRibbonAtEveryLevel = -1;
// RocksDB's own hybrid: Bloom filters below level 1, that is in flushes and
// L0, whose tables live shortly; Ribbon from L1 down.
constexpr int kRibbonBelowL0 = 1;

// A policy of sstfilter at kDbBitsPerKey, shared.
absl::StatusOr<std::shared_ptr<const FilterPolicy>> SharedPolicy(
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> (*factory)(
        const FilterOptions&)) {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      factory(FilterOptions::BitsPerKey(kDbBitsPerKey));
  if (!policy.ok()) return policy.status();
  return std::shared_ptr<const FilterPolicy>(*std::move(policy));
}

// Sizes a spec that gives no size at kDbBitsPerKey; whether it gave one.
bool SizeIfUnsized(PolicySpec* spec) {
  if (spec->options.bits_per_key.has_value() || spec->options.fpp.has_value())
    return true;
  spec->options.bits_per_key = kDbBitsPerKey;
  return false;
}

}  // namespace

absl::StatusOr<DbConfigs> MakeDbConfigs() {
  absl::StatusOr<std::shared_ptr<const FilterPolicy>> native =
      SharedPolicy(NewBloomFilterPolicy);
  if (!native.ok()) return native.status();
  absl::StatusOr<std::shared_ptr<const FilterPolicy>> compact =
      SharedPolicy(NewBurrFilterPolicy);
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
  const RocksDbConfig section_ribbon = {
      kRocksDbRibbonConfig,
      absl::StrFormat(
          "rocksdb::NewRibbonFilterPolicy(%g, %d): Standard128Ribbon",
          kSectionRibbonBloomEquivalentBitsPerKey, kRibbonAtEveryLevel),
      std::shared_ptr<const rocksdb::FilterPolicy>(
          rocksdb::NewRibbonFilterPolicy(
              kSectionRibbonBloomEquivalentBitsPerKey, kRibbonAtEveryLevel))};
  const RocksDbConfig uniform = {kUniformConfig,
                                 "AsRocksDbFilterPolicy of " + native_text,
                                 AsRocksDbFilterPolicy(*native)};
  configs.section_policies = {configs.rocksdb[0], section_ribbon, uniform};
  // The sized configurations follow their bases.
  configs.rocksdb.push_back(uniform);
  configs.sized = SizedRocksDbConfigs();
  for (const SizedRocksDbConfig& sized : configs.sized) {
    configs.rocksdb.push_back({sized.name, "", nullptr});
  }
  configs.section_policies.push_back(
      {kCompactConfig,
       absl::StrFormat("AsRocksDbFilterPolicy of sstfilter "
                       "NewBurrFilterPolicy(BitsPerKey(%g)) (%s)",
                       kDbBitsPerKey, (*compact)->Name()),
       AsRocksDbFilterPolicy(*compact)});

  configs.leveldb.push_back(
      {kLevelDbBloomConfig,
       absl::StrFormat("leveldb::NewBloomFilterPolicy(%g)", kDbBitsPerKey),
       std::unique_ptr<const leveldb::FilterPolicy>(
           leveldb::NewBloomFilterPolicy(static_cast<int>(kDbBitsPerKey)))});
  configs.leveldb.push_back({kUniformConfig,
                             "AsLevelDbFilterPolicy of " + native_text,
                             AsLevelDbFilterPolicy(*native)});
  return configs;
}

absl::Status AddSpecConfigs(absl::Span<const std::string> specs,
                            DbConfigs* configs) {
  for (const std::string& spec : specs) {
    absl::StatusOr<PolicySpec> parsed =
        ParsePolicySpec(spec, SpecSize::kOptional);
    if (!parsed.ok()) return parsed.status();
    if (NamesTreePolicy(*parsed)) {
      // Refused now rather than once its base's database is built.
      SizeIfUnsized(&*parsed);
      absl::StatusOr<std::vector<TreeLevel>> tree =
          LeveledTree(/*num_levels=*/2, kRocksDbFanOut);
      if (!tree.ok()) return tree.status();
      absl::Status valid =
          NewRocksDbTreeFilterPolicy(parsed->ToString(), *tree).status();
      if (!valid.ok()) return valid;
      configs->sized.push_back(SizedFromTree(spec));
      configs->rocksdb.push_back({spec, "", nullptr});
      continue;
    }
    const bool sized = SizeIfUnsized(&*parsed);
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> made =
        NewFilterPolicyFromSpec(*parsed);
    if (!made.ok()) return made.status();
    const std::shared_ptr<const FilterPolicy> policy = *std::move(made);
    const std::string text = absl::StrFormat(
        "sstfilter policy %s (%s), --filter%s", policy->ToString(),
        policy->Name(), sized ? "" : ", sized at the run's bits/key");
    configs->rocksdb.push_back({spec, "AsRocksDbFilterPolicy of " + text,
                                AsRocksDbFilterPolicy(policy)});
    configs->leveldb.push_back({spec, "AsLevelDbFilterPolicy of " + text,
                                AsLevelDbFilterPolicy(policy)});
  }
  return absl::OkStatus();
}

namespace {

// Mean keys per table of a database's tree.
uint64_t KeysPerTable(const DbResult& built) {
  uint64_t keys = 0;
  uint64_t tables = 0;
  for (size_t i = 0; i < built.files_per_level.size(); ++i) {
    keys += built.entries_per_level[i];
    tables += static_cast<uint64_t>(built.files_per_level[i]);
  }
  return tables == 0 ? 1 : std::max<uint64_t>(1, keys / tables);
}

// RocksDB's Ribbon with Bloom filters below level bloom_before_level, at the
// Bloom-equivalent bits/key that stores as many bytes as `bloom`'s filters
// in a table of its mean size.
absl::StatusOr<RocksDbConfig> RibbonAtBloomMemory(const char* name,
                                                  int bloom_before_level,
                                                  const DbResult& bloom) {
  const uint64_t keys_per_table = KeysPerTable(bloom);
  absl::StatusOr<double> bits =
      RibbonBitsForBloomMemory(kDbBitsPerKey, keys_per_table);
  if (!bits.ok()) return bits.status();
  return RocksDbConfig{
      name,
      absl::StrFormat("rocksdb::NewRibbonFilterPolicy(%.3f, %d): %s; %.3f "
                      "stores what NewBloomFilterPolicy(%g) does in a table "
                      "of %d keys, %s's mean",
                      *bits, bloom_before_level,
                      bloom_before_level == kRibbonAtEveryLevel
                          ? "Standard128Ribbon at every level"
                          : "FastLocalBloom in flushes and L0, "
                            "Standard128Ribbon below",
                      *bits, kDbBitsPerKey, keys_per_table, bloom.config),
      std::shared_ptr<const rocksdb::FilterPolicy>(
          rocksdb::NewRibbonFilterPolicy(*bits, bloom_before_level))};
}

// The tree a per-level policy is sized for. The model is the full tree
// RocksDB's dynamic level sizes aim at: the last level as the uniform run
// left it, each level above it a fan-out smaller. Levels that happened to be
// empty when the uniform run ended get their share all the same, since
// RocksDB writes tables there as the tree grows and may move them down
// unchanged.
//
// L0 is modelled as it is while the database runs, not as it ends up:
// flushed tables of one memtable each, kRocksDbRecentFlushes of them.
std::vector<TreeLevel> ModelTree(const DbResult& uniform,
                                 const DbShape& shape) {
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
  tree[0].keys = static_cast<double>(RocksDbKeysPerFlush(shape));
  tree[0].runs = kRocksDbRecentFlushes;
  return tree;
}

}  // namespace

SizedRocksDbConfig SizedFromTree(std::string spec) {
  SizedRocksDbConfig sized;
  sized.name = spec;
  sized.base = kUniformConfig;
  sized.make = [spec](const DbResult& uniform,
                      const DbShape& shape) -> absl::StatusOr<RocksDbConfig> {
    absl::StatusOr<PolicySpec> parsed =
        ParsePolicySpec(spec, SpecSize::kOptional);
    if (!parsed.ok()) return parsed.status();
    SizeIfUnsized(&*parsed);
    const std::vector<TreeLevel> tree = ModelTree(uniform, shape);
    absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> policy =
        NewRocksDbTreeFilterPolicy(parsed->ToString(), tree);
    if (!policy.ok()) return policy.status();
    std::vector<std::string> keys;
    for (const TreeLevel& level : tree) {
      keys.push_back(absl::StrFormat("%.0f", level.keys));
    }
    return RocksDbConfig{
        spec,
        absl::StrFormat("NewRocksDbTreeFilterPolicy(\"%s\") over the tree of "
                        "%s (keys by level from L0: %s; L0 as %d runs)",
                        parsed->ToString(), uniform.config,
                        absl::StrJoin(keys, "/"), kRocksDbRecentFlushes),
        *std::move(policy)};
  };
  return sized;
}

std::vector<SizedRocksDbConfig> SizedRocksDbConfigs() {
  return {
      {kRocksDbRibbonConfig, kRocksDbBloomConfig,
       [](const DbResult& bloom, const DbShape&) {
         return RibbonAtBloomMemory(kRocksDbRibbonConfig, kRibbonAtEveryLevel,
                                    bloom);
       }},
      {kRocksDbRibbonHybridConfig, kRocksDbBloomConfig,
       [](const DbResult& bloom, const DbShape&) {
         return RibbonAtBloomMemory(kRocksDbRibbonHybridConfig, kRibbonBelowL0,
                                    bloom);
       }},
      SizedFromTree(kPerLevelConfig),
      SizedFromTree(kHybridConfig),
  };
}

}  // namespace bench
}  // namespace sstfilter
