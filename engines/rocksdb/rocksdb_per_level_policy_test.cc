// NewRocksDbPerLevelFilterPolicy driven with the FilterBuildingContext
// RocksDB 7.8.3 gives it for each table: the filter each level gets, and the
// one reader for all of them. tests/integration/rocksdb_db_test.cc runs it in
// a real database.

#include "engines/rocksdb/rocksdb_per_level_policy.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engines/rocksdb/build_in_context.h"
#include "engines/tree/per_level_allocation.h"
#include "filter/rocksdb/rocksdb_filter_bits.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rocksdb/advanced_options.h"
#include "rocksdb/table.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

using ::testing::HasSubstr;

constexpr size_t kKeys = 20000;
// The native trailer (at most 13 bytes) and the body's rounding up to a
// byte, in bits, spread over the filter's keys.
constexpr double kOverheadBits = 8 * 14;

std::vector<TreeLevel> SevenLevels() {
  absl::StatusOr<std::vector<TreeLevel>> tree = LeveledTree(7, 10);
  EXPECT_TRUE(tree.ok()) << tree.status();
  return tree.ok() ? *tree : std::vector<TreeLevel>();
}

std::shared_ptr<const rocksdb::FilterPolicy> PerLevel(
    const std::vector<TreeLevel>& tree, double budget) {
  absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> policy =
      NewRocksDbPerLevelFilterPolicy(tree, budget);
  EXPECT_TRUE(policy.ok()) << policy.status();
  return policy.ok() ? *policy : nullptr;
}

using test::BuildAt;
using test::Built;

double BitsPerKey(const std::string& filter, size_t keys) {
  return 8.0 * static_cast<double>(filter.size()) / static_cast<double>(keys);
}

class PerLevelPolicyTest : public testing::Test {
 protected:
  PerLevelPolicyTest() {
    test::Random rng(401);
    keys_ = test::RandomKeys(&rng, kKeys, 16, 16);
  }
  std::vector<std::string> keys_;
};

TEST_F(PerLevelPolicyTest, NamedAsTheNativeFormat) {
  const std::shared_ptr<const rocksdb::FilterPolicy> policy =
      PerLevel(SevenLevels(), 10);
  ASSERT_NE(policy, nullptr);
  EXPECT_STREQ(policy->Name(), "sstfilter.LocalBloom2");
  EXPECT_STREQ(policy->CompatibilityName(), "sstfilter.LocalBloom2");
}

// Each level's filter has the bits/key Monkey allocates it, and the policy's
// one reader finds every key in each of them.
TEST_F(PerLevelPolicyTest, EachLevelGetsItsAllocation) {
  const std::vector<TreeLevel> tree = SevenLevels();
  const std::shared_ptr<const rocksdb::FilterPolicy> policy =
      PerLevel(tree, 10);
  absl::StatusOr<FilterAllocation> allocation =
      AllocateFilterBits(tree, 10, NativeBloomCost());
  ASSERT_TRUE(allocation.ok()) << allocation.status();
  double previous = 1e9;
  for (int level = 0; level < 7; ++level) {
    const Built built = BuildAt(*policy, level, keys_);
    ASSERT_TRUE(built.has_filter) << "level " << level;
    const double want = allocation->levels[level].bits_per_key;
    const double got = BitsPerKey(built.filter, kKeys);
    EXPECT_GE(got, want) << "level " << level;
    EXPECT_LE(got, want + kOverheadBits / kKeys) << "level " << level;
    EXPECT_LT(got, previous) << "level " << level << " has no fewer bits/key";
    previous = got;

    std::unique_ptr<rocksdb::FilterBitsReader> reader(
        policy->GetFilterBitsReader(built.filter));
    for (const std::string& key : keys_) {
      ASSERT_TRUE(reader->MayMatch(key)) << "level " << level;
    }
  }
}

// Levels RocksDB has beyond the model take the last level's filter.
TEST_F(PerLevelPolicyTest, DeeperLevelsTakeTheLastLevels) {
  const std::shared_ptr<const rocksdb::FilterPolicy> policy =
      PerLevel({{1, 1}, {10, 1}, {100, 1}}, 10);
  const std::string last = BuildAt(*policy, 2, keys_).filter;
  EXPECT_EQ(BuildAt(*policy, 3, keys_).filter, last);
  EXPECT_EQ(BuildAt(*policy, 6, keys_).filter, last);
  EXPECT_NE(BuildAt(*policy, 1, keys_).filter, last);
}

// Unknown level (SstFileWriter) and compaction styles whose levels are not
// the model's: the budget's uniform filter.
TEST_F(PerLevelPolicyTest, UnknownLevelGetsTheBudgetEverywhere) {
  const std::shared_ptr<const rocksdb::FilterPolicy> policy =
      PerLevel(SevenLevels(), 10);
  for (const auto& [level, style] :
       {std::make_pair(-1, rocksdb::kCompactionStyleLevel),
        std::make_pair(3, rocksdb::kCompactionStyleUniversal),
        std::make_pair(0, rocksdb::kCompactionStyleFIFO)}) {
    const Built built = BuildAt(*policy, level, keys_, style);
    ASSERT_TRUE(built.has_filter);
    const double got = BitsPerKey(built.filter, kKeys);
    EXPECT_GE(got, 10.0) << "level " << level << ", style " << style;
    EXPECT_LE(got, 10.0 + kOverheadBits / kKeys)
        << "level " << level << ", style " << style;
  }
}

// One bit/key over a 7-level tree: the largest level goes without a filter
// (GetBuilderWithContext returns null, RocksDB's "no filter").
TEST_F(PerLevelPolicyTest, LevelWithoutFilterGetsNoBuilder) {
  const std::shared_ptr<const rocksdb::FilterPolicy> policy =
      PerLevel(SevenLevels(), 1);
  EXPECT_FALSE(BuildAt(*policy, 6, keys_).has_filter);
  EXPECT_FALSE(BuildAt(*policy, 9, keys_).has_filter);
  EXPECT_TRUE(BuildAt(*policy, 5, keys_).has_filter);
  EXPECT_TRUE(BuildAt(*policy, -1, keys_).has_filter);  // 1 bit/key

  // Below 1 bit/key the uniform filter does not exist either.
  const std::shared_ptr<const rocksdb::FilterPolicy> half =
      PerLevel(SevenLevels(), 0.5);
  EXPECT_FALSE(BuildAt(*half, -1, keys_).has_filter);
}

TEST(NewRocksDbPerLevelFilterPolicyTest, RefusesBadInputNamingTheValue) {
  const absl::Status empty = NewRocksDbPerLevelFilterPolicy({}, 10).status();
  EXPECT_TRUE(absl::IsInvalidArgument(empty)) << empty;
  const absl::Status budget =
      NewRocksDbPerLevelFilterPolicy({{1, 1}}, 250).status();
  EXPECT_TRUE(absl::IsInvalidArgument(budget)) << budget;
  EXPECT_THAT(std::string(budget.message()), HasSubstr("250"));
  const absl::Status keys =
      NewRocksDbPerLevelFilterPolicy({{1, 1}, {-3, 1}}, 10).status();
  EXPECT_TRUE(absl::IsInvalidArgument(keys)) << keys;
  EXPECT_THAT(std::string(keys.message()), HasSubstr("keys -3"));
}

}  // namespace
}  // namespace sstfilter
