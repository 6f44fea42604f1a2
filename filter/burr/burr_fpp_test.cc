// The bumped Ribbon filter's accuracy promise: with FilterOptions::Fpp(p), the
// measured false-positive rate is at most 1.05 p, over at least 10^7 absent
// keys at 10^4 and 10^6 keys, for rates that need the column mix (1%, 0.3%)
// and one that does not (2^-10). Built with SSTFILTER_BURR_FPP_AT_10_8
// (//filter/burr:burr_fpp_large_test, tagged manual: about a minute and 1 GB)
// it checks one filter of 10^8 keys at 1%, 0.1% and 30% instead.

#include <cstdint>
#include <memory>
#include <tuple>

#include "filter/burr/burr.h"
#include "filter/testing/fpp_check.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

constexpr double kPromisedFactor = 1.05;  // measured <= this * requested fpp

class BumpedRibbonFppTest
    : public ::testing::TestWithParam<std::tuple<double, uint64_t>> {};

TEST_P(BumpedRibbonFppTest, MeasuredRateWithinPromise) {
  const double fpp = std::get<0>(GetParam());
  const uint64_t n = std::get<1>(GetParam());
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      NewBurrFilterPolicy(FilterOptions::Fpp(fpp));
  ASSERT_TRUE(policy.ok()) << policy.status();
  const uint64_t filters = n >= 1000000 ? 1 : 100000 / n;
  test::ExpectFppWithinPromise(test::MeasureFpp(**policy, n, filters, 10000000),
                               fpp, kPromisedFactor);
}

#ifdef SSTFILTER_BURR_FPP_AT_10_8
INSTANTIATE_TEST_SUITE_P(TenToTheEightKeys, BumpedRibbonFppTest,
                         ::testing::Combine(::testing::Values(0.01, 0.001, 0.3),
                                            ::testing::Values(100000000)));
#else
INSTANTIATE_TEST_SUITE_P(Rates, BumpedRibbonFppTest,
                         ::testing::Combine(::testing::Values(0.01, 0.003,
                                                              1.0 / 1024),
                                            ::testing::Values(10000, 1000000)));
#endif

}  // namespace
}  // namespace sstfilter
