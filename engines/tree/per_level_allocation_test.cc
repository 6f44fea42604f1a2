#include "engines/tree/per_level_allocation.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "filter/bloom/bloom.h"
#include "filter/bloom/bloom_sizing.h"
#include "filter/filter_policy.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

using ::testing::HasSubstr;

std::vector<TreeLevel> SevenLevels() {
  absl::StatusOr<std::vector<TreeLevel>> tree = LeveledTree(7, 10);
  EXPECT_TRUE(tree.ok()) << tree.status();
  return tree.ok() ? *tree : std::vector<TreeLevel>();
}

// sum n_i c_i / sum n_i, recomputed here rather than trusted from the result.
double SpentBitsPerKey(const std::vector<TreeLevel>& tree,
                       const FilterAllocation& allocation) {
  double bits = 0;
  double keys = 0;
  for (size_t i = 0; i < tree.size(); ++i) {
    bits += tree[i].keys * allocation.levels[i].bits_per_key;
    keys += tree[i].keys;
  }
  return bits / keys;
}

double ExpectedReads(const std::vector<TreeLevel>& tree,
                     const FilterAllocation& allocation) {
  double reads = 0;
  for (size_t i = 0; i < tree.size(); ++i) {
    reads += tree[i].runs * allocation.levels[i].fpp;
  }
  return reads;
}

// The rate of the native filter at c bits/key with its best k: what its
// policy promises for FilterOptions::BitsPerKey(c).
double NativeFpp(double bits_per_key) {
  return bloom::LayoutFpp(bits_per_key, bloom::OptimalProbes(bits_per_key));
}

// Monkey's and the uniform allocation of budget over tree, native cost.
struct Allocations {
  FilterAllocation monkey;
  FilterAllocation uniform;
};

void AllocateBoth(const std::vector<TreeLevel>& tree, double budget,
                  Allocations* out) {
  absl::StatusOr<FilterAllocation> monkey =
      AllocateFilterBits(tree, budget, NativeBloomCost());
  ASSERT_TRUE(monkey.ok()) << monkey.status();
  absl::StatusOr<FilterAllocation> uniform =
      UniformFilterBits(tree, budget, NativeBloomCost());
  ASSERT_TRUE(uniform.ok()) << uniform.status();
  out->monkey = *std::move(monkey);
  out->uniform = *std::move(uniform);
}

TEST(LeveledTreeTest, EachLevelFanOutTimesTheOneAbove) {
  const std::vector<TreeLevel> tree = SevenLevels();
  ASSERT_EQ(tree.size(), 7u);
  for (size_t i = 0; i < tree.size(); ++i) {
    EXPECT_DOUBLE_EQ(tree[i].keys, std::pow(10.0, i));
    EXPECT_EQ(tree[i].runs, 1);
  }
}

TEST(LeveledTreeTest, RefusesBadShapesNamingTheValue) {
  for (int levels : {0, -1, 65}) {
    const absl::Status s = LeveledTree(levels, 10).status();
    EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
    EXPECT_THAT(std::string(s.message()),
                HasSubstr(absl::StrCat("num_levels ", levels)));
  }
  for (double fan_out : {0.5, 1001.0, std::nan("")}) {
    const absl::Status s = LeveledTree(7, fan_out).status();
    EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
    EXPECT_THAT(std::string(s.message()),
                HasSubstr(absl::StrCat("fan_out ", fan_out)));
  }
}

// Under the standard cost the Lagrange solution is exact and closed-form:
// p_i = lambda w_i with w_i = n_i / r_i, and sum n_i ln(1/p_i) = B (ln 2)^2
// gives ln lambda = -(B (ln 2)^2 + sum n_i ln w_i) / sum n_i.
TEST(AllocateFilterBitsTest, StandardCostMatchesTheClosedForm) {
  const std::vector<TreeLevel> tree = {{4, 4}, {10, 1}, {100, 1}, {1000, 1}};
  const double budget = 8;
  absl::StatusOr<FilterAllocation> got =
      AllocateFilterBits(tree, budget, StandardBloomCost());
  ASSERT_TRUE(got.ok()) << got.status();

  const double ln2_squared = std::log(2.0) * std::log(2.0);
  double keys = 0;
  double weighted_log_w = 0;
  for (const TreeLevel& level : tree) {
    keys += level.keys;
    weighted_log_w += level.keys * std::log(level.keys / level.runs);
  }
  const double log_lambda =
      -(budget * keys * ln2_squared + weighted_log_w) / keys;
  for (size_t i = 0; i < tree.size(); ++i) {
    const double want = std::exp(log_lambda) * tree[i].keys / tree[i].runs;
    EXPECT_NEAR(got->levels[i].fpp, want, 1e-9 * want) << "level " << i;
  }
  // L0's four runs of one key each: a quarter of L1's rate per key per run.
  EXPECT_NEAR(got->levels[0].fpp / got->levels[1].fpp, 0.1, 1e-9);
}

