// The native Bloom filter's accuracy promise: with FilterOptions::Fpp(p), the
// measured false-positive rate is at most 1.05 p, for p from 10% down to 0.01%
// and n from 1,000 to 10^6 keys (the sizes a unit test affords; the benchmark
// goes to 10^8). Each (p, n) is measured over at least 10^7 absent keys, spread
// over many filters when n is small.

#include <cstdint>
#include <memory>
#include <tuple>

#include "filter/bloom/bloom.h"
#include "filter/testing/fpp_check.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

constexpr double kPromisedFactor =
    1.05;  // measured rate <= this * requested fpp

class BloomFppTest
    : public ::testing::TestWithParam<std::tuple<double, uint64_t>> {};

TEST_P(BloomFppTest, MeasuredRateWithinPromise) {
  const double fpp = std::get<0>(GetParam());
  const uint64_t n = std::get<1>(GetParam());
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      NewBloomFilterPolicy(FilterOptions::Fpp(fpp));
  ASSERT_TRUE(policy.ok()) << policy.status();
  // At least 10^7 probes; at the lowest rates 3 * 10^7 so that about 3,000
  // false positives keep the sampling error (1.8%) well inside the 5% margin.
  const uint64_t probes = fpp < 0.001 ? 30000000 : 10000000;
  const uint64_t filters = n >= 1000000 ? 1 : 1000000 / n;
  test::ExpectFppWithinPromise(test::MeasureFpp(**policy, n, filters, probes),
                               fpp, kPromisedFactor);
}

INSTANTIATE_TEST_SUITE_P(
    AllRates, BloomFppTest,
    ::testing::Combine(::testing::Values(0.1, 0.05, 0.02, 0.01, 0.005, 0.002,
                                         0.001, 0.0005, 0.0002, 0.0001),
                       ::testing::Values(1000, 10000, 100000, 1000000)));

}  // namespace
}  // namespace sstfilter
