// The counting filter's measured false-positive rate against its target and
// its formula: freshly filled, and after the whole set has been replaced one
// key at a time (deletions must leave nothing behind).

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/filter_policy.h"
#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"
#include "inmemory/counting/counting_bloom.h"

namespace sstfilter {
namespace {

using test::Key16;

// The fraction of count keys of set `set` that match, asked in batches. Keys
// of a set are distinct from every other set's, so a set never added gives the
// false-positive rate.
double MeasuredFpp(const CountingBloomFilter& filter, uint64_t set,
                   uint64_t count) {
  const uint64_t matches = test::CountBatchMatches(
      [&filter](absl::Span<const absl::string_view> keys, bool* results) {
        filter.MayContain(keys, results);
      },
      set, 0, count);
  return static_cast<double>(matches) / static_cast<double>(count);
}

struct Case {
  double fpp;
  uint64_t keys;
};

class CountingFppTest : public testing::TestWithParam<Case> {};

// Enough absent queries for about 20,000 false positives: a relative standard
// error near 0.7%, so the bounds below are many standard errors wide.
uint64_t AbsentQueries(double fpp) {
  return static_cast<uint64_t>(std::lround(20000 / fpp));
}

// Measures the rate over absent keys (set 1), prints it, and expects it within
// 1.15 x the target and within 5% (7 standard errors) of the layout's formula.
void ExpectTargetAndFormula(const CountingBloomFilter& filter, const Case& c,
                            const char* what) {
  const double measured = MeasuredFpp(filter, 1, AbsentQueries(c.fpp));
  const double formula = filter.ExpectedFpp();
  std::printf(
      "fpp %g, %llu keys, %s: measured %.4f%% (%.3f x target), formula "
      "%.5f%%, %.2f bits/key\n",
      c.fpp, static_cast<unsigned long long>(c.keys), what, 100 * measured,
      measured / c.fpp, 100 * formula, filter.BitsPerKey());
  EXPECT_LE(measured, 1.15 * c.fpp);
  EXPECT_NEAR(measured, formula, 0.05 * formula);
  EXPECT_LE(formula, c.fpp);
}

TEST_P(CountingFppTest, FreshFilterMeetsItsTarget) {
  const Case c = GetParam();
  absl::StatusOr<CountingBloomFilter> filter =
      CountingBloomFilter::Create(FilterOptions::Fpp(c.fpp), c.keys);
  ASSERT_TRUE(filter.ok()) << filter.status();
  for (uint64_t i = 0; i < c.keys; ++i) filter->Add(Key16(0, i));
  for (uint64_t i = 0; i < c.keys; ++i) {
    ASSERT_TRUE(filter->MayContain(Key16(0, i))) << i;
  }
  ExpectTargetAndFormula(*filter, c, "fresh");
}

// Keys replaced one at a time until none of the first set is left: the filter
// then holds a set it never held all at once, and its rate must be that of a
// fresh filter of that set (a removal that left a counter behind, or took one
// too many, would show here or as a false negative).
TEST_P(CountingFppTest, RateAfterReplacingEveryKey) {
  const Case c = GetParam();
  absl::StatusOr<CountingBloomFilter> filter =
      CountingBloomFilter::Create(FilterOptions::Fpp(c.fpp), c.keys);
  ASSERT_TRUE(filter.ok()) << filter.status();
  for (uint64_t i = 0; i < c.keys; ++i) filter->Add(Key16(0, i));
  for (uint64_t i = 0; i < c.keys; ++i) {
    filter->Add(Key16(2, i));
    ASSERT_TRUE(filter->Remove(Key16(0, i))) << i;
  }
  ASSERT_EQ(filter->NumKeys(), c.keys);
  ASSERT_EQ(filter->NumSaturated(), 0u);
  for (uint64_t i = 0; i < c.keys; ++i) {
    ASSERT_TRUE(filter->MayContain(Key16(2, i))) << i;
  }
  ExpectTargetAndFormula(*filter, c, "replaced");
  // The removed keys are gone, but for the usual false positives.
  EXPECT_LE(MeasuredFpp(*filter, 0, AbsentQueries(c.fpp)), 1.15 * c.fpp);
}

INSTANTIATE_TEST_SUITE_P(Rates, CountingFppTest,
                         testing::Values(Case{0.01, 100000},
                                         Case{0.01, 1000000},
                                         Case{0.03, 100000},
                                         Case{0.03, 1000000}),
                         [](const testing::TestParamInfo<Case>& param) {
                           return "fpp" +
                                  std::to_string(static_cast<int>(
                                      std::lround(param.param.fpp * 100))) +
                                  "pct_keys" + std::to_string(param.param.keys);
                         });

}  // namespace
}  // namespace sstfilter
