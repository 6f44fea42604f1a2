// Sizing of the counting Bloom filter (see counting_sizing.h).

#include "inmemory/counting/counting_sizing.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"
#include "inmemory/counting/counting_layout.h"
#include "util/bloom_math.h"

namespace sstfilter {
namespace counting_internal {

namespace {

// The layout's rates for every k, prepared once per process, in static storage
// (see filter/bloom/bloom_sizing.cc).
const LocalBloomLayout& Layout() {
  static const LocalBloomLayout layout(static_cast<double>(kCountersPerBlock));
  return layout;
}

}  // namespace

double LayoutFpp(double counters_per_key, int num_probes) {
  return Layout().Fpp(counters_per_key, num_probes);
}

double BlockFpp(double num_keys, int num_probes) {
  return Layout().FppWithKeys(num_keys, num_probes);
}

int OptimalProbes(double counters_per_key) {
  return Layout().OptimalProbes(counters_per_key);
}

absl::StatusOr<CountingSizing> SizeForOptions(const FilterOptions& options) {
  if (absl::Status status =
          ValidateCompatibleFilterOptions(options, "CountingBloomFilter");
      !status.ok()) {
    return status;
  }
  CountingSizing sizing;
  if (options.bits_per_key.has_value()) {
    sizing.counters_per_key = *options.bits_per_key;
  } else {
    const double fpp = *options.fpp;
    const double best_fpp = Layout().OptimalFpp(kMaxBitsPerKey);
    if (best_fpp > fpp) {
      return absl::InvalidArgumentError(
          absl::StrCat("FilterOptions: fpp ", fpp, " is below ", best_fpp,
                       ", the lowest the counting filter reaches at ",
                       kMaxBitsPerKey, " counters/key"));
    }
    sizing.counters_per_key =
        Layout().SmallestBitsPerKey(fpp, kMinBitsPerKey, kMaxBitsPerKey);
  }
  sizing.num_probes = OptimalProbes(sizing.counters_per_key);
  return sizing;
}

double CounterAtLeastProbability(double counters_per_key, int num_probes,
                                 int hits) {
  if (hits <= 0) return 1.0;
  const int k = std::clamp(num_probes, kMinProbes, kMaxProbes);
  // One key puts j of its k probes on a given counter with probability h[j]:
  // Binomial(k, 1/128).
  const long double q = 1.0L / kCountersPerBlock;
  std::vector<long double> h(k + 1);
  for (int j = 0; j <= k; ++j) {
    long double choose = 1.0L;
    for (int i = 0; i < j; ++i) choose = choose * (k - i) / (i + 1);
    h[j] = choose * std::pow(q, static_cast<long double>(j)) *
           std::pow(1.0L - q, static_cast<long double>(k - j));
  }
  // The counter's value is a Poisson(lambda) sum of such contributions, lambda
  // the mean keys per block. Panjer's recursion gives its distribution f;
  // the tail is summed directly (1 - the head would lose everything below
  // 1e-16). Terms past hits + 400 are far below long double precision for
  // any mean the options allow (at most k, 30).
  const long double lambda = kCountersPerBlock / counters_per_key;
  const int last = hits + 400;
  std::vector<long double> f(last + 1);
  f[0] = std::exp(-lambda * (1.0L - h[0]));
  long double tail = 0.0L;
  for (int n = 1; n <= last; ++n) {
    long double sum = 0.0L;
    for (int j = 1; j <= std::min(k, n); ++j) sum += j * h[j] * f[n - j];
    f[n] = lambda / n * sum;
    if (n >= hits) tail += f[n];
  }
  return static_cast<double>(std::clamp(tail, 0.0L, 1.0L));
}

}  // namespace counting_internal
}  // namespace sstfilter
