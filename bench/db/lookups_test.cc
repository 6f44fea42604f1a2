#include "bench/db/lookups.h"

#include <vector>

#include "gtest/gtest.h"

namespace sstfilter {
namespace bench {
namespace {

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
