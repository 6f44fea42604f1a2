// Sizing and false-positive terms specific to the peers' formats, beside the
// Bloom math of util/bloom_math.h.

#ifndef SSTFILTER_BENCH_FPP_MATH_H_
#define SSTFILTER_BENCH_FPP_MATH_H_

#include <cmath>
#include <cstddef>

#include "filter/filter_policy.h"
#include "util/bloom_math.h"

namespace sstfilter {
namespace bench {

// A filter probed from one 32-bit key hash (LevelDB, RocksDB's legacy Bloom)
// also matches an absent key whose hash equals an added key's: probability
// about 1 - e^(-n / 2^32), 2.3% at 10^8 keys. Returns fpp combined with that
// chance.
inline double WithHash32Collisions(double fpp, size_t num_keys) {
  const double collide =
      -std::expm1(-static_cast<double>(num_keys) / 4294967296.0);
  return fpp + (1.0 - fpp) * collide;
}

// Bits/key for a peer that is sized in bits/key only (LevelDB, RocksDB): the
// configured value, or for an fpp the standard Bloom size -ln p / (ln 2)^2.
// REQUIRES: ValidateFilterOptions(options) is OK.
inline double PeerBitsPerKey(const FilterOptions& options) {
  return options.bits_per_key.has_value()
             ? *options.bits_per_key
             : StandardBloomBitsPerKey(*options.fpp);
}

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_FPP_MATH_H_
