// Tests of the false-positive formulas (util/bloom_math.h): published values,
// the clamps, and a Monte-Carlo simulation of idealised filters (truly random
// probes) that the formulas must predict.

#include "util/bloom_math.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

TEST(BloomMathTest, StandardBloomFpp) {
  // (1 - e^(-6/10))^6 = 0.0084362...
  EXPECT_NEAR(StandardBloomFpp(10, 6), 0.0084362, 1e-7);
  // (1 - e^(-1))^1
  EXPECT_NEAR(StandardBloomFpp(1, 1), 1 - std::exp(-1.0), 1e-12);
  // At the optimal k = c ln 2 the rate is 2^-k, about 0.6185^c.
  EXPECT_NEAR(StandardBloomFpp(20 / std::log(2.0), 20), std::pow(0.5, 20),
              1e-12);
  // More bits per key, fewer false positives.
  EXPECT_LT(StandardBloomFpp(12, 6), StandardBloomFpp(10, 6));
}

TEST(BloomMathTest, StandardBloomBitsPerKey) {
  // -ln(0.01) / (ln 2)^2 = 9.5850...
  EXPECT_NEAR(StandardBloomBitsPerKey(0.01), 9.58506, 1e-5);
  EXPECT_NEAR(StandardBloomBitsPerKey(0.5), 1 / std::log(2.0), 1e-12);
  // Sizing then probing with the optimal k gives back the target (before
  // rounding k).
  for (double fpp : {0.1, 0.01, 0.001, 1e-6}) {
    const double c = StandardBloomBitsPerKey(fpp);
    const double k = c * std::log(2.0);
    EXPECT_NEAR(std::pow(1 - std::exp(-k / c), k), fpp, fpp * 1e-9);
  }
}

TEST(BloomMathTest, StandardBloomProbes) {
  EXPECT_EQ(StandardBloomProbes(10), 7);        // round(6.93)
  EXPECT_EQ(StandardBloomProbes(9.58506), 7);   // round(6.64)
  EXPECT_EQ(StandardBloomProbes(4.7925), 3);    // round(3.32): fpp = 10%
  EXPECT_EQ(StandardBloomProbes(14.3776), 10);  // round(9.97): fpp = 0.1%
  // Clamped to [kMinProbes, kMaxProbes].
  EXPECT_EQ(StandardBloomProbes(0.5), kMinProbes);  // round(0.35) = 0
  EXPECT_EQ(StandardBloomProbes(0), kMinProbes);
  EXPECT_EQ(StandardBloomProbes(100), kMaxProbes);    // round(69.3)
  EXPECT_EQ(StandardBloomProbes(1e300), kMaxProbes);  // beyond long's range
  EXPECT_EQ(StandardBloomProbes(std::numeric_limits<double>::infinity()),
            kMaxProbes);
  EXPECT_EQ(StandardBloomProbes(std::numeric_limits<double>::quiet_NaN()),
            kMinProbes);
  EXPECT_EQ(kMinProbes, 1);
  EXPECT_EQ(kMaxProbes, 30);
}

TEST(BloomMathTest, CacheLocalBloomFpp) {
  // RocksDB's util/bloom_impl.h: "theoretical best for 10 bits/key, 6 probes
  // and a 512-bit bucket (Poisson-distributed keys per bucket) is 0.9535% FP
  // rate".
  const double fpp = CacheLocalBloomFpp(10, 6, 512);
  EXPECT_GE(fpp, 0.00953);
  EXPECT_LE(fpp, 0.00954);
  // Confining probes to a block costs accuracy; smaller blocks cost more.
  EXPECT_GT(fpp, StandardBloomFpp(10, 6));
  EXPECT_GT(CacheLocalBloomFpp(10, 6, 256), fpp);
  // With huge blocks the block-occupancy variance vanishes: the standard
  // formula.
  EXPECT_NEAR(CacheLocalBloomFpp(10, 6, 1 << 22), StandardBloomFpp(10, 6),
              StandardBloomFpp(10, 6) * 1e-3);
}

TEST(BloomMathTest, MinBitsPerKey) {
  EXPECT_NEAR(MinBitsPerKey(0.01), 6.643856, 1e-6);
  EXPECT_DOUBLE_EQ(MinBitsPerKey(0.5), 1.0);
  EXPECT_DOUBLE_EQ(MinBitsPerKey(1.0 / 1024), 10.0);
  // A standard Bloom filter needs 1/ln 2 = 1.44 times the floor.
  EXPECT_NEAR(StandardBloomBitsPerKey(0.01) / MinBitsPerKey(0.01),
              1 / std::log(2.0), 1e-12);
}

