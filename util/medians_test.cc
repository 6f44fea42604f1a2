#include "util/medians.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"

namespace sstfilter {
namespace {

TEST(LowerMedianTest, TakesTheMiddleOrTheLowerMiddle) {
  EXPECT_EQ(LowerMedian({5, 1, 3}), 3);
  EXPECT_EQ(LowerMedian({4, 1, 3, 2}), 2);
  EXPECT_EQ(LowerMedian({7}), 7);
  EXPECT_EQ(LowerMedian({}), 0);
}

TEST(MedianOfRatiosTest, PairsRatesByRepetition) {
  // The machine halves its speed after the first two repetitions: a is 10%
  // faster than b in every one, which the ratio of the medians hides.
  const std::vector<double> a = {110, 110, 55, 55, 55};
  const std::vector<double> b = {100, 100, 50, 50, 100};
  EXPECT_DOUBLE_EQ(MedianOfRatios(a, b), 1.1);
  EXPECT_DOUBLE_EQ(LowerMedian(a) / LowerMedian(b), 0.55);
}

TEST(MedianOfRatiosTest, TakesTheLowerMiddleOfAnEvenCount) {
  EXPECT_DOUBLE_EQ(MedianOfRatios({1, 3, 2, 4}, {1, 1, 1, 1}), 2);
}

TEST(MedianOfRatiosTest, ZeroWhenTheRepetitionsDoNotPair) {
  EXPECT_EQ(MedianOfRatios({}, {}), 0);
  EXPECT_EQ(MedianOfRatios({1, 2}, {1}), 0);
  EXPECT_EQ(MedianOfRatios({1, 2}, {1, 0}), 0);
  EXPECT_EQ(MedianOfRatios({1, NAN}, {1, 1}), 0);
}

}  // namespace
}  // namespace sstfilter
