// Sizing of the native Bloom filter from the false-positive formula of its own
// layout (k probes in one 512-bit block, util/bloom_math.h LocalBloomFpp): for
// the layers that size filters of the same layout (mutable, scalable, Redis,
// the tree engine's per-level allocation).
//
//   absl::StatusOr<bloom::BloomSizing> sizing = bloom::SizeForFpp(0.01);

#ifndef SSTFILTER_FILTER_BLOOM_BLOOM_SIZING_H_
#define SSTFILTER_FILTER_BLOOM_BLOOM_SIZING_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "filter/bloom/bloom_format.h"
#include "filter/filter_policy.h"

namespace sstfilter {
namespace bloom {

// Bits per key and probes per key of a filter.
struct BloomSizing {
  double bits_per_key = 0.0;
  int num_probes = 0;
};

// Returns the false-positive rate of a large filter of this layout: every block
// regular, keys per block Poisson with mean kBlockBits / bits_per_key.
double LayoutFpp(double bits_per_key, int num_probes);

// Returns the k in [kMinProbes, kMaxProbes] minimising LayoutFpp(bits_per_key,
// k).
int OptimalProbes(double bits_per_key);

// Returns the smallest bits/key in [kMinBitsPerKey, kMaxBitsPerKey] whose
// optimal-k LayoutFpp is at most fpp (kMinBitsPerKey when even that beats fpp),
// with its optimal k. Returns InvalidArgumentError when fpp is below what
// kMaxBitsPerKey reaches.
absl::StatusOr<BloomSizing> SizeForFpp(double fpp);

// Returns bits_per_key as given, with k = OptimalProbes(bits_per_key).
BloomSizing SizeForBitsPerKey(double bits_per_key);

// Returns SizeForFpp or SizeForBitsPerKey, whichever field of options is set.
// REQUIRES: ValidateFilterOptions(options) is OK.
absl::StatusOr<BloomSizing> SizeForOptions(const FilterOptions& options);

// Returns the body bytes for num_keys keys: ceil(num_keys * bits_per_key / 8),
// 0 for no keys.
uint64_t BodyBytes(uint64_t num_keys, double bits_per_key);

}  // namespace bloom

namespace bloom_internal {

// The public sizing, under the names this package's own code uses.
using bloom::BloomSizing;
using bloom::BodyBytes;
using bloom::LayoutFpp;
using bloom::OptimalProbes;
using bloom::SizeForBitsPerKey;
using bloom::SizeForFpp;
using bloom::SizeForOptions;

// Expected false-positive rate of one filter: a single-block filter holds
// exactly num_keys keys; otherwise each block's rate is weighted by its share
// of the body's bits (which is its share of keys and of queries), keys per
// block Poisson. REQUIRES: num_keys > 0.
double FilterFpp(const BodyLayout& layout, uint64_t num_keys, int num_probes);

}  // namespace bloom_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BLOOM_BLOOM_SIZING_H_