// Measures the false-positive rate of an idealised filter: num_blocks blocks of
// block_bits bits, keys = num_blocks * block_bits / bits_per_key, each key
// setting num_probes independent uniformly random bits in one uniformly random
// block. Averages over num_filters filters, each asked queries_per_filter
// absent keys. REQUIRES: block_bits is a power of two, at least 64.
double SimulatedFpp(double bits_per_key, int num_probes, int block_bits,
                    int num_blocks, int num_filters, int queries_per_filter,
                    uint64_t seed) {
  test::Random rng(seed);
  const size_t num_keys = static_cast<size_t>(std::llround(
      static_cast<double>(num_blocks) * block_bits / bits_per_key));
  const uint64_t mask = static_cast<uint64_t>(block_bits) - 1;
  const int probe_width = static_cast<int>(std::log2(block_bits));
  // Random probe offsets within a block, several to each 64-bit draw.
  uint64_t pool = 0;
  int pool_left = 0;
  const auto next_probe = [&]() -> size_t {
    if (pool_left < probe_width) {
      pool = rng.Next64();
      pool_left = 64;
    }
    const size_t offset = static_cast<size_t>(pool & mask);
    pool >>= probe_width;
    pool_left -= probe_width;
    return offset;
  };
  std::vector<uint64_t> words;
  int64_t positives = 0;
  for (int f = 0; f < num_filters; ++f) {
    words.assign(static_cast<size_t>(num_blocks) * block_bits / 64, 0);
    uint64_t* const bits = words.data();
    for (size_t i = 0; i < num_keys; ++i) {
      const size_t block = rng.Uniform(num_blocks) * block_bits;
      for (int p = 0; p < num_probes; ++p) {
        const size_t bit = block + next_probe();
        bits[bit / 64] |= uint64_t{1} << (bit % 64);
      }
    }
    for (int q = 0; q < queries_per_filter; ++q) {
      const size_t block = rng.Uniform(num_blocks) * block_bits;
      bool all_set = true;
      // Draw every probe, so that the random stream does not depend on the
      // answers.
      for (int p = 0; p < num_probes; ++p) {
        const size_t bit = block + next_probe();
        all_set &= ((bits[bit / 64] >> (bit % 64)) & 1) != 0;
      }
      positives += all_set;
    }
  }
  return static_cast<double>(positives) /
         (static_cast<double>(num_filters) * queries_per_filter);
}

// The exact false-positive rate of the idealised filter SimulatedFpp builds,
// for Poisson-distributed keys per block: averages, over j keys in the queried
// block, E[(bits set / B)^k] after j k uniform probes (a Markov chain over the
// number of bits set). CacheLocalBloomFpp instead raises the *mean* fraction
// set to the k-th power, which by Jensen's inequality is a lower bound.
double RandomProbeBlockFpp(double bits_per_key, int num_probes,
                           int block_bits) {
  const double mean = block_bits / bits_per_key;
  const int last = static_cast<int>(mean + 12 * std::sqrt(mean) + 64);
  std::vector<double> set_count(block_bits + 1, 0.0);  // P(s bits set)
  set_count[0] = 1;
  double total = 0;
  for (int j = 0; j <= last; ++j) {
    if (j > 0) {
      for (int probe = 0; probe < num_probes; ++probe) {
        for (int s = block_bits; s >= 0; --s) {
          const double stay = set_count[s] * s / block_bits;
          const double arrive =
              s > 0 ? set_count[s - 1] * (block_bits - s + 1) / block_bits : 0;
          set_count[s] = stay + arrive;
        }
      }
    }
    double moment = 0;  // E[(s / B)^k]
    for (int s = 0; s <= block_bits; ++s) {
      moment += set_count[s] *
                std::pow(static_cast<double>(s) / block_bits, num_probes);
    }
    const double log_pmf = -mean + j * std::log(mean) - std::lgamma(j + 1.0);
    total += std::exp(log_pmf) * moment;
  }
  return total;
}

struct SimulationCase {
  double bits_per_key;
  int num_probes;
  int block_bits;
  int num_blocks;
};

// Each case draws about 20,000 false positives over 20 filters of 2^17 bits or
// more: the simulation's relative standard error is about 1%, so a 4% margin is
// four standard errors.
TEST(BloomMathTest, CacheLocalBloomFppAgainstSimulation) {
  const SimulationCase kCases[] = {{10, 6, 512, 256},
                                   {8, 5, 256, 512},
                                   {16, 11, 512, 256},
                                   {10, 6, 64, 2048}};
  uint64_t seed = 0xb100f;
  for (const SimulationCase& c : kCases) {
    const double formula =
        CacheLocalBloomFpp(c.bits_per_key, c.num_probes, c.block_bits);
    const double exact =
        RandomProbeBlockFpp(c.bits_per_key, c.num_probes, c.block_bits);
    const int queries = static_cast<int>(std::lround(1000.0 / exact));
    ++seed;
    SCOPED_TRACE(testing::Message()
                 << "c=" << c.bits_per_key << " k=" << c.num_probes
                 << " B=" << c.block_bits << " seed=" << seed);
    const double simulated =
        SimulatedFpp(c.bits_per_key, c.num_probes, c.block_bits, c.num_blocks,
                     /*num_filters=*/20, queries, seed);
    // The simulation confirms the exact computation...
    EXPECT_NEAR(simulated, exact, 0.04 * exact);
    // ...which the formula bounds from below, closely for cache-line blocks.
    EXPECT_LT(formula, exact);
    if (c.block_bits >= 256) {
      EXPECT_GT(formula, exact / 1.04);
    }
    // The simulation resolves the cost of cache locality (10-85% here).
    EXPECT_GT(simulated, 1.08 * StandardBloomFpp(c.bits_per_key, c.num_probes));
  }
}

