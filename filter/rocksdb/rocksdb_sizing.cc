// RocksDB's bits/key rounding and the fpp -> setting maps (rocksdb_sizing.h).

#include "filter/rocksdb/rocksdb_sizing.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "filter/rocksdb/fast_local_bloom.h"
#include "filter/rocksdb/legacy_bloom.h"
#include "util/bloom_math.h"

namespace sstfilter {
namespace rocksdb_internal {

int RocksDbMillibitsPerKey(double bits_per_key) {
  // RocksDB's nudge: settings with three decimals round the same on every
  // platform (BloomLikeFilterPolicy's constructor).
  constexpr double kNudge = 0.500001;
  const double clamped = std::clamp(bits_per_key, 1.0, 100.0);
  return static_cast<int>(clamped * 1000.0 + kNudge);
}

int RocksDbWholeBitsPerKey(int millibits_per_key) {
  return (millibits_per_key + 500) / 1000;
}

double FastLocalBloomModelFpp(int millibits_per_key) {
  return LocalBloomFpp(millibits_per_key / 1000.0,
                       FastLocalBloomProbes(millibits_per_key), kCacheLineBits);
}

double LegacyBloomModelFpp(int whole_bits_per_key) {
  // Measured by rocksdb_sizing_test.cc (LegacyRatesAreMeasured, which checks
  // every entry again and regenerates the table): the mean over 12 filters of
  // 10^4..2*10^5 uniformly random 32-bit hashes, 2^20 other hashes queried in
  // each, at each whole bits/key 1..100. Filters of different key counts
  // differ by about 5% either way, occasionally 40%. The rate stops falling
  // near 20 bits/key (0.26%) and never goes below about 0.0965%: 1 query in 512
  // has a probe step of 0 and probes one bit k times, 1 in 512 has two
  // positions, and so on.
  static constexpr double kMeasured[] = {
      0.6296,    0.3925,    0.2361,   0.1548,   0.09332,  0.05848,  0.03825,
      0.02484,   0.01694,   0.01163,  0.008538, 0.006661, 0.005018, 0.004418,
      0.003849,  0.003569,  0.003048, 0.002953, 0.002919, 0.002652, 0.002625,
      0.0027,    0.002509,  0.002609, 0.002596, 0.002473, 0.002489, 0.002528,
      0.00251,   0.002417,  0.00247,  0.002481, 0.002376, 0.002424, 0.00247,
      0.002357,  0.002428,  0.00248,  0.002396, 0.002463, 0.002566, 0.002455,
      0.002605,  0.002799,  0.002691, 0.002584, 0.002517, 0.002487, 0.002371,
      0.002312,  0.002249,  0.002178, 0.002143, 0.002082, 0.002024, 0.001999,
      0.002048,  0.001877,  0.001843, 0.001806, 0.001762, 0.001731, 0.001709,
      0.001675,  0.001638,  0.001657, 0.001574, 0.001552, 0.001555, 0.001512,
      0.001468,  0.001433,  0.001413, 0.001373, 0.001356, 0.001335, 0.001318,
      0.001314,  0.001296,  0.001355, 0.001259, 0.001219, 0.001231, 0.001201,
      0.001213,  0.001168,  0.001157, 0.001145, 0.001147, 0.001136, 0.001088,
      0.001078,  0.001057,  0.00107,  0.001031, 0.001021, 0.00102,  0.000995,
      0.0009878, 0.0009653,
  };
  static_assert(
      sizeof(kMeasured) / sizeof(double) == kMaxMillibitsPerKey / 1000,
      "one entry per whole bits/key");
  const int bits =
      std::clamp(whole_bits_per_key, 1, kMaxMillibitsPerKey / 1000);
  return kMeasured[bits - 1];
}

namespace {

absl::Status Unreachable(const char* format, double fpp, double best) {
  return absl::InvalidArgumentError(
      absl::StrCat("FilterOptions: fpp ", fpp, " is below what RocksDB's ",
                   format, " reaches at 100 bits/key (", best, ")"));
}

}  // namespace

absl::StatusOr<int> FastLocalBloomMillibitsForFpp(double fpp) {
  // Within a run of settings with the same k the modelled rate falls as
  // millibits grow; across runs it may rise a little where RocksDB's table
  // switches k (e.g. 3.40e-5 at 25501 millibits, k = 12, but 3.61e-5 at
  // 25502, k = 11). So: the first run whose last setting reaches fpp, then
  // bisection inside it. About 26 runs and 17 bisection steps.
  double best = 1.0;
  for (int start = kMinMillibitsPerKey; start <= kMaxMillibitsPerKey;) {
    const int k = FastLocalBloomProbes(start);
    int end = start;  // last setting of this run
    while (end < kMaxMillibitsPerKey && FastLocalBloomProbes(end + 1) == k) {
      ++end;
    }
    const double at_end = FastLocalBloomModelFpp(end);
    best = std::min(best, at_end);
    if (at_end <= fpp) {
      int lo = start;  // the answer is in [lo, end]
      int hi = end;
      while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (FastLocalBloomModelFpp(mid) <= fpp) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      return lo;
    }
    start = end + 1;
  }
  return Unreachable("FastLocalBloom", fpp, best);
}

absl::StatusOr<int> LegacyBloomWholeBitsForFpp(double fpp) {
  constexpr int kMinWholeBits = kMinMillibitsPerKey / 1000;
  constexpr int kMaxWholeBits = kMaxMillibitsPerKey / 1000;
  for (int bits = kMinWholeBits; bits <= kMaxWholeBits; ++bits) {
    if (LegacyBloomModelFpp(bits) <= fpp) return bits;
  }
  double best = 1.0;
  for (int bits = kMinWholeBits; bits <= kMaxWholeBits; ++bits) {
    best = std::min(best, LegacyBloomModelFpp(bits));
  }
  return Unreachable("legacy Bloom", fpp, best);
}

}  // namespace rocksdb_internal
}  // namespace sstfilter
