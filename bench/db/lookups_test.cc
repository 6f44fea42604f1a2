#include "bench/db/lookups.h"

#include <vector>

#include "gtest/gtest.h"

namespace sstfilter {
namespace bench {
namespace {

TEST(MedianOfRatiosTest, PairsRatesByRepetition) {
  // The machine halves its speed after the first two repetitions: a is 10%
  // faster than b in every one, which the ratio of the medians hides.
  const std::vector<double> a = {110, 110, 55, 55, 55};
  const std::vector<double> b = {100, 100, 50, 50, 100};
  EXPECT_DOUBLE_EQ(MedianOfRatios(a, b), 1.1);
}

TEST(MedianOfRatiosTest, TakesTheLowerMiddleOfAnEvenCount) {
  EXPECT_DOUBLE_EQ(MedianOfRatios({1, 3, 2, 4}, {1, 1, 1, 1}), 2);
}

TEST(MedianOfRatiosTest, ZeroWhenTheRepetitionsDoNotPair) {
  EXPECT_EQ(MedianOfRatios({}, {}), 0);
  EXPECT_EQ(MedianOfRatios({1, 2}, {1}), 0);
  EXPECT_EQ(MedianOfRatios({1, 2}, {1, 0}), 0);
}

TEST(FormatRateRatioTest, ShowsThePairedRatioFirst) {
  EXPECT_EQ(FormatRateRatio(110, {110, 120, 100}, 100, {100, 100, 100}),
            "1.100 (median of 3 per-repetition ratios; ratio of the medians "
            "1.100)");
  EXPECT_EQ(FormatRateRatio(55, {55, 110, 55}, 100, {50, 100, 100}),
            "1.100 (median of 3 per-repetition ratios; ratio of the medians "
            "0.550)");
}

TEST(FormatRateRatioTest, FallsBackToTheMediansWithoutRepetitions) {
  EXPECT_EQ(FormatRateRatio(3, {}, 2, {}), "1.500");
}

}  // namespace
}  // namespace bench
}  // namespace sstfilter
