// Deterministic pseudo-random numbers and keys for tests.
//
// Tests print their seeds on failure and must replay the same inputs on every
// platform, so this avoids <random>'s distributions (their output is
// implementation-defined) and uses SplitMix64 with explicit reductions.

#ifndef SSTFILTER_UTIL_TESTING_RANDOM_H_
#define SSTFILTER_UTIL_TESTING_RANDOM_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sstfilter {
namespace test {

// SplitMix64's increment: 2^64 divided by the golden ratio, made odd.
constexpr uint64_t kSplitMixGamma = 0x9e3779b97f4a7c15ULL;

// SplitMix64's mixing function (Steele, Lea and Flood, "Fast splittable
// pseudorandom number generators", OOPSLA 2014): a fixed, well-mixed bijection,
// so that Mix64(i) for i = 0, 1, 2, ... is a sequence every run repeats.
inline uint64_t Mix64(uint64_t x) {
  x += kSplitMixGamma;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// SplitMix64: a Weyl sequence through Mix64.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}

  // The next 64 uniformly distributed bits.
  uint64_t Next64();

  // Uniform in [0, n). REQUIRES: n > 0.
  uint64_t Uniform(uint64_t n);

  // Uniform in [lo, hi]. REQUIRES: lo <= hi.
  uint64_t Range(uint64_t lo, uint64_t hi) { return lo + Uniform(hi - lo + 1); }

  // True with probability 1/n. REQUIRES: n > 0.
  bool OneIn(uint64_t n) { return Uniform(n) == 0; }

  // len bytes, each uniform over all 256 values.
  std::string Bytes(size_t len);

 private:
  uint64_t state_;
};

// n keys of uniformly random bytes, lengths uniform in [min_len, max_len]. Keys
// may repeat (short lengths make that likely); callers that need distinct keys
// must check.
std::vector<std::string> RandomKeys(Random* rng, size_t n, size_t min_len,
                                    size_t max_len);

// Up to n distinct keys "<prefix><16 hex digits>" from seed, sorted: the keys
// of a table. Another seed with the same prefix gives keys absent from it
// (with probability about 1 - n^2 / 2^64) that interleave with its keys, as
// the absent keys of a lookup do; a different prefix sorts them all before or
// after the table's keys, where a reader may rule them out without a filter.
std::vector<std::string> SortedHexKeys(size_t n, uint64_t seed,
                                       const std::string& prefix = "key");

// "<prefix><i>", e.g. NumberedKey("key", 7) == "key7": readable keys for golden
// tests.
std::string NumberedKey(const char* prefix, int i);

// The 4-byte little-endian encoding of i: the keys of LevelDB's bloom_test.cc.
std::string Fixed32Key(uint32_t i);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_UTIL_TESTING_RANDOM_H_
