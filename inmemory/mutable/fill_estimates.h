// What the fill of a block-local Bloom filter says about it: how many distinct
// keys it holds and how often it matches an absent key. The filter is
// num_blocks regular blocks of kBlockBits bits, every key's k probes in one
// block chosen uniformly (the native layout, filter/bloom/bloom_format.h).
//
// Internal header of inmemory/mutable.

#ifndef SSTFILTER_INMEMORY_MUTABLE_FILL_ESTIMATES_H_
#define SSTFILTER_INMEMORY_MUTABLE_FILL_ESTIMATES_H_

#include <array>
#include <cstdint>

#include "filter/bloom/bloom_format.h"

namespace sstfilter {
namespace mutable_internal {

// blocks[x] = the number of blocks with exactly x bits set.
struct FillHistogram {
  std::array<uint64_t, bloom::kBlockBits + 1> blocks = {};

  uint64_t NumBlocks() const;
  uint64_t BitsSet() const;
};

// Distinct keys estimated from the number of bits set: the n at which the
// expected fill equals bits_set. Guava's approximateElementCount inverts the
// fill of a standard filter, X = m (1 - e^(-k n / m)), into
// n = -(m / k) ln(1 - X / m). In this layout a block's key count j is Poisson
// with mean n / num_blocks and a block keeps a bit clear with probability
// (1 - 1/512)^(k j), so E[X] = m (1 - e^(-n q / num_blocks)) with
// q = 1 - (1 - 1/512)^k, and
//   n = -(num_blocks / q) ln(1 - X / m).
// q is a little less than k / 512 (probes of a block's keys collide more than
// probes spread over m bits): Guava's formula here would read low by a factor
// 512 q / k, -0.49% at k = 6 and -0.78% at k = 9 (mutable_bloom_test.cc
// measures both). A saturated filter (every bit set) gives the n at which half
// a bit would be expected to stay clear: a lower bound. REQUIRES: num_blocks >
// 0, bits_set <= num_blocks * kBlockBits, k >= 1.
double EstimateKeys(uint64_t bits_set, uint64_t num_blocks, int k);

// The false-positive rate of the filter as it is: a query lands in a block
// uniformly and its k independent probes all find set bits with probability
// (x / 512)^k in a block of x set bits, so the rate is the mean of that over
// the blocks. Exact for this filter's bits (no model of how they were set),
// and so higher than (X / m)^k, which ignores that fuller blocks match more.
// REQUIRES: fill.NumBlocks() > 0, 1 <= k <= kMaxProbes.
double FppFromFill(const FillHistogram& fill, int k);

}  // namespace mutable_internal
}  // namespace sstfilter

#endif  // SSTFILTER_INMEMORY_MUTABLE_FILL_ESTIMATES_H_
