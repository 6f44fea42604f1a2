// The false-positive math of Bloom filters, in one place: sizing from a target
// rate, and the expected rate of a filter (from a formula, or sampled where no
// formula fits), used by policies (sizing, ExpectedFpp) and by tests
// (measured rate against expected).
//
// Notation: c = bits per key, k = probes per key, p = false-positive
// probability.

#ifndef SSTFILTER_UTIL_BLOOM_MATH_H_
#define SSTFILTER_UTIL_BLOOM_MATH_H_

#include <array>
#include <cstddef>
#include <cstdint>

namespace sstfilter {

// Probe counts the Bloom formats store (LevelDB's and the native format keep k
// in a filter's last byte; LevelDB's reader treats k > 30 as reserved for
// future encodings).
constexpr int kMinProbes = 1;
constexpr int kMaxProbes = 30;

// Standard Bloom filter (probes spread over the whole bit array), in the limit
// of a large array: p = (1 - e^(-k/c))^k.
double StandardBloomFpp(double bits_per_key, int num_probes);

// Bits per key that minimise the standard filter's size for rate p with the
// optimal k: c = -ln p / (ln 2)^2 (about 1.44 log2(1/p)).
double StandardBloomBitsPerKey(double fpp);

// The optimal probe count of a standard filter: k = round(ln 2 * c), clamped to
// [kMinProbes, kMaxProbes].
int StandardBloomProbes(double bits_per_key);

// Cache-local Bloom filter: each key's k probes fall in one block of block_bits
// bits, the block chosen by the hash. The number of keys in a block is Poisson
// with mean block_bits / c, so p is the standard formula for a block-sized
// filter averaged over that distribution. At c = 10, k = 6, block_bits = 512:
// 0.9535%, as RocksDB's util/bloom_impl.h has it (standard: 0.84%). Independent
// uniformly random probes do slightly worse (0.9665% there, and 9% worse than
// this formula at 64-bit blocks).
double CacheLocalBloomFpp(double bits_per_key, int num_probes, int block_bits);

// Exact form of the cache-local rate for independent uniform probes (drawn with
// replacement, as hashed probes are): CacheLocalBloomFpp raises the expected
// fraction of set bits to the k-th power, which underestimates E[(set
// fraction)^k] in a block as small as 512 bits (at c = 10, k = 6: 0.966% exact,
// against CacheLocalBloomFpp's 0.9535%). Computed by inclusion-exclusion over
// the query's distinct probe positions, averaged over the Poisson number of
// keys per block (mean block_bits / c) in closed form.
double LocalBloomFpp(double bits_per_key, int num_probes, double block_bits);

// The same for one block holding exactly num_keys keys (no averaging): a filter
// that is a single block, or one block of a filter whose key count per block is
// known.
double LocalBloomFppWithKeys(double num_keys, int num_probes,
                             double block_bits);

// LocalBloomFpp and LocalBloomFppWithKeys for one probe count and block size,
// with the inclusion-exclusion terms (which depend on nothing else) computed
// once: they cost O(k^2) operations and 2k long-double powers, the sum over
// them only k + 1 exponentials, and sizing evaluates one k at many bits/key.
// Gives the same values, bit for bit, as the two functions above.
class LocalBloomRate {
 public:
  LocalBloomRate(int num_probes, double block_bits);

  double Fpp(double bits_per_key) const;
  double FppWithKeys(double num_keys) const;

 private:
  // P(false positive | j keys in the block) = sum_i weight_[i] * base_[i]^j.
  long double weight_[kMaxProbes + 1];
  long double base_[kMaxProbes + 1];
  int count_;  // terms in use: k + 1
  double block_bits_;
};

// One cache-local layout (k probes in one block of block_bits bits) for every k
// in [kMinProbes, kMaxProbes]: the rates prepared once, and the searches that
// size a filter of the layout. Sizing from an fpp evaluates the rate a few
// hundred times, which costs milliseconds when each call prepares its own
// terms. About 30 KB: keep one per layout in static storage (see
// filter/bloom/bloom_sizing.cc for why not on the heap).
class LocalBloomLayout {
 public:
  explicit LocalBloomLayout(double block_bits);

  // LocalBloomFpp(bits_per_key, num_probes, block_bits), num_probes clamped to
  // [kMinProbes, kMaxProbes].
  double Fpp(double bits_per_key, int num_probes) const;

  // The same for one block holding exactly num_keys keys.
  double FppWithKeys(double num_keys, int num_probes) const;

  // The k in [kMinProbes, kMaxProbes] minimising Fpp(bits_per_key, k).
  int OptimalProbes(double bits_per_key) const;

  // Fpp(bits_per_key, OptimalProbes(bits_per_key)).
  double OptimalFpp(double bits_per_key) const;

  // The smallest bits/key in [min_bits, max_bits] whose optimal-k rate is at
  // most fpp (min_bits when even that reaches fpp), to a relative precision of
  // 1e-9. REQUIRES: OptimalFpp(max_bits) <= fpp.
  double SmallestBitsPerKey(double fpp, double min_bits, double max_bits) const;

 private:
  const LocalBloomRate& Rate(int num_probes) const;

  std::array<LocalBloomRate, kMaxProbes - kMinProbes + 1> rates_;
};

// The information-theoretic floor: log2(1/p) bits per key for rate p.
double MinBitsPerKey(double fpp);

// Hash values a sampled rate (SampledFpp) tries by default: a relative
// sampling error of about 1 / sqrt(kFppSampleHashes * p), 4% at p = 1%, for
// about as many probes as a few hundred queries cost.
constexpr size_t kFppSampleHashes = size_t{1} << 16;

// The step between sample hashes: odd, so that up to 2^32 of them are
// distinct, and near 2^32 / golden ratio, so that any number of them spreads
// evenly over the 32-bit values.
constexpr uint32_t kSampleHashStep = 0x9e3779b1;

// Clang's coverage instrumentation (libFuzzer's guidance) left out of a
// function: SampledFpp probes a filter with tens of thousands of fixed hashes,
// and traced, every comparison in that loop is a call, which made a sampled
// ExpectedFpp 5 times slower under libFuzzer and told the fuzzer nothing, as
// the hashes do not come from its input. AddressSanitizer and UBSan still
// check the loop.
#if defined(__clang__)
#define SSTFILTER_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define SSTFILTER_NO_COVERAGE
#endif

// The fraction of the num_samples hashes 0, kSampleHashStep, 2 *
// kSampleHashStep, ... (mod 2^32) that matches(hash) accepts: the
// false-positive rate of a filter queried through a 32-bit hash, measured
// rather than modelled, for formats whose probes correlate so that no formula
// of the fill fits (LevelDB's and RocksDB's legacy Bloom). Costs num_samples
// calls of matches, which should inline (a lambda, not a function pointer).
// REQUIRES: num_samples > 0.
template <typename Matches>
SSTFILTER_NO_COVERAGE double SampledFpp(const Matches& matches,
                                        size_t num_samples = kFppSampleHashes) {
  size_t accepted = 0;
  uint32_t hash = 0;
  for (size_t i = 0; i < num_samples; ++i, hash += kSampleHashStep) {
    accepted += matches(hash) ? 1 : 0;
  }
  return static_cast<double>(accepted) / static_cast<double>(num_samples);
}

}  // namespace sstfilter

#endif  // SSTFILTER_UTIL_BLOOM_MATH_H_
