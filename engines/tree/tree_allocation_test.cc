// The tree-wide allocation against brute force on small trees (every
// assignment of families, a grid of rates), its budget spent exactly, the
// Bloom-before-level rule, and its inputs checked.

#include "engines/tree/tree_allocation.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

constexpr int kGrid = 160;       // rates per level in the brute force
constexpr int kFineGrid = 4000;  // rates for the last level

// A family's exact cost at kGrid rates evenly spaced in ln p, and at a finer
// grid to spend what is left at the last level (rounded to the next rate up,
// so every solution brute force considers is affordable).
struct Table {
  explicit Table(const FilterCost& cost) {
    const double lo = std::log(cost.min_fpp), hi = std::log(cost.max_fpp);
    for (int g = 0; g < kGrid; ++g) {
      p.push_back(std::exp(lo + (hi - lo) * g / (kGrid - 1)));
      bits.push_back(cost.bits_per_key(p.back()));
    }
    for (int g = 0; g < kFineGrid; ++g) {
      fine_p.push_back(std::exp(lo + (hi - lo) * g / (kFineGrid - 1)));
      fine_bits.push_back(cost.bits_per_key(fine_p.back()));
    }
  }
  // The smallest rate of the fine grid that costs at most b bits/key.
  std::optional<double> RateForBits(double b) const {
    for (size_t g = 0; g < fine_p.size(); ++g) {
      if (fine_bits[g] <= b) return fine_p[g];
    }
    return std::nullopt;
  }
  std::vector<double> p, bits, fine_p, fine_bits;
};

// The fewest expected reads over every family per level (bloom_before_level
// respected) and kGrid rates for each level but the last, whose rate spends
// what is left of the budget.
double BruteForce(const std::vector<TreeLevel>& tree, double budget,
                  int bloom_before_level) {
  static const Table* const native = new Table(NativeBloomCost());
  static const Table* const compact = new Table(CompactFilterCost());
  double total_keys = 0;
  for (const TreeLevel& level : tree) total_keys += level.keys;
  const size_t n = tree.size();
  double best = std::numeric_limits<double>::infinity();
  const auto table_of = [&](int f) -> const Table& {
    return f == 1 ? *native : *compact;
  };
  const std::function<void(size_t, double, double)> walk =
      [&](size_t i, double bits_left, double reads) {
        if (bits_left < 0) return;
        if (i + 1 == n) {
          // The last level: no filter, or each family at the rate that
          // spends the rest.
          best = std::min(best, reads + tree[i].runs);
          for (int f = 1; f <= 2; ++f) {
            if (f == 2 && static_cast<int>(i) < bloom_before_level) continue;
            std::optional<double> p =
                table_of(f).RateForBits(bits_left / tree[i].keys);
            if (p.has_value()) best = std::min(best, reads + tree[i].runs * *p);
          }
          return;
        }
        walk(i + 1, bits_left, reads + tree[i].runs);
        for (int f = 1; f <= 2; ++f) {
          if (f == 2 && static_cast<int>(i) < bloom_before_level) continue;
          const Table& table = table_of(f);
          for (int g = 0; g < kGrid; ++g) {
            walk(i + 1, bits_left - tree[i].keys * table.bits[g],
                 reads + tree[i].runs * table.p[g]);
          }
        }
      };
  walk(0, budget * total_keys, 0);
  return best;
}

struct Case {
  std::vector<TreeLevel> tree;
  double budget;
  int bloom_before_level;
};

TEST(TreeAllocationTest, NoWorseThanBruteForceOnSmallTrees) {
  const std::vector<Case> cases = {
      {{{1, 1}, {10, 1}}, 10, 0},
      {{{1, 1}, {10, 1}}, 3, 0},
      {{{1, 4}, {10, 1}}, 6, 1},
      {{{1, 1}, {10, 1}, {100, 1}}, 10, 0},
      {{{1, 1}, {10, 1}, {100, 1}}, 10, 1},
      {{{1, 4}, {5, 1}, {100, 1}}, 5, 0},
      {{{1, 1}, {10, 1}, {100, 1}}, 1.5, 0},
      {{{3, 1}, {3, 1}, {3, 1}}, 16, 2},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(absl::StrCat(c.tree.size(), " levels, budget ", c.budget,
                              ", bloom before ", c.bloom_before_level));
    absl::StatusOr<TreeAllocation> ours =
        AllocateTreeFilters(c.tree, c.budget, {c.bloom_before_level});
    ASSERT_TRUE(ours.ok()) << ours.status();
    const double brute = BruteForce(c.tree, c.budget, c.bloom_before_level);
    // Brute force's solutions are all affordable, so it bounds the optimum
    // from above. The native filter's cost has kinks where its probe count
    // changes, which stationarity does not see: on these trees ours trails
    // brute force by at most 0.2%, and must stay within 0.5%.
    EXPECT_LE(ours->expected_reads, brute * 1.005 + 1e-15)
        << "ours " << ours->expected_reads << ", brute force " << brute;
    EXPECT_LE(ours->bits_per_key, c.budget * (1 + 1e-9));
  }
}

