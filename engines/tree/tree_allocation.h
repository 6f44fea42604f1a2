// Which filter family, and which false-positive rate, each level of an LSM
// tree should get for a memory budget over the whole tree: Monkey's per-level
// rates (per_level_allocation.h) chosen together with the family that stores
// a key in the fewest bits at that rate, the native Bloom filter or the
// compact filter, or no filter at all. Why the result is optimal: README.md.
//
//   absl::StatusOr<std::vector<sstfilter::TreeLevel>> tree =
//       sstfilter::LeveledTree(7, 10);
//   absl::StatusOr<sstfilter::TreeAllocation> best =
//       sstfilter::AllocateTreeFilters(*tree, 10, {});

#ifndef SSTFILTER_ENGINES_TREE_TREE_ALLOCATION_H_
#define SSTFILTER_ENGINES_TREE_TREE_ALLOCATION_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "engines/tree/per_level_allocation.h"
#include "filter/filter_family.h"

namespace sstfilter {

// The compact filter (NewBurrFilterPolicy, filter/burr/burr.h): the
// bits/key the policy chooses for FilterOptions::Fpp(p), between 1
// (p = 1/2) and 30 solution columns. Computed once.
const FilterCost& CompactFilterCost();

struct TreeAllocationOptions {
  // Levels 0 .. bloom_before_level - 1 get the native filter or none (for
  // write paths that cannot afford the compact build where tables live
  // shortly, as RocksDB's NewRibbonFilterPolicy(bits, bloom_before_level)).
  int bloom_before_level = 0;
};

struct LevelChoice {
  FilterFamily family = FilterFamily::kNone;
  double fpp = 1.0;           // 1 when the level has no filter
  double bits_per_key = 0.0;  // the family's cost at fpp; 0 for none
};

struct TreeAllocation {
  std::vector<LevelChoice> levels;  // one per TreeLevel, in the same order
  double bits_per_key = 0.0;        // spent over the tree (<= the budget)
  double expected_reads = 0.0;      // sum r_i p_i
};

// The allocation of budget_bits_per_key over tree with the families' real
// costs (NativeBloomCost, CompactFilterCost). Spends the budget to within a
// relative 1e-6 (never more) unless every filtered level already has its
// family's largest filter. Cost: mostly tabulating the two costs on first
// use (docs/in_databases.md gives the time); compute it once per tree.
// InvalidArgumentError naming the value for an empty tree, a level without
// keys, a budget that is not a number in [0, kMaxBitsPerKey], or a negative
// bloom_before_level.
absl::StatusOr<TreeAllocation> AllocateTreeFilters(
    absl::Span<const TreeLevel> tree, double budget_bits_per_key,
    const TreeAllocationOptions& options);

// The same with explicit costs of the two families (tests, other costs).
absl::StatusOr<TreeAllocation> AllocateTreeFilters(
    absl::Span<const TreeLevel> tree, double budget_bits_per_key,
    const TreeAllocationOptions& options, const FilterCost& native,
    const FilterCost& compact);

}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_TREE_TREE_ALLOCATION_H_
