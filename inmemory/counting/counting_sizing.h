// Sizing of the counting Bloom filter from the false-positive formula of its
// layout, and the probability that a counter saturates.
//
// A counter is nonzero exactly when a probe of a present key (or a saturated
// history, see counting_bloom.h) hit it, so the filter answers like a
// cache-local Bloom filter whose blocks hold 128 bits, one per counter:
// util/bloom_math.h's LocalBloomFpp with block_bits = 128 and "bits per key"
// = counters per key.
//
// Internal header: include inmemory/counting/counting_bloom.h instead.

#ifndef SSTFILTER_INMEMORY_COUNTING_COUNTING_SIZING_H_
#define SSTFILTER_INMEMORY_COUNTING_COUNTING_SIZING_H_

#include "absl/status/statusor.h"
#include "filter/filter_policy.h"

namespace sstfilter {
namespace counting_internal {

struct CountingSizing {
  double counters_per_key = 0.0;
  int num_probes = 0;
};

// False-positive rate of a large filter: keys per block Poisson with mean
// 128 / counters_per_key.
double LayoutFpp(double counters_per_key, int num_probes);

// The same for one block holding exactly num_keys keys.
double BlockFpp(double num_keys, int num_probes);

// The k in [kMinProbes, kMaxProbes] minimising LayoutFpp.
int OptimalProbes(double counters_per_key);

// From options.fpp: the smallest counters/key in [kMinBitsPerKey,
// kMaxBitsPerKey] whose optimal-k rate is at most fpp, with that k. From
// options.bits_per_key = c: c counters per key, the optimal k. Returns
// InvalidArgumentError naming the value for invalid options
// (ValidateFilterOptions) and for an fpp below what 100 counters/key reach.
absl::StatusOr<CountingSizing> SizeForOptions(const FilterOptions& options);

// P(a given counter receives at least `hits` increments) after adding keys at
// counters_per_key counters per key, each key making num_probes probes
// (independent, uniform, with replacement) in its block, keys per block
// Poisson with mean 128 / counters_per_key. hits = kSaturated gives the
// probability that a counter saturates. Computed exactly (compound Poisson,
// Panjer's recursion).
double CounterAtLeastProbability(double counters_per_key, int num_probes,
                                 int hits);

}  // namespace counting_internal
}  // namespace sstfilter

#endif  // SSTFILTER_INMEMORY_COUNTING_COUNTING_SIZING_H_