TEST(TreeAllocationTest, SpendsTheBudget) {
  absl::StatusOr<std::vector<TreeLevel>> tree = LeveledTree(7, 10);
  ASSERT_TRUE(tree.ok());
  for (double budget : {2.0, 5.0, 10.0, 16.0}) {
    absl::StatusOr<TreeAllocation> a = AllocateTreeFilters(*tree, budget, {});
    ASSERT_TRUE(a.ok()) << a.status();
    EXPECT_LE(a->bits_per_key, budget) << budget;
    EXPECT_GE(a->bits_per_key, budget * (1 - 1e-6)) << budget;
    double reads = 0;
    for (size_t i = 0; i < tree->size(); ++i) {
      const LevelChoice& level = a->levels[i];
      reads += (*tree)[i].runs * level.fpp;
      if (level.family == FilterFamily::kNone) {
        EXPECT_EQ(level.fpp, 1.0);
        EXPECT_EQ(level.bits_per_key, 0.0);
      }
    }
    EXPECT_DOUBLE_EQ(reads, a->expected_reads);
  }
}

TEST(TreeAllocationTest, BeatsMonkeyWithOneFamily) {
  absl::StatusOr<std::vector<TreeLevel>> tree = LeveledTree(7, 10);
  ASSERT_TRUE(tree.ok());
  absl::StatusOr<TreeAllocation> hybrid = AllocateTreeFilters(*tree, 10, {});
  absl::StatusOr<FilterAllocation> monkey =
      AllocateFilterBits(*tree, 10, NativeBloomCost());
  ASSERT_TRUE(hybrid.ok() && monkey.ok());
  for (size_t i = 0; i < tree->size(); ++i) {
    std::printf("L%zu: %s, fpp %.3g, %.2f bits/key (Monkey, native: %.2f)\n", i,
                FilterFamilyName(hybrid->levels[i].family),
                hybrid->levels[i].fpp, hybrid->levels[i].bits_per_key,
                monkey->levels[i].bits_per_key);
  }
  std::printf("expected reads: %.5f, Monkey with the native filter %.5f\n",
              hybrid->expected_reads, monkey->expected_reads);
  EXPECT_LT(hybrid->expected_reads, monkey->expected_reads);
  // The largest level, where most keys are, takes the compact filter.
  EXPECT_EQ(hybrid->levels.back().family, FilterFamily::kCompact);
}

TEST(TreeAllocationTest, BloomBeforeLevel) {
  absl::StatusOr<std::vector<TreeLevel>> tree = LeveledTree(5, 10);
  ASSERT_TRUE(tree.ok());
  for (int before : {1, 3, 5, 9}) {
    absl::StatusOr<TreeAllocation> a = AllocateTreeFilters(*tree, 10, {before});
    ASSERT_TRUE(a.ok()) << a.status();
    for (int i = 0; i < std::min<int>(before, tree->size()); ++i) {
      EXPECT_NE(a->levels[i].family, FilterFamily::kCompact) << before;
    }
  }
}

TEST(TreeAllocationTest, TinyAndZeroBudgets) {
  absl::StatusOr<std::vector<TreeLevel>> tree = LeveledTree(4, 10);
  ASSERT_TRUE(tree.ok());
  absl::StatusOr<TreeAllocation> zero = AllocateTreeFilters(*tree, 0, {});
  ASSERT_TRUE(zero.ok());
  EXPECT_EQ(zero->expected_reads, 4.0);
  absl::StatusOr<TreeAllocation> tiny = AllocateTreeFilters(*tree, 0.2, {});
  ASSERT_TRUE(tiny.ok());
  EXPECT_LE(tiny->bits_per_key, 0.2);
  EXPECT_LT(tiny->expected_reads, 4.0) << "small levels still get filters";
}

TEST(TreeAllocationTest, RefusesBadInput) {
  const std::vector<TreeLevel> tree = {{1, 1}, {10, 1}};
  EXPECT_TRUE(
      absl::IsInvalidArgument(AllocateTreeFilters({}, 10, {}).status()));
  EXPECT_TRUE(
      absl::IsInvalidArgument(AllocateTreeFilters({{0, 1}}, 10, {}).status()));
  EXPECT_TRUE(
      absl::IsInvalidArgument(AllocateTreeFilters(tree, -1, {}).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(
      AllocateTreeFilters(tree, std::nan(""), {}).status()));
  absl::Status negative = AllocateTreeFilters(tree, 10, {-1}).status();
  EXPECT_TRUE(absl::IsInvalidArgument(negative));
  EXPECT_NE(negative.message().find("bloom_before_level -1"),
            std::string::npos);
}

}  // namespace
}  // namespace sstfilter
