// How many filter bits each level of an LSM tree should get, for a memory
// budget over the whole tree (Monkey: Dayan, Athanassoulis and Idreos,
// "Monkey: Optimal Navigable Key-Value Store", SIGMOD 2017).
//
// A lookup for a key the tree does not hold asks one filter in every sorted
// run and reads a data block for each false positive: it costs
// sum_i r_i p_i table reads, r_i the runs in level i and p_i their rate. With
// the same bits/key everywhere, most of the memory sits in the largest level,
// where it buys the same rate as a few bits do in a small level. Minimising
// sum_i r_i p_i subject to sum_i n_i c(p_i) = budget * sum_i n_i, for the
// standard Bloom cost c(p) = ln(1/p) / (ln 2)^2 bits/key, gives (Lagrange)
//   p_i = lambda * n_i / r_i,   capped at 1 (no filter),
// each level's rate proportional to the keys in each of its runs: the largest
// levels get the highest rates and the fewest bits/key.
//
// AllocateFilterBits takes that form with the real price of a rate
// (FilterCost; for the native filter, the bits/key NewBloomFilterPolicy
// chooses for FilterOptions::Fpp(p)) and finds lambda by a bracketed search
// (regula falsi, bisection's safe cousin), so that
// the budget is spent exactly. A level gets either no filter (p = 1) or a
// filter between the cost's smallest and largest sizes (1 and 100 bits/key for
// the native filter). Which levels go without is chosen by expected reads:
// with a budget too small to give every level the smallest filter, the
// largest levels (by keys per run) drop theirs first.
//
// Runs: under leveling every level but L0 is one sorted run. RocksDB's L0
// holds each flushed file as its own run (up to
// level0_file_num_compaction_trigger of them), so a tree that models L0 says
// so with TreeLevel::runs; its rate is then proportional to the keys of one
// file, and its expected reads count every file.
//
// Example: a 7-level tree with fan-out 10 at 10 bits/key:
//
//   absl::StatusOr<std::vector<sstfilter::TreeLevel>> tree =
//       sstfilter::LeveledTree(7, 10);
//   absl::StatusOr<sstfilter::FilterAllocation> monkey =
//       sstfilter::AllocateFilterBits(*tree, 10, sstfilter::NativeBloomCost());
//   absl::StatusOr<sstfilter::FilterAllocation> uniform =
//       sstfilter::UniformFilterBits(*tree, 10, sstfilter::NativeBloomCost());
//   // monkey->expected_reads: 0.0140 table reads; uniform: 0.0677.
//   // The largest level gets 9.37 bits/key (p = 1.26%), the next 14.9
//   // (0.126%), ..., the smallest 62.0 (1.26e-8): each rate a tenth of the
//   // next. Moving bits between levels from there gains at most 0.03%.
//
// Invalid input (an empty tree, a level without keys, a budget that is not a
// number in [0, kMaxBitsPerKey]) is an InvalidArgumentError naming the value.

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
  int runs = 1;       // >= 1: sorted runs a lookup probes in this level
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
// compute it once per tree.
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
