// Sizing of the native Bloom filter (see bloom_sizing.h).

#include "filter/bloom/bloom_sizing.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "filter/filter_policy.h"
#include "util/bloom_math.h"

namespace sstfilter {
namespace bloom_internal {

namespace {

constexpr int kNumProbeCounts = kMaxProbes - kMinProbes + 1;

template <size_t... i>
std::array<LocalBloomRate, kNumProbeCounts> MakeLayoutRates(
    std::index_sequence<i...>) {
  return {LocalBloomRate(kMinProbes + static_cast<int>(i),
                         static_cast<double>(kBlockBits))...};
}

// The layout's rate for each k in [kMinProbes, kMaxProbes], prepared once per
// process (30 sets of terms): sizing from an fpp evaluates it a few hundred
// times, which costs milliseconds when each call prepares its own. Static
// storage, not the heap: the table is 30 KB, and held in the middle of a
// process's heap it can change when glibc returns freed memory to the system
// (filter_bench's builds of 10^4 keys took twice as long, faulting their pages
// back in on every repetition).
const LocalBloomRate& LayoutRate(int num_probes) {
  static const std::array<LocalBloomRate, kNumProbeCounts> rates =
      MakeLayoutRates(std::make_index_sequence<kNumProbeCounts>());
  return rates[std::clamp(num_probes, kMinProbes, kMaxProbes) - kMinProbes];
}

}  // namespace

double LayoutFpp(double bits_per_key, int num_probes) {
  return LayoutRate(num_probes).Fpp(bits_per_key);
}

int OptimalProbes(double bits_per_key) {
  // LayoutFpp is unimodal in k with its minimum near ln 2 * c (the standard
  // Bloom optimum), so walk downhill from there; bloom_sizing_test.cc checks
  // this against a scan of every k.
  int k =
      std::clamp(static_cast<int>(std::lround(std::log(2.0) * bits_per_key)),
                 kMinProbes, kMaxProbes);
  double best = LayoutFpp(bits_per_key, k);
  while (k > kMinProbes) {
    const double lower = LayoutFpp(bits_per_key, k - 1);
    if (!(lower < best)) break;
    best = lower;
    --k;
  }
  while (k < kMaxProbes) {
    const double higher = LayoutFpp(bits_per_key, k + 1);
    if (!(higher < best)) break;
    best = higher;
    ++k;
  }
  return k;
}

namespace {
double OptimalFpp(double bits_per_key) {
  return LayoutFpp(bits_per_key, OptimalProbes(bits_per_key));
}
}  // namespace

absl::StatusOr<BloomSizing> SizeForFpp(double fpp) {
  if (absl::Status status = ValidateFilterOptions(FilterOptions::Fpp(fpp));
      !status.ok()) {
    return status;
  }
  const double best_fpp = OptimalFpp(kMaxBitsPerKey);
  if (best_fpp > fpp) {
    return absl::InvalidArgumentError(absl::StrCat(
        "FilterOptions: fpp ", fpp, " is below ", best_fpp,
        ", the lowest this format reaches at ", kMaxBitsPerKey, " bits/key"));
  }
  if (OptimalFpp(kMinBitsPerKey) <= fpp)
    return SizeForBitsPerKey(kMinBitsPerKey);
  // Invariant: OptimalFpp(low) > fpp >= OptimalFpp(high); OptimalFpp decreases
  // in c (every k's rate does).
  double low = kMinBitsPerKey;
  double high = kMaxBitsPerKey;
  while (high - low > 1e-9 * high) {
    const double mid = 0.5 * (low + high);
    if (OptimalFpp(mid) <= fpp) {
      high = mid;
    } else {
      low = mid;
    }
  }
  return SizeForBitsPerKey(high);
}

BloomSizing SizeForBitsPerKey(double bits_per_key) {
  BloomSizing sizing;
  sizing.bits_per_key = bits_per_key;
  sizing.num_probes = OptimalProbes(bits_per_key);
  return sizing;
}

uint64_t BodyBytes(uint64_t num_keys, double bits_per_key) {
  if (num_keys == 0) return 0;
  const long double bits = static_cast<long double>(num_keys) * bits_per_key;
  return std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(bits / 8.0L)));
}

double FilterFpp(const BodyLayout& layout, uint64_t num_keys, int num_probes) {
  const double keys = static_cast<double>(num_keys);
  const double body_bits = static_cast<double>(layout.body_bits);
  const double last_bits = static_cast<double>(layout.last_block_bits);
  if (layout.num_blocks == 1)
    return LocalBloomFppWithKeys(keys, num_probes, body_bits);
  const double bits_per_key = body_bits / keys;
  const double regular_share = (body_bits - last_bits) / body_bits;
  return regular_share * LayoutFpp(bits_per_key, num_probes) +
         (1.0 - regular_share) *
             LocalBloomFpp(bits_per_key, num_probes, last_bits);
}

}  // namespace bloom_internal
}  // namespace sstfilter
