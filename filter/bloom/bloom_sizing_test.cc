// The native Bloom filter's false-positive formula and sizing: the closed forms
// in util/bloom_math.h against a direct computation, the optimal-k search
// against a full scan, and fpp -> bits/key.

#include "filter/bloom/bloom_sizing.h"

#include <cmath>
#include <vector>

#include "filter/filter_policy.h"
#include "gtest/gtest.h"
#include "util/bloom_math.h"

namespace sstfilter {
namespace bloom_internal {
namespace {

// P(false positive) for one block of `bits` bits holding `keys` keys with k
// independent uniform probes each, by dynamic programming over the number of
// set bits (exact, and independent of the inclusion-exclusion closed form).
double DirectFppWithKeys(int keys, int k, int bits) {
  std::vector<double> set_count(bits + 1, 0.0);  // P(s bits set)
  set_count[0] = 1.0;
  for (int probe = 0; probe < keys * k; ++probe) {
    std::vector<double> next(bits + 1, 0.0);
    for (int s = 0; s <= bits; ++s) {
      if (set_count[s] == 0.0) continue;
      next[s] += set_count[s] * s / bits;
      if (s < bits) next[s + 1] += set_count[s] * (bits - s) / bits;
    }
    set_count.swap(next);
  }
  double fpp = 0.0;
  for (int s = 0; s <= bits; ++s)
    fpp += set_count[s] * std::pow(double(s) / bits, k);
  return fpp;
}

TEST(LocalBloomFppTest, WithKeysMatchesDirectComputation) {
  for (int bits : {8, 16, 64, 200}) {
    for (int k : {1, 2, 3, 6, 9}) {
      for (int keys : {0, 1, 2, 5, 13}) {
        const double direct = DirectFppWithKeys(keys, k, bits);
        EXPECT_NEAR(LocalBloomFppWithKeys(keys, k, bits), direct,
                    1e-12 + 1e-9 * direct)
            << bits << " " << k << " " << keys;
      }
    }
  }
}

TEST(LocalBloomFppTest, PoissonAverageMatchesDirectComputation) {
  for (double c : {4.0, 10.0}) {
    for (int k : {3, 6}) {
      const int bits = 128;
      const double mean = bits / c;
      double direct = 0.0;
      double log_pmf = -mean;
      for (int j = 0; j < 120; ++j) {
        if (j > 0) log_pmf += std::log(mean / j);
        direct += std::exp(log_pmf) * DirectFppWithKeys(j, k, bits);
      }
      EXPECT_NEAR(LocalBloomFpp(c, k, bits), direct, 1e-9 * direct)
          << c << " " << k;
    }
  }
}

TEST(LocalBloomFppTest, AboveTheMeanFillApproximation) {
  // Jensen: the exact rate exceeds (mean fill)^k, for 512-bit blocks by about
  // 1% at 10 bits/key and 6 probes.
  const double exact = LocalBloomFpp(10, 6, 512);
  const double approx = CacheLocalBloomFpp(10, 6, 512);
  EXPECT_GT(exact, approx);
  EXPECT_LT(exact, 1.02 * approx);
  // Large blocks approach the standard Bloom filter.
  EXPECT_NEAR(LocalBloomFpp(10, 7, 1 << 20), StandardBloomFpp(10, 7),
              1e-3 * 0.01);
}

// LayoutFpp reads a table prepared once per k; it must be the formula itself,
// for every k the format stores.
TEST(BloomSizingTest, LayoutFppIsTheLocalBloomFormula) {
  for (int k = kMinProbes; k <= kMaxProbes; ++k) {
    for (double c : {1.0, 2.5, 9.6, 10.0, 44.0, 100.0}) {
      EXPECT_EQ(LayoutFpp(c, k), LocalBloomFpp(c, k, kBlockBits))
          << c << " " << k;
    }
  }
}

TEST(BloomSizingTest, OptimalProbesIsTheMinimum) {
  for (double c = 1.0; c <= 100.0; c += 0.37) {
    int best = kMinProbes;
    for (int k = kMinProbes; k <= kMaxProbes; ++k) {
      if (LayoutFpp(c, k) < LayoutFpp(c, best)) best = k;
    }
    EXPECT_EQ(OptimalProbes(c), best) << c;
  }
  EXPECT_EQ(OptimalProbes(10), 6);
}

TEST(BloomSizingTest, SizeForFpp) {
  for (double fpp = 0.5; fpp >= 1e-7; fpp /= 1.7) {
    absl::StatusOr<BloomSizing> sizing = SizeForFpp(fpp);
    ASSERT_TRUE(sizing.ok()) << fpp;
    const double c = sizing->bits_per_key;
    EXPECT_EQ(sizing->num_probes, OptimalProbes(c));
    EXPECT_LE(LayoutFpp(c, sizing->num_probes), fpp);
    // Smallest such c (the bisection's tolerance is 1e-9 relative).
    if (c > kMinBitsPerKey) {
      EXPECT_GT(LayoutFpp(c * (1 - 1e-6), OptimalProbes(c * (1 - 1e-6))), fpp)
          << fpp;
    }
    // Never below the information-theoretic floor.
    EXPECT_GT(c, MinBitsPerKey(fpp));
  }
  EXPECT_EQ(SizeForFpp(0.99)->bits_per_key, kMinBitsPerKey);
  EXPECT_EQ(SizeForFpp(1e-20).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// SizeForFpp keeps its last answers: each fpp, asked again after others, in
// any order and beyond what it keeps, gets the search's own answer.
TEST(BloomSizingTest, SizeForFppAnswersRepeatedFppsAsTheSearchDoes) {
  static const LocalBloomLayout* const layout =
      new LocalBloomLayout(static_cast<double>(kBlockBits));
  std::vector<double> fpps;
  for (int i = 0; i < 40; ++i) fpps.push_back(0.3 / (1 + 0.37 * i));
  std::vector<double> order = fpps;
  order.insert(order.end(), fpps.rbegin(), fpps.rend());
  for (size_t i = 0; i < fpps.size(); i += 3) {
    order.push_back(fpps[i]);
    order.push_back(fpps[i]);
  }
  for (const double fpp : order) {
    const double searched =
        layout->SmallestBitsPerKey(fpp, kMinBitsPerKey, kMaxBitsPerKey);
    absl::StatusOr<BloomSizing> sizing = SizeForFpp(fpp);
    ASSERT_TRUE(sizing.ok()) << fpp;
    EXPECT_EQ(sizing->bits_per_key, searched) << fpp;
    EXPECT_EQ(sizing->num_probes, OptimalProbes(searched)) << fpp;
  }
}

TEST(BloomSizingTest, BodyBytes) {
  EXPECT_EQ(BodyBytes(0, 10), 0u);
  EXPECT_EQ(BodyBytes(1, 10), 2u);
  EXPECT_EQ(BodyBytes(1, 1), 1u);
  EXPECT_EQ(BodyBytes(1000, 10), 1250u);
  EXPECT_EQ(BodyBytes(1001, 10), 1252u);
  // Beyond 32 bits: 10^10 keys.
  EXPECT_EQ(BodyBytes(10000000000ULL, 10), 12500000000ULL);
}

}  // namespace
}  // namespace bloom_internal
}  // namespace sstfilter
