// The on-disk format of sstfilter's range filter (kGrafiteName, version 1),
// as constants, the locality-preserving hash and the parse of a filter's bytes.
// filter/range/README.md draws the layout; grafite_golden_test.cc pins it.
// Everything here is frozen: a change is a new format (a new marker and name).
//
// Internal header: include filter/range/range_filter.h instead.

#ifndef SSTFILTER_FILTER_RANGE_GRAFITE_FORMAT_H_
#define SSTFILTER_FILTER_RANGE_GRAFITE_FORMAT_H_

#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"
#include "filter/internal/verdict.h"

namespace sstfilter {
namespace grafite_internal {

constexpr char kGrafiteName[] = "sstfilter.Grafite1";
// Format version 2: a version-1 filter with a CRC32C of its bytes
// (filter/internal/checked_filter.h, filter/format_version_2.md).
constexpr char kCheckedGrafiteName[] = "sstfilter.Grafite2";

// Second-to-last byte of every filter of this format; another value is a
// format this reader does not know, read as "may match".
constexpr uint8_t kFormatMarker = 0xA7;  // "grAfite, version 1"

// Trailer: r, num_values, num_codes, seed (fixed64 each), marker, low_bits.
constexpr size_t kTrailerBytes = 4 * 8 + 2;

// The select index keeps, for every kSelectSample-th bucket boundary (zero
// bit) of the high-bits vector, the number of one bits before it, as a
// fixed32. 32 bits per 256 buckets: 1/8 bit per bucket.
constexpr uint64_t kSelectSample = 256;
constexpr size_t kSampleBytes = 4;

// More distinct values than a sample can count: the writer stores only a
// trailer saying so, which readers take as "may match" for every range.
constexpr uint64_t kMaxValues = 0xFFFFFFFFu;
constexpr int kMaxLowBits = 62;
// The reduced universe r lies in [kMinUniverse, kMaxUniverse].
constexpr uint64_t kMinUniverse = 2;
constexpr uint64_t kMaxUniverse = uint64_t{1} << 63;

// The block hash's prime: 2^61 - 1 (a Mersenne prime, so reduction is a
// shift and an add).
constexpr uint64_t kMersenne61 = (uint64_t{1} << 61) - 1;

// Grafite's hash h(x) = (q(floor(x / r)) + x mod r) mod r: consecutive codes
// in one block of r stay consecutive (mod r), so a range maps to at most two
// intervals of [0, r); q places each block at random, so a key outside the
// query's blocks lands in the query's intervals with probability (interval
// length) / r. The bound needs q pairwise independent; q is 4-wise
// independent, a cubic polynomial over the prime p = 2^61 - 1 (Carter and
// Wegman 1979), so that a fixed filter's rate also stays near its expectation
// on correlated ranges (those starting just after a key ask how the hashes
// are spaced, a sum over pairs of keys whose variance 4-wise independence
// bounds; with a linear q, whose differences depend only on the blocks'
// distance, a filter of uniform keys measured 1.3 times the bound there):
//   q(i) = ((c3 * y^3 + c2 * y^2 + c1 * y + c0) mod p) mod r, y = i mod p,
// with c0..c3 in [0, p) drawn from the seed by splitmix64 (README, "The
// hash").
// splitmix64 (Steele, Lea and Flood 2014), the draws of the hash's
// coefficients from its seed.
uint64_t SplitMix64(uint64_t* state);
// x mod 2^61 - 1.
uint64_t ModMersenne61(unsigned __int128 x);

class LocalityHash {
 public:
  LocalityHash(uint64_t universe, uint64_t seed);

  uint64_t universe() const { return universe_; }
  uint64_t Hash(uint64_t code) const {
    return (BlockOffset(code / universe_) + code % universe_) % universe_;
  }
  uint64_t BlockOffset(uint64_t block) const;

 private:
  uint64_t universe_;
  uint64_t coefficients_[4];  // c0..c3
};

// The seed every policy writes (any seed reads).
constexpr uint64_t kDefaultSeed = 0x9a7f17e5eed0001ull;

// A filter's bytes, parsed and checked for consistency (sizes agree with the
// trailer exactly). Views point into the filter.
struct ParsedGrafite {
  filter_internal::Verdict verdict = filter_internal::Verdict::kMatchAll;
  uint64_t universe = 0;    // r
  uint64_t num_values = 0;  // distinct hashes stored
  uint64_t num_codes = 0;   // distinct key codes added
  uint64_t seed = 0;
  int low_bits = 0;               // l
  uint64_t num_buckets = 0;       // ((r - 1) >> l) + 1
  const char* low = nullptr;      // ceil(n * l / 64) words
  const char* high = nullptr;     // ceil((n + buckets) / 64) words
  const char* samples = nullptr;  // ceil(buckets / kSelectSample) fixed32
  uint64_t low_words = 0;
  uint64_t high_words = 0;
  uint64_t num_samples = 0;
};

// Body sizes of a filter of these parameters.
struct GrafiteShape {
  uint64_t low_words;
  uint64_t high_words;
  uint64_t num_samples;
  uint64_t num_buckets;
  uint64_t body_bytes() const {
    return 8 * (low_words + high_words) + kSampleBytes * num_samples;
  }
};
GrafiteShape ShapeOf(uint64_t universe, uint64_t num_values, int low_bits);

ParsedGrafite ParseGrafite(absl::string_view filter);

}  // namespace grafite_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_RANGE_GRAFITE_FORMAT_H_