// Under the standard cost the allocation is the true optimum: moving bits
// from any level to any other, at the same total, never lowers the reads.
TEST(AllocateFilterBitsTest, StandardCostNoTransferOfBitsHelps) {
  const std::vector<TreeLevel> tree = SevenLevels();
  const FilterCost& cost = StandardBloomCost();
  absl::StatusOr<FilterAllocation> got = AllocateFilterBits(tree, 10, cost);
  ASSERT_TRUE(got.ok()) << got.status();
  const double ln2_squared = std::log(2.0) * std::log(2.0);
  for (size_t from = 0; from < tree.size(); ++from) {
    for (size_t to = 0; to < tree.size(); ++to) {
      if (from == to) continue;
      // delta bits/key out of `from` buys delta * n_from / n_to in `to`.
      const double delta = 0.05;
      const double c_from = got->levels[from].bits_per_key - delta;
      const double c_to = got->levels[to].bits_per_key +
                          delta * tree[from].keys / tree[to].keys;
      if (c_to > 100) continue;
      const double moved =
          got->expected_reads - got->levels[from].fpp - got->levels[to].fpp +
          std::exp(-c_from * ln2_squared) + std::exp(-c_to * ln2_squared);
      EXPECT_GT(moved, got->expected_reads)
          << "moving bits from level " << from << " to " << to;
    }
  }
}

TEST(AllocateFilterBitsTest, SpendsTheBudget) {
  const std::vector<TreeLevel> tree = SevenLevels();
  for (double budget : {2.0, 5.0, 10.0, 16.0, 40.0}) {
    absl::StatusOr<FilterAllocation> got =
        AllocateFilterBits(tree, budget, NativeBloomCost());
    ASSERT_TRUE(got.ok()) << got.status();
    // Well within 0.5%: the search stops a relative 1e-10 short at most, and
    // the native sizing is exact to 1e-9.
    EXPECT_NEAR(SpentBitsPerKey(tree, *got), budget, 1e-6 * budget)
        << "budget " << budget;
    EXPECT_NEAR(got->bits_per_key, SpentBitsPerKey(tree, *got), 1e-9);
    EXPECT_NEAR(got->expected_reads, ExpectedReads(tree, *got), 1e-12);
  }
}

// Each level's bits/key is what the native policy builds for its rate, so
// a store that asks the policy for either gets the same filter.
TEST(AllocateFilterBitsTest, BitsAreThoseTheNativePolicyChooses) {
  const std::vector<TreeLevel> tree = SevenLevels();
  absl::StatusOr<FilterAllocation> got =
      AllocateFilterBits(tree, 10, NativeBloomCost());
  ASSERT_TRUE(got.ok()) << got.status();
  for (size_t i = 0; i < tree.size(); ++i) {
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
        NewBloomFilterPolicy(FilterOptions::Fpp(got->levels[i].fpp));
    ASSERT_TRUE(policy.ok()) << policy.status();
    EXPECT_DOUBLE_EQ((*policy)->BitsPerKey(), got->levels[i].bits_per_key);
    EXPECT_NEAR(NativeFpp(got->levels[i].bits_per_key), got->levels[i].fpp,
                1e-6 * got->levels[i].fpp);
  }
}

TEST(AllocateFilterBitsTest, LargerLevelsGetHigherRatesAndFewerBits) {
  const std::vector<TreeLevel> tree = SevenLevels();
  absl::StatusOr<FilterAllocation> got =
      AllocateFilterBits(tree, 10, NativeBloomCost());
  ASSERT_TRUE(got.ok()) << got.status();
  for (size_t i = 1; i < tree.size(); ++i) {
    EXPECT_GT(got->levels[i].fpp, got->levels[i - 1].fpp) << "level " << i;
    EXPECT_LT(got->levels[i].bits_per_key, got->levels[i - 1].bits_per_key)
        << "level " << i;
  }
}

