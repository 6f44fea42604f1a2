// The hybrid policy: one adapted hybrid policy per level of the tree, in the
// family and at the rate the tree allocation chose, and one for files whose
// level is unknown (see rocksdb_hybrid_policy.h).

#include "engines/rocksdb/rocksdb_hybrid_policy.h"

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "engines/rocksdb/level_policy.h"
#include "engines/rocksdb/rocksdb_adapter.h"
#include "filter/filter_policy.h"

namespace sstfilter {
namespace {

using RocksDbPolicyPtr = std::shared_ptr<const rocksdb::FilterPolicy>;

// The hybrid policy building `family` at `filter_options`, adapted; null (no
// filter) for kNone.
absl::StatusOr<RocksDbPolicyPtr> HybridAt(FilterFamily family,
                                          const FilterOptions& filter_options,
                                          const HybridTreeOptions& options) {
  if (family == FilterFamily::kNone) return RocksDbPolicyPtr();
  HybridOptions hybrid;
  hybrid.family = family;
  hybrid.max_build_bytes = options.max_build_bytes;
  hybrid.counters = options.counters;
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      NewHybridFilterPolicy(filter_options, hybrid);
  if (!policy.ok()) return policy.status();
  return AsRocksDbFilterPolicy(std::move(*policy));
}

}  // namespace

absl::StatusOr<TreeAllocation> HybridTreeAllocation(
    absl::Span<const TreeLevel> tree, double budget_bits_per_key,
    const HybridTreeOptions& options) {
  return AllocateTreeFilters(tree, budget_bits_per_key, options);
}

absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>>
NewRocksDbHybridFilterPolicy(absl::Span<const TreeLevel> tree,
                             double budget_bits_per_key,
                             const HybridTreeOptions& options) {
  absl::StatusOr<TreeAllocation> allocation =
      HybridTreeAllocation(tree, budget_bits_per_key, options);
  if (!allocation.ok()) return allocation.status();

  std::vector<RocksDbPolicyPtr> levels;
  for (const LevelChoice& level : allocation->levels) {
    absl::StatusOr<RocksDbPolicyPtr> policy =
        HybridAt(level.family, FilterOptions::Fpp(level.fpp), options);
    if (!policy.ok()) return policy.status();
    levels.push_back(*std::move(policy));
  }
  // A file of unknown level: the last level's family at the uniform budget;
  // a budget below the smallest filter buys none.
  const bool affordable = budget_bits_per_key >= kMinBitsPerKey;
  FilterFamily unknown_family =
      affordable ? allocation->levels.back().family : FilterFamily::kNone;
  if (unknown_family == FilterFamily::kNone && affordable) {
    unknown_family = FilterFamily::kNative;
  }
  absl::StatusOr<RocksDbPolicyPtr> unknown_level = HybridAt(
      unknown_family, FilterOptions::BitsPerKey(budget_bits_per_key), options);
  if (!unknown_level.ok()) return unknown_level.status();
  // Any hybrid policy reads every hybrid filter.
  absl::StatusOr<RocksDbPolicyPtr> reader =
      HybridAt(FilterFamily::kNative, FilterOptions::BitsPerKey(10), {});
  if (!reader.ok()) return reader.status();
  return NewLevelPolicy(std::move(levels), *std::move(unknown_level),
                        *std::move(reader));
}

}  // namespace sstfilter
