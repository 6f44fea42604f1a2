// The counting filter's sizing (options -> counters/key and k) and its counter
// math: the probability that a counter saturates, against the counters a real
// filter saturates.

#include "inmemory/counting/counting_sizing.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "filter/filter_policy.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "inmemory/counting/counting_bloom.h"
#include "inmemory/counting/counting_layout.h"
#include "util/bloom_math.h"

namespace sstfilter {
namespace counting_internal {
namespace {

using ::testing::HasSubstr;

TEST(CountingSizingTest, FppGivesTheSmallestCountersThatReachIt) {
  for (double fpp : {0.1, 0.03, 0.01, 1e-3, 1e-4, 1e-6}) {
    SCOPED_TRACE(fpp);
    absl::StatusOr<CountingSizing> sizing =
        SizeForOptions(FilterOptions::Fpp(fpp));
    ASSERT_TRUE(sizing.ok()) << sizing.status();
    const double c = sizing->counters_per_key;
    EXPECT_EQ(sizing->num_probes, OptimalProbes(c));
    EXPECT_LE(LayoutFpp(c, sizing->num_probes), fpp);
    // A little less and no k reaches fpp.
    EXPECT_GT(LayoutFpp(c * 0.999, OptimalProbes(c * 0.999)), fpp);
    // The formula is the cache-local Bloom formula with 128-bit blocks.
    EXPECT_EQ(LayoutFpp(c, sizing->num_probes),
              LocalBloomFpp(c, sizing->num_probes, kCountersPerBlock));
    // Costlier than 512-bit blocks or a standard Bloom filter, never cheaper.
    EXPECT_GT(c, StandardBloomBitsPerKey(fpp));
  }
}

// The sizing table of inmemory/counting/README.md (and counting_bloom.h's
// figures): counters/key, k, and the native filter's and a standard filter's
// bits/key for comparison.
TEST(CountingSizingTest, DocumentedSizes) {
  const struct {
    double fpp;
    double counters_per_key;
    int k;
    double native_bits_per_key;
  } kRows[] = {
      {0.1, 4.92, 3, 4.84},     {0.03, 7.83, 5, 7.43},
      {0.01, 10.85, 6, 9.92},   {1e-3, 19.01, 8, 15.55},
      {1e-4, 30.94, 10, 22.03}, {1e-6, 77.13, 13, 38.82},
  };
  const LocalBloomLayout native(512);
  for (const auto& row : kRows) {
    SCOPED_TRACE(row.fpp);
    absl::StatusOr<CountingSizing> sizing =
        SizeForOptions(FilterOptions::Fpp(row.fpp));
    ASSERT_TRUE(sizing.ok());
    EXPECT_NEAR(sizing->counters_per_key, row.counters_per_key, 0.005);
    EXPECT_EQ(sizing->num_probes, row.k);
    EXPECT_NEAR(native.SmallestBitsPerKey(row.fpp, 1, 100),
                row.native_bits_per_key, 0.005);
  }
  EXPECT_NEAR(LayoutFpp(kMaxBitsPerKey, OptimalProbes(kMaxBitsPerKey)), 2.7e-7,
              0.05e-7);
}

// counting_bloom.cc unrolls its probe loops for k up to 16; every size the
// options allow stays within that.
TEST(CountingSizingTest, ProbesStayWithinTheUnrolledLoops) {
  int most = 0;
  for (double c = kMinBitsPerKey; c <= kMaxBitsPerKey; c += 0.25) {
    most = std::max(most, OptimalProbes(c));
  }
  EXPECT_EQ(most, 14);
}

TEST(CountingSizingTest, BitsPerKeyIsCountersPerKey) {
  for (double c : {1.0, 4.5, 10.0, 100.0}) {
    absl::StatusOr<CountingSizing> sizing =
        SizeForOptions(FilterOptions::BitsPerKey(c));
    ASSERT_TRUE(sizing.ok()) << sizing.status();
    EXPECT_EQ(sizing->counters_per_key, c);
    EXPECT_EQ(sizing->num_probes, OptimalProbes(c));
  }
}

TEST(CountingSizingTest, InvalidOptionsNameTheValue) {
  const struct {
    FilterOptions options;
    const char* named;
  } kCases[] = {
      {FilterOptions::Fpp(0), "0"},
      {FilterOptions::Fpp(1), "1"},
      {FilterOptions::Fpp(-0.5), "-0.5"},
      {FilterOptions::Fpp(std::nan("")), "nan"},
      {FilterOptions::Fpp(1e-8), "1e-08"},  // below what 100 counters reach
      {FilterOptions::BitsPerKey(0.5), "0.5"},
      {FilterOptions::BitsPerKey(101), "101"},
      {FilterOptions(), "exactly one"},
  };
  for (const auto& c : kCases) {
    absl::StatusOr<CountingSizing> sizing = SizeForOptions(c.options);
    ASSERT_FALSE(sizing.ok()) << c.named;
    EXPECT_TRUE(absl::IsInvalidArgument(sizing.status()));
    EXPECT_THAT(std::string(sizing.status().message()), HasSubstr(c.named));
  }
}

// P(counter >= hits) by brute force for one block holding exactly j keys:
// Binomial(j k, 1/128), then the Poisson average over j, summed term by term.
double DirectAtLeast(double counters_per_key, int k, int hits) {
  const double mean = kCountersPerBlock / counters_per_key;
  double total = 0.0;
  double log_pmf = -mean;
  for (int j = 0; j < 400; ++j) {
    if (j > 0) log_pmf += std::log(mean / j);
    const int trials = j * k;
    double tail = 0.0;
    for (int v = hits; v <= trials; ++v) {
      tail += std::exp(std::lgamma(trials + 1.0) - std::lgamma(v + 1.0) -
                       std::lgamma(trials - v + 1.0) +
                       v * std::log(1.0 / kCountersPerBlock) +
                       (trials - v) * std::log1p(-1.0 / kCountersPerBlock));
    }
    total += std::exp(log_pmf) * tail;
  }
  return total;
}

TEST(CountingSizingTest, CounterTailMatchesDirectComputation) {
  for (double c : {1.0, 2.0, 10.85}) {
    for (int k : {1, 6, 11}) {
      for (int hits : {1, 3, 8, 15}) {
        const double direct = DirectAtLeast(c, k, hits);
        EXPECT_NEAR(CounterAtLeastProbability(c, k, hits), direct,
                    1e-12 + 1e-6 * direct)
            << c << " " << k << " " << hits;
      }
    }
  }
  EXPECT_EQ(CounterAtLeastProbability(10, 6, 0), 1.0);
}

// The saturation table of inmemory/counting/README.md: negligible at design
// load, and 3-bit counters (saturating at 7) would not do.
TEST(CountingSizingTest, SaturationFigures) {
  const struct {
    double counters_per_key;
    int k;
    int hits;
    double probability;
  } kRows[] = {
      {10.85, 6, 15, 5.2e-15},     {10.85, 6, 16, 3.1e-16},
      {7.83, 5, 15, 1.4e-14},      {7.83, 5, 16, 8.5e-16},
      {10.85 / 2, 6, 15, 1.4e-11}, {10.85 / 4, 6, 15, 4.5e-8},
      {1.0, 6, 15, 1.8e-3},        {10.85, 6, 7, 5.2e-6},
  };
  for (const auto& row : kRows) {
    EXPECT_NEAR(
        CounterAtLeastProbability(row.counters_per_key, row.k, row.hits),
        row.probability, 0.05 * row.probability)
        << row.counters_per_key << " " << row.k << " " << row.hits;
  }
  // Fan et al.'s bound for 16 or more, standard layout: 1.37e-15 per counter.
  EXPECT_LT(CounterAtLeastProbability(10.85, 6, kSaturated + 1), 1.37e-15);
}

// A real filter overloaded until counters saturate: the number stuck at 15 is
// what the formula predicts for its counters per key (only adds, so a counter
// is saturated exactly when it received 15 or more increments).
TEST(CountingSizingTest, SaturatedCountersMatchTheFormula) {
  absl::StatusOr<CountingBloomFilter> filter =
      CountingBloomFilter::Create(FilterOptions::BitsPerKey(10), 100000);
  ASSERT_TRUE(filter.ok());
  const int k = filter->NumProbes();
  // 10 times the expected keys: 1 counter/key, a counter's mean 6.
  const uint64_t keys = 10 * filter->ExpectedKeys();
  for (uint64_t i = 0; i < keys; ++i) filter->Add(absl::StrCat("key", i));
  const double c = static_cast<double>(filter->NumCounters()) / keys;
  const double expected = CounterAtLeastProbability(c, k, kSaturated) *
                          static_cast<double>(filter->NumCounters());
  const double measured = static_cast<double>(filter->NumSaturated());
  // Poisson-like count: 5 standard deviations, and enough to mean something.
  ASSERT_GT(expected, 1000);
  EXPECT_NEAR(measured, expected, 5 * std::sqrt(expected))
      << "c=" << c << " k=" << k;
}

}  // namespace
}  // namespace counting_internal
}  // namespace sstfilter