// The figure Monkey is about: the expected table reads of a lookup that finds
// nothing, on a 7-level tree with fan-out 10 at 10 bits/key.
TEST(AllocateFilterBitsTest, FewerReadsThanUniformOnSevenLevels) {
  const std::vector<TreeLevel> tree = SevenLevels();
  Allocations both;
  ASSERT_NO_FATAL_FAILURE(AllocateBoth(tree, 10, &both));
  const FilterAllocation& monkey = both.monkey;
  const FilterAllocation& uniform = both.uniform;
  std::printf(
      "7 levels, fan-out 10, 10 bits/key: expected reads %.4f "
      "per-level, %.4f uniform\n",
      monkey.expected_reads, uniform.expected_reads);
  for (size_t i = 0; i < tree.size(); ++i) {
    std::printf("  level %zu: %.3f bits/key, fpp %.3g\n", i,
                monkey.levels[i].bits_per_key, monkey.levels[i].fpp);
  }
  testing::Test::RecordProperty("expected_reads_per_level",
                                absl::StrCat(monkey.expected_reads));
  testing::Test::RecordProperty("expected_reads_uniform",
                                absl::StrCat(uniform.expected_reads));
  // Uniform: seven filters of the native rate at 10 bits/key.
  EXPECT_NEAR(uniform.expected_reads, 7 * NativeFpp(10), 1e-6);
  // Each level's rate a tenth of the next one's, as its keys are.
  for (size_t i = 0; i + 1 < tree.size(); ++i) {
    EXPECT_NEAR(monkey.levels[i].fpp / monkey.levels[i + 1].fpp, 0.1, 1e-9)
        << "level " << i;
  }
  // Monkey's drop: the per-level sum is about the largest level's rate alone,
  // p_6 (1 + 1/10 + 1/100 + ...), against seven uniform rates; p_6 is higher
  // than the uniform rate (the largest level gives up bits) but not 1.5 times
  // higher, so the sum falls by more than 7 / (1.5 * 1.12) = 4.2 times.
  EXPECT_LT(monkey.levels[6].fpp, 1.5 * uniform.levels[6].fpp);
  EXPECT_LT(monkey.expected_reads, uniform.expected_reads / 4.2);
}

// Under the native cost, proportional rates are Monkey's form rather than the
// exact optimum (the cache-local filter costs relatively more at very low
// rates); moving bits between levels gains almost nothing.
TEST(AllocateFilterBitsTest, NativeCostTransfersOfBitsGainLittle) {
  const std::vector<TreeLevel> tree = SevenLevels();
  absl::StatusOr<FilterAllocation> got =
      AllocateFilterBits(tree, 10, NativeBloomCost());
  ASSERT_TRUE(got.ok()) << got.status();
  double best_gain = 0;
  for (size_t from = 0; from < tree.size(); ++from) {
    for (size_t to = 0; to < tree.size(); ++to) {
      if (from == to) continue;
      for (double delta : {0.01, 0.1, 1.0}) {
        const double c_from = got->levels[from].bits_per_key - delta;
        const double c_to = got->levels[to].bits_per_key +
                            delta * tree[from].keys / tree[to].keys;
        if (c_from < kMinBitsPerKey || c_to > kMaxBitsPerKey) continue;
        const double moved = got->expected_reads - got->levels[from].fpp -
                             got->levels[to].fpp + NativeFpp(c_from) +
                             NativeFpp(c_to);
        best_gain = std::max(best_gain, 1 - moved / got->expected_reads);
      }
    }
  }
  std::printf("best gain from moving bits: %.3g%%\n", 100 * best_gain);
  // Measured: 0.03%.
  EXPECT_LT(best_gain, 0.001);
}

TEST(AllocateFilterBitsTest, EqualLevelsGetTheUniformAllocation) {
  const std::vector<TreeLevel> tree(5, TreeLevel{1000, 1});
  Allocations both;
  ASSERT_NO_FATAL_FAILURE(AllocateBoth(tree, 10, &both));
  const FilterAllocation& monkey = both.monkey;
  const FilterAllocation& uniform = both.uniform;
  for (size_t i = 0; i < tree.size(); ++i) {
    EXPECT_NEAR(monkey.levels[i].bits_per_key, 10, 1e-6);
    EXPECT_NEAR(uniform.levels[i].bits_per_key, 10, 1e-6);
    EXPECT_NEAR(monkey.levels[i].fpp, uniform.levels[i].fpp, 1e-9);
  }
}

TEST(AllocateFilterBitsTest, OneLevelGetsTheWholeBudget) {
  const std::vector<TreeLevel> tree = {{123, 1}};
  absl::StatusOr<FilterAllocation> got =
      AllocateFilterBits(tree, 7.5, NativeBloomCost());
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_NEAR(got->levels[0].bits_per_key, 7.5, 1e-6);
  EXPECT_NEAR(got->levels[0].fpp, NativeFpp(7.5), 1e-6 * NativeFpp(7.5));
}