// At 64-bit blocks the formula is 9% below the random-probe rate; the
// simulation sees it.
TEST(BloomMathTest, SimulationResolvesTheFormulasGapAtSmallBlocks) {
  const double formula = CacheLocalBloomFpp(10, 6, 64);
  const double exact = RandomProbeBlockFpp(10, 6, 64);
  EXPECT_NEAR(exact / formula, 1.094, 0.001);  // 1.8765% against 1.7155%
  const double simulated =
      SimulatedFpp(10, 6, 64, /*num_blocks=*/2048, /*num_filters=*/80,
                   static_cast<int>(1000 / exact), 0xe4ac7);
  // About 80,000 false positives: relative standard error near 0.5%.
  EXPECT_NEAR(simulated, exact, 0.02 * exact);
  EXPECT_GT(simulated, 1.06 * formula);
}

// One block spanning the whole filter is a standard Bloom filter.
TEST(BloomMathTest, StandardBloomFppMatchesSimulation) {
  uint64_t seed = 0x5a4d;
  for (const auto& [bits_per_key, num_probes] :
       std::vector<std::pair<double, int>>{{10, 6}, {10, 3}, {5, 3}}) {
    const double predicted = StandardBloomFpp(bits_per_key, num_probes);
    const int queries = static_cast<int>(std::lround(1000.0 / predicted));
    ++seed;
    SCOPED_TRACE(testing::Message() << "c=" << bits_per_key
                                    << " k=" << num_probes << " seed=" << seed);
    const double simulated =
        SimulatedFpp(bits_per_key, num_probes, /*block_bits=*/1 << 17,
                     /*num_blocks=*/1, /*num_filters=*/20, queries, seed);
    EXPECT_NEAR(simulated, predicted, 0.04 * predicted);
  }
}

// The layout's prepared rates are the one-off functions' values, its optimal k
// is the best of a full scan, and its sizing search returns the smallest
// bits/key that reaches the rate.
TEST(BloomMathTest, LocalBloomLayoutSearches) {
  for (const double block_bits : {128.0, 512.0}) {
    const LocalBloomLayout layout(block_bits);
    for (double c = 1.0; c <= 100.0; c *= 1.37) {
      SCOPED_TRACE(testing::Message() << "B=" << block_bits << " c=" << c);
      int scanned = kMinProbes;
      for (int k = kMinProbes; k <= kMaxProbes; ++k) {
        EXPECT_EQ(layout.Fpp(c, k), LocalBloomFpp(c, k, block_bits)) << k;
        EXPECT_EQ(layout.FppWithKeys(c, k),
                  LocalBloomFppWithKeys(c, k, block_bits))
            << k;
        if (layout.Fpp(c, k) < layout.Fpp(c, scanned)) scanned = k;
      }
      EXPECT_EQ(layout.OptimalProbes(c), scanned);
      EXPECT_EQ(layout.OptimalFpp(c), layout.Fpp(c, scanned));
    }
    for (const double fpp : {0.2, 0.03, 0.01, 1e-4, 1e-6}) {
      SCOPED_TRACE(testing::Message() << "B=" << block_bits << " p=" << fpp);
      const double c = layout.SmallestBitsPerKey(fpp, 1.0, 100.0);
      EXPECT_LE(layout.OptimalFpp(c), fpp);
      EXPECT_GT(layout.OptimalFpp(c * (1 - 1e-7)), fpp);
    }
    // A rate that 1 bit/key already reaches.
    EXPECT_EQ(layout.SmallestBitsPerKey(0.9, 1.0, 100.0), 1.0);
  }
}

// SampledFpp's hashes are distinct and spread evenly: the share of them in any
// interval of the 32-bit values is the interval's share to within two
// samples (a Weyl sequence with a golden-ratio step), so a sampled rate has
// only the error of its sample count.
TEST(BloomMathTest, SampledFppSpreadsItsHashes) {
  std::set<uint32_t> seen;
  EXPECT_EQ(SampledFpp([&seen](uint32_t hash) {
              seen.insert(hash);
              return true;
            }),
            1.0);
  EXPECT_EQ(seen.size(), kFppSampleHashes);
  for (const double share : {0.5, 0.1, 0.01, 1.0 / 4096}) {
    const auto limit = static_cast<uint32_t>(share * 4294967296.0);
    for (size_t samples : {kFppSampleHashes, size_t{1} << 12}) {
      EXPECT_NEAR(
          SampledFpp([limit](uint32_t hash) { return hash < limit; }, samples),
          share, 2.0 / static_cast<double>(samples))
          << share << " of " << samples;
    }
  }
}

}  // namespace
}  // namespace sstfilter
