// NewRocksDbHybridFilterPolicy driven with the FilterBuildingContext RocksDB
// 7.8.3 gives it for each table: the family and rate each level gets, flushes
// and files of unknown level, the one reader, and invalid input.
// tests/integration/rocksdb_hybrid_db_test.cc runs it in a real database.

#include "engines/rocksdb/rocksdb_hybrid_policy.h"

#include <memory>
#include <string>
#include <vector>

#include "engines/rocksdb/build_in_context.h"
#include "filter/rocksdb/rocksdb_filter_bits.h"
#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"
#include "rocksdb/advanced_options.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

constexpr size_t kKeys = 20000;
// The families' marker bytes at size - 2 (filter/bloom/README.md,
// filter/burr/README.md).
constexpr uint8_t kNativeMarker = 0xB1;
constexpr uint8_t kCompactMarker = 0xB7;

uint8_t MarkerOf(FilterFamily family) {
  return family == FilterFamily::kNative    ? kNativeMarker
         : family == FilterFamily::kCompact ? kCompactMarker
                                            : 0;
}

using test::BuildAt;
using test::Built;

uint8_t Marker(const Built& built) {
  return test::Version1Marker(built.filter);
}

class HybridPolicyTest : public testing::Test {
 protected:
  HybridPolicyTest() {
    test::Random rng(402);
    keys_ = test::RandomKeys(&rng, kKeys, 16, 16);
    tree_ = *LeveledTree(5, 10);
    options_.bloom_before_level = 2;
    policy_ = *NewRocksDbHybridFilterPolicy(tree_, 10, options_);
    allocation_ = *HybridTreeAllocation(tree_, 10, options_);
  }
  std::vector<std::string> keys_;
  std::vector<TreeLevel> tree_;
  HybridTreeOptions options_;
  std::shared_ptr<const rocksdb::FilterPolicy> policy_;
  TreeAllocation allocation_;
};

TEST_F(HybridPolicyTest, NamedAsTheHybridFormat) {
  EXPECT_STREQ(policy_->Name(), kCheckedHybridFormatName);
  EXPECT_STREQ(policy_->CompatibilityName(), kCheckedHybridFormatName);
}

// Each level's filter is of its family, at about its rate's size, and the
// one reader finds every key in each.
TEST_F(HybridPolicyTest, EachLevelGetsItsFamily) {
  for (int level = 0; level < 5; ++level) {
    const LevelChoice& choice = allocation_.levels[level];
    const Built built = BuildAt(*policy_, level, keys_);
    ASSERT_TRUE(built.has_filter) << level;
    EXPECT_EQ(Marker(built), MarkerOf(choice.family)) << "L" << level;
    if (level < options_.bloom_before_level) {
      EXPECT_EQ(choice.family, FilterFamily::kNative) << level;
    }
    EXPECT_NEAR(8.0 * built.filter.size() / kKeys, choice.bits_per_key,
                0.02 * choice.bits_per_key + 0.1)
        << "L" << level;
    std::unique_ptr<rocksdb::FilterBitsReader> reader(
        policy_->GetFilterBitsReader(built.filter));
    ASSERT_NE(reader, nullptr);
    for (const std::string& key : keys_) {
      ASSERT_TRUE(reader->MayMatch(key)) << "L" << level;
    }
  }
  // Past the tree's levels: the last level's.
  EXPECT_EQ(BuildAt(*policy_, 9, keys_).filter,
            BuildAt(*policy_, 4, keys_).filter);
}

TEST_F(HybridPolicyTest, FlushesAndUnknownLevels) {
  // A flush builds L0's filter whatever level it reports.
  EXPECT_EQ(BuildAt(*policy_, 3, keys_, rocksdb::kCompactionStyleLevel,
                    rocksdb::TableFileCreationReason::kFlush)
                .filter,
            BuildAt(*policy_, 0, keys_).filter);
  // Unknown level, universal and FIFO: the last level's family at the budget.
  const FilterFamily last = allocation_.levels.back().family;
  for (const Built& built :
       {BuildAt(*policy_, -1, keys_),
        BuildAt(*policy_, 2, keys_, rocksdb::kCompactionStyleUniversal),
        BuildAt(*policy_, 2, keys_, rocksdb::kCompactionStyleFIFO)}) {
    ASSERT_TRUE(built.has_filter);
    EXPECT_EQ(Marker(built), MarkerOf(last));
    EXPECT_NEAR(8.0 * built.filter.size() / kKeys, 10, 0.3);
  }
}

TEST_F(HybridPolicyTest, RefusesBadInput) {
  EXPECT_TRUE(
      absl::IsInvalidArgument(NewRocksDbHybridFilterPolicy({}, 10).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(
      NewRocksDbHybridFilterPolicy(tree_, -1).status()));
  HybridTreeOptions negative;
  negative.bloom_before_level = -2;
  EXPECT_TRUE(absl::IsInvalidArgument(
      NewRocksDbHybridFilterPolicy(tree_, 10, negative).status()));
}

}  // namespace
}  // namespace sstfilter
