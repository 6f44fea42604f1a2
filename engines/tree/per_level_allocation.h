// How many filter bits each level of an LSM tree should get, for a memory
// budget over the whole tree (Monkey: Dayan, Athanassoulis and Idreos,
// "Monkey: Optimal Navigable Key-Value Store", SIGMOD 2017): each level's
// rate proportional to the keys in each of its runs, so the largest levels
// get the fewest bits/key. The derivation and the runs of L0: README.md.
//
//   absl::StatusOr<std::vector<sstfilter::TreeLevel>> tree =
//       sstfilter::LeveledTree(7, 10);
//   absl::StatusOr<sstfilter::FilterAllocation> monkey =
//       sstfilter::AllocateFilterBits(*tree, 10, sstfilter::NativeBloomCost());

#ifndef SSTFILTER_ENGINES_TREE_PER_LEVEL_ALLOCATION_H_
#define SSTFILTER_ENGINES_TREE_PER_LEVEL_ALLOCATION_H_

#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace sstfilter {

// One level of the tree. Only the ratios of keys between levels matter, so
// any unit will do (keys, bytes of equally sized entries, fan-out powers).
struct TreeLevel {
  double keys = 0.0;  // > 0: the level's share of the tree
  int runs = 1;       // >= 1: sorted runs a lookup probes (L0: its files)
};

// num_levels levels, each fan_out times the keys of the one above it, one run
// each: the shape of a leveled tree (level 0 is the smallest). InvalidArgument
// for num_levels outside [1, 64] or fan_out not in [1, 1e6].
absl::StatusOr<std::vector<TreeLevel>> LeveledTree(int num_levels,
                                                   double fan_out);

// What a filter family charges for a false-positive rate.
struct FilterCost {
  // Bits per key of the filter built for rate fpp.
  // REQUIRES: min_fpp <= fpp <= max_fpp. Non-increasing in fpp.
  std::function<double(double fpp)> bits_per_key;
  double min_fpp = 0.0;  // the rate of the family's largest filter
  double max_fpp = 0.0;  // the rate of its smallest filter
};

// The native filter (NewBloomFilterPolicy, filter/bloom/bloom.h): the
// bits/key the policy chooses for FilterOptions::Fpp(p), between 1 and 100
// bits/key, without the fixed trailer of either format version. Computed once;
// the reference lives as long as the program.
const FilterCost& NativeBloomCost();

// The standard Bloom filter's closed form, c = ln(1/p) / (ln 2)^2, between 1
// and 100 bits/key: the cost under which p_i proportional to n_i / r_i is
// exactly optimal.
const FilterCost& StandardBloomCost();

struct LevelFilter {
  double fpp = 1.0;           // the level's rate; 1 when it has no filter
  double bits_per_key = 0.0;  // the filter's size; 0 when there is none
};

struct FilterAllocation {
  std::vector<LevelFilter> levels;  // one per TreeLevel, in the same order
  double bits_per_key = 0.0;    // spent: sum n_i c_i / sum n_i (<= the budget)
  double expected_reads = 0.0;  // sum r_i p_i: table reads of an absent key
};

// Monkey's allocation of budget_bits_per_key (averaged over every key of the
// tree) under cost. Spends the whole budget (within a relative 1e-6, never
// more) unless every filtered level already has the cost's largest filter.
// Cost: a few dozen evaluations of cost.bits_per_key per level
// (docs/in_databases.md gives the time for seven levels of the native cost);
// compute it once per tree. Each level gets no filter (fpp 1) or one between
// the cost's smallest and largest; with too small a budget the largest levels
// (by keys per run) go without first. InvalidArgumentError naming the value
// for an empty tree, a level without keys, or a budget that is not a number
// in [0, kMaxBitsPerKey].
absl::StatusOr<FilterAllocation> AllocateFilterBits(
    absl::Span<const TreeLevel> tree, double budget_bits_per_key,
    const FilterCost& cost);

// The baseline: budget_bits_per_key at every level. A budget of 0 gives no
// filters; one between 0 and the cost's smallest filter, or above its
// largest, cannot be spent this way and is an InvalidArgumentError.
absl::StatusOr<FilterAllocation> UniformFilterBits(
    absl::Span<const TreeLevel> tree, double budget_bits_per_key,
    const FilterCost& cost);

}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_TREE_PER_LEVEL_ALLOCATION_H_
