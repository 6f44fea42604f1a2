#include "util/bloom_math.h"

#include <cmath>

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

double MinBitsPerKey(double fpp) { return -std::log2(fpp); }

}  // namespace sstfilter
