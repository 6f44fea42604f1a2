#include "util/bloom_math.h"

#include <algorithm>
#include <cmath>

namespace sstfilter {

namespace {
const double kLn2 = std::log(2.0);
}  // namespace

double StandardBloomFpp(double bits_per_key, int num_probes) {
  return std::pow(1.0 - std::exp(-num_probes / bits_per_key), num_probes);
}

double StandardBloomBitsPerKey(double fpp) { return -std::log(fpp) / (kLn2 * kLn2); }

int StandardBloomProbes(double bits_per_key) {
  const long k = std::lround(kLn2 * bits_per_key);
  return static_cast<int>(std::clamp<long>(k, kMinProbes, kMaxProbes));
}

double CacheLocalBloomFpp(double bits_per_key, int num_probes, int block_bits) {
  // Sum over j, the number of keys sharing the queried block: P(j) * fpp(j), where
  // fpp(j) = (1 - (1 - 1/B)^(j k))^k is exact for k independent uniform probes.
  const double mean = block_bits / bits_per_key;
  const double miss_one = std::log1p(-1.0 / block_bits);  // ln(1 - 1/B)
  // Poisson mass beyond mean + 12 sd + 64 is far below double precision.
  const int last = static_cast<int>(mean + 12.0 * std::sqrt(mean) + 64.0);
  double log_pmf = -mean;  // ln P(0)
  double total = 0.0;
  for (int j = 0; j <= last; ++j) {
    if (j > 0) log_pmf += std::log(mean / j);
    const double bit_set = -std::expm1(static_cast<double>(j) * num_probes * miss_one);
    total += std::exp(log_pmf) * std::pow(bit_set, num_probes);
  }
  return total;
}

double MinBitsPerKey(double fpp) { return -std::log2(fpp); }

}  // namespace sstfilter
