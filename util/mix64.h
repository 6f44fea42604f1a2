// A bijective 64-bit mixer, for keys and draws derived from numbers: distinct
// inputs give distinct, well-spread outputs, so a key made from Mix64(i)
// needs no check against the keys of other i. Not a format hash (util/hash.h):
// nothing on disk depends on it, though benchmarks' keys do.

#ifndef SSTFILTER_UTIL_MIX64_H_
#define SSTFILTER_UTIL_MIX64_H_

#include <cstdint>

namespace sstfilter {

// The SplitMix64 finaliser: xor-shifts and odd multipliers are each
// invertible. Mix64(0) == 0.
inline uint64_t Mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

}  // namespace sstfilter

#endif  // SSTFILTER_UTIL_MIX64_H_
