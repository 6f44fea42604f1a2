#include "util/bloom_math.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace sstfilter {

namespace {
const double kLn2 = std::log(2.0);
}  // namespace

double StandardBloomFpp(double bits_per_key, int num_probes) {
  return std::pow(1.0 - std::exp(-num_probes / bits_per_key), num_probes);
}

double StandardBloomBitsPerKey(double fpp) {
  return -std::log(fpp) / (kLn2 * kLn2);
}

int StandardBloomProbes(double bits_per_key) {
  // Clamped as a double: converting a huge value to an integer first would
  // overflow.
  const double k = std::round(kLn2 * bits_per_key);
  if (!(k >= kMinProbes)) return kMinProbes;  // also NaN
  if (k >= kMaxProbes) return kMaxProbes;
  return static_cast<int>(k);
}

double CacheLocalBloomFpp(double bits_per_key, int num_probes, int block_bits) {
  // Sum over j, the number of keys sharing the queried block: P(j) * fpp(j),
  // where fpp(j) = (1 - e^(-j k / B))^k is the standard formula for a B-bit
  // filter of j keys. (Truly random probes do slightly worse, as the fraction
  // of bits set varies from block to block: 0.9665% at c = 10, k = 6, B = 512.
  // bloom_math_test.cc measures the gap.)
  const double mean = block_bits / bits_per_key;
  // Poisson mass beyond mean + 12 sd + 64 is far below double precision.
  const int last = static_cast<int>(mean + 12.0 * std::sqrt(mean) + 64.0);
  double log_pmf = -mean;  // ln P(0)
  double total = 0.0;
  for (int j = 0; j <= last; ++j) {
    if (j > 0) log_pmf += std::log(mean / j);
    const double bit_set =
        -std::expm1(-static_cast<double>(j) * num_probes / block_bits);
    total += std::exp(log_pmf) * std::pow(bit_set, num_probes);
  }
  return total;
}

namespace {

double ClampProbability(long double p) {
  return static_cast<double>(std::clamp(p, 0.0L, 1.0L));
}

}  // namespace

// The inclusion-exclusion terms: for a query whose k probes cover D distinct
// positions, P(all D set | m stored probes) = sum_i (-1)^i C(D, i) (1 - i/B)^m.
// Grouping by i gives
//   P(false positive | j keys) = sum_i weight[i] * base[i]^j,
//   base[i] = (1 - i/B)^k,
// with weight[i] = (-1)^i sum_{D >= i} P(D) C(D, i) and P(D) from Stirling
// numbers of the second kind. Long double: the alternating sum cancels about 14
// digits at k = 30.
LocalBloomRate::LocalBloomRate(int num_probes, double block_bits)
    : block_bits_(block_bits) {
  const int k = std::clamp(num_probes, kMinProbes, kMaxProbes);
  const long double b = block_bits;
  // stirling[d] = S2(k, d), built row by row.
  long double stirling[kMaxProbes + 1] = {1.0L};
  for (int row = 1; row <= k; ++row) {
    for (int d = row; d >= 1; --d)
      stirling[d] = d * stirling[d] + stirling[d - 1];
    stirling[0] = 0.0L;
  }
  // p_distinct[d] = P(D = d) = b (b-1) ... (b-d+1) S2(k, d) / b^k.
  long double p_distinct[kMaxProbes + 1] = {0.0L};
  long double falling = 1.0L;  // b (b-1) ... (b-d+1) / b^d
  for (int d = 1; d <= k; ++d) {
    falling *= std::max(0.0L, (b - (d - 1)) / b);
    p_distinct[d] =
        falling * stirling[d] * std::pow(b, static_cast<long double>(d - k));
  }
  count_ = k + 1;
  for (int i = 0; i <= k; ++i) {
    long double sum = 0.0L;
    long double choose = 1.0L;  // C(d, i), starting at d = i
    for (int d = i; d <= k; ++d) {
      if (d > i) choose = choose * d / (d - i);
      sum += p_distinct[d] * choose;
    }
    weight_[i] = (i % 2 == 0) ? sum : -sum;
    base_[i] = std::pow(1.0L - i / b, static_cast<long double>(k));
  }
}