TEST(AllocateFilterBitsTest, ZeroBudgetBuildsNoFilters) {
  const std::vector<TreeLevel> tree = {{1, 4}, {10, 1}, {100, 1}};
  absl::StatusOr<FilterAllocation> got =
      AllocateFilterBits(tree, 0, NativeBloomCost());
  ASSERT_TRUE(got.ok()) << got.status();
  for (const LevelFilter& level : got->levels) {
    EXPECT_EQ(level.fpp, 1.0);
    EXPECT_EQ(level.bits_per_key, 0.0);
  }
  EXPECT_EQ(got->expected_reads, 6.0);  // every run of every level
  EXPECT_EQ(got->bits_per_key, 0.0);
}

// 1 bit/key over the tree cannot give every level the smallest filter to any
// effect: the uniform filters are 1 bit/key each (about 60% false positives
// each). Dropping the largest level's filter pays 9 bits/key to the others.
TEST(AllocateFilterBitsTest, SmallBudgetDropsTheLargestLevelsFilter) {
  const std::vector<TreeLevel> tree = SevenLevels();
  Allocations both;
  ASSERT_NO_FATAL_FAILURE(AllocateBoth(tree, 1, &both));
  const FilterAllocation& monkey = both.monkey;
  const FilterAllocation& uniform = both.uniform;
  EXPECT_EQ(monkey.levels[6].bits_per_key, 0.0);
  EXPECT_EQ(monkey.levels[6].fpp, 1.0);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_GE(monkey.levels[i].bits_per_key, 1.0) << "level " << i;
  }
  EXPECT_NEAR(SpentBitsPerKey(tree, monkey), 1.0, 1e-6);
  EXPECT_LT(monkey.expected_reads, uniform.expected_reads / 3);
}

// A budget below the smallest filter: only the largest levels can go without,
// and the spend never exceeds the budget.
TEST(AllocateFilterBitsTest, BudgetBelowTheSmallestFilter) {
  const std::vector<TreeLevel> tree = SevenLevels();
  absl::StatusOr<FilterAllocation> got =
      AllocateFilterBits(tree, 0.5, NativeBloomCost());
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->levels[6].bits_per_key, 0.0);
  EXPECT_LE(SpentBitsPerKey(tree, *got), 0.5 * (1 + 1e-9));
  EXPECT_LT(got->expected_reads, 7.0);

  const absl::Status s =
      UniformFilterBits(tree, 0.5, NativeBloomCost()).status();
  EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("0.5"));
}

// The largest budget gives every level the largest filter.
TEST(AllocateFilterBitsTest, LargestBudgetIsTheLargestFilterEverywhere) {
  const std::vector<TreeLevel> tree = SevenLevels();
  absl::StatusOr<FilterAllocation> got =
      AllocateFilterBits(tree, kMaxBitsPerKey, NativeBloomCost());
  ASSERT_TRUE(got.ok()) << got.status();
  const FilterCost& cost = NativeBloomCost();
  for (const LevelFilter& level : got->levels) {
    EXPECT_EQ(level.fpp, cost.min_fpp);
    EXPECT_EQ(level.bits_per_key, cost.bits_per_key(cost.min_fpp));
  }
}

TEST(AllocateFilterBitsTest, RefusesBadInputNamingTheValue) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    std::vector<TreeLevel> tree;
    double budget;
    std::string named;
  };
  const std::vector<Case> cases = {
      {{}, 10, "no levels"},
      {{{10, 1}, {0, 1}}, 10, "level 1 has keys 0"},
      {{{-5, 1}}, 10, "level 0 has keys -5"},
      {{{nan, 1}}, 10, "level 0 has keys nan"},
      {{{inf, 1}}, 10, "level 0 has keys inf"},
      {{{10, 0}}, 10, "level 0 has runs 0"},
      {{{1e308, 1}, {1e308, 1}}, 10, "add up"},
      {{{10, 1}}, -1, "budget_bits_per_key -1"},
      {{{10, 1}}, 101, "budget_bits_per_key 101"},
      {{{10, 1}}, nan, "budget_bits_per_key nan"},
  };
  for (const Case& c : cases) {
    for (const absl::Status& s :
         {AllocateFilterBits(c.tree, c.budget, NativeBloomCost()).status(),
          UniformFilterBits(c.tree, c.budget, NativeBloomCost()).status()}) {
      EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
      EXPECT_THAT(std::string(s.message()), HasSubstr(c.named));
    }
  }
  FilterCost no_function;
  no_function.min_fpp = 0.001;
  no_function.max_fpp = 0.5;
  const absl::Status s =
      AllocateFilterBits({{10, 1}}, 10, no_function).status();
  EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
}

}  // namespace
}  // namespace sstfilter
