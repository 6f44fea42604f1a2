// Which filter family, and which false-positive rate, each level of an LSM
// tree should get for a memory budget over the whole tree: Monkey's per-level
// rates (engines/tree/per_level_allocation.h) chosen together with the family
// that stores a key in the fewest bits at that rate, the native Bloom filter or
// the compact filter, or no filter at all.
//
// A lookup for a key the tree does not hold reads a data block for each false
// positive: sum_i r_i p_i, r_i the runs of level i and p_i their rate. The
// memory is sum_i n_i c_{f_i}(p_i) for level i's family f_i, whose cost
// c_f(p) is the bits/key the family's own sizing chooses for rate p
// (NativeBloomCost, CompactFilterCost). Each cost is close to affine in
// ln(1/p): c_f(p) ~ a_f ln(1/p) + b_f, a_f the bits one more factor e of
// accuracy takes (about 2.1 for the native filter, 1.46 for the compact one).
//
// Why the result is optimal (to within the costs' departure from affine):
//  - For a fixed family per level the problem is Monkey's with per-level
//    slopes: minimising sum r_i p_i + lambda sum n_i c_{f_i}(p_i) gives
//    p_i = lambda a_{f_i} n_i / r_i (clamped to the family's range), and one
//    lambda, found by root finding, spends the budget exactly. The rates are
//    re-solved with each level's local slope at its rate, so that the
//    stationarity condition r_i p_i = lambda n_i |dc/d ln p| holds with the
//    real cost. With costs convex in ln p the objective is convex and the
//    budget a convex set, so this stationary point is the optimum for those
//    families.
//  - Families are discrete: the allocation starts from every level on its
//    cheapest-per-bit family and from every level on the native filter, and
//    moves one level at a time to another family (or none) while that lowers
//    the expected reads with the rates re-solved; the best of the starts is
//    kept. tree_allocation_test.cc compares it with brute force over every
//    assignment of families and a grid of rates on small trees: within 0.5%
//    of the fewest reads (0.2% measured; the native filter's cost has kinks
//    where its probe count changes, which the slopes smooth over).
//
// Options: levels above bloom_before_level (0 .. bloom_before_level - 1) may
// only get the native filter or none, for write paths that cannot afford the
// compact filter's build where tables live shortly (flushes, L0), as
// RocksDB's NewRibbonFilterPolicy(bits, bloom_before_level) does.
//
// Example:
//
//   absl::StatusOr<std::vector<sstfilter::TreeLevel>> tree =
//       sstfilter::LeveledTree(7, 10);
//   absl::StatusOr<sstfilter::TreeAllocation> best =
//       sstfilter::AllocateTreeFilters(*tree, 10, {});
//   // Every level gets the compact filter: the largest at 9.62 bits/key
//   // (p = 0.144%), the next 13.0 (0.0135%), ..., the smallest 29.7
//   // (1.5e-9). best->expected_reads: 0.00159 table reads, against 0.0140
//   // for Monkey with the native filter alone (per_level_allocation.h).
//
// Invalid input (an empty tree, a level without keys, a budget that is not a
// number in [0, kMaxBitsPerKey], a negative bloom_before_level) is an
// InvalidArgumentError naming the value.

#ifndef SSTFILTER_ENGINES_TREE_TREE_ALLOCATION_H_
#define SSTFILTER_ENGINES_TREE_TREE_ALLOCATION_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "engines/tree/per_level_allocation.h"
#include "filter/filter_family.h"

namespace sstfilter {

// The compact filter (NewBumpedRibbonFilterPolicy, filter/burr/burr.h): the
// bits/key the policy chooses for FilterOptions::Fpp(p), between 1
// (p = 1/2) and 30 solution columns. Computed once.
const FilterCost& CompactFilterCost();

struct TreeAllocationOptions {
  // Levels 0 .. bloom_before_level - 1 get the native filter or none.
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