double LocalBloomRate::Fpp(double bits_per_key) const {
  // E[base^J] for J ~ Poisson(mean) is exp(-mean (1 - base)).
  const long double mean = block_bits_ / bits_per_key;
  long double total = 0.0L;
  for (int i = 0; i < count_; ++i) {
    total += weight_[i] * std::exp(-mean * (1.0L - base_[i]));
  }
  return ClampProbability(total);
}

double LocalBloomRate::FppWithKeys(double num_keys) const {
  long double total = 0.0L;
  for (int i = 0; i < count_; ++i) {
    total +=
        weight_[i] * std::pow(base_[i], static_cast<long double>(num_keys));
  }
  return ClampProbability(total);
}

double LocalBloomFpp(double bits_per_key, int num_probes, double block_bits) {
  return LocalBloomRate(num_probes, block_bits).Fpp(bits_per_key);
}

double LocalBloomFppWithKeys(double num_keys, int num_probes,
                             double block_bits) {
  return LocalBloomRate(num_probes, block_bits).FppWithKeys(num_keys);
}

namespace {

template <size_t... i>
std::array<LocalBloomRate, sizeof...(i)> MakeRates(double block_bits,
                                                   std::index_sequence<i...>) {
  return {LocalBloomRate(kMinProbes + static_cast<int>(i), block_bits)...};
}

}  // namespace

LocalBloomLayout::LocalBloomLayout(double block_bits)
    : rates_(
          MakeRates(block_bits,
                    std::make_index_sequence<kMaxProbes - kMinProbes + 1>())) {}

const LocalBloomRate& LocalBloomLayout::Rate(int num_probes) const {
  return rates_[std::clamp(num_probes, kMinProbes, kMaxProbes) - kMinProbes];
}

double LocalBloomLayout::Fpp(double bits_per_key, int num_probes) const {
  return Rate(num_probes).Fpp(bits_per_key);
}

double LocalBloomLayout::FppWithKeys(double num_keys, int num_probes) const {
  return Rate(num_probes).FppWithKeys(num_keys);
}

int LocalBloomLayout::OptimalProbes(double bits_per_key) const {
  // The rate is unimodal in k with its minimum near ln 2 * c (the standard
  // Bloom optimum), so walk downhill from there; bloom_sizing_test.cc checks
  // this against a scan of every k.
  int k = std::clamp(static_cast<int>(std::lround(kLn2 * bits_per_key)),
                     kMinProbes, kMaxProbes);
  double best = Fpp(bits_per_key, k);
  while (k > kMinProbes) {
    const double lower = Fpp(bits_per_key, k - 1);
    if (!(lower < best)) break;
    best = lower;
    --k;
  }
  while (k < kMaxProbes) {
    const double higher = Fpp(bits_per_key, k + 1);
    if (!(higher < best)) break;
    best = higher;
    ++k;
  }
  return k;
}

double LocalBloomLayout::OptimalFpp(double bits_per_key) const {
  return Fpp(bits_per_key, OptimalProbes(bits_per_key));
}

double LocalBloomLayout::SmallestBitsPerKey(double fpp, double min_bits,
                                            double max_bits) const {
  if (OptimalFpp(min_bits) <= fpp) return min_bits;
  // Invariant: OptimalFpp(low) > fpp >= OptimalFpp(high); OptimalFpp decreases
  // in c (every k's rate does).
  double low = min_bits;
  double high = max_bits;
  while (high - low > 1e-9 * high) {
    const double mid = 0.5 * (low + high);
    if (OptimalFpp(mid) <= fpp) {
      high = mid;
    } else {
      low = mid;
    }
  }
  return high;
}

double MinBitsPerKey(double fpp) { return -std::log2(fpp); }

}  // namespace sstfilter
