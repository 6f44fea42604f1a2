// NewRocksDbTreeFilterPolicy: each tree spec builds, level by level, the
// bytes of the typed factory it names, and every spec it cannot honour is
// refused with one line naming the part. The filter families' own factories
// refuse levels=tree.

#include "engines/rocksdb/rocksdb_tree_policy.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engines/rocksdb/build_in_context.h"
#include "engines/rocksdb/rocksdb_adapter.h"
#include "engines/rocksdb/rocksdb_hybrid_policy.h"
#include "engines/rocksdb/rocksdb_per_level_policy.h"
#include "engines/tree/per_level_allocation.h"
#include "filter/filter_spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

using ::testing::HasSubstr;

constexpr int kLevels = 7;
constexpr double kFanOut = 10;
constexpr double kBudget = 10;

std::vector<TreeLevel> SevenLevels() {
  absl::StatusOr<std::vector<TreeLevel>> tree = LeveledTree(kLevels, kFanOut);
  EXPECT_TRUE(tree.ok()) << tree.status();
  return tree.ok() ? *tree : std::vector<TreeLevel>();
}

std::vector<std::string> Keys() {
  test::Random rng(4501);
  return test::RandomKeys(&rng, 5000, 16, 16);
}

// Both policies build the same filter, or none, at every level.
void ExpectSameAtEveryLevel(const rocksdb::FilterPolicy& from_spec,
                            const rocksdb::FilterPolicy& typed) {
  EXPECT_STREQ(from_spec.Name(), typed.Name());
  const std::vector<std::string> keys = Keys();
  for (int level = -1; level < kLevels; ++level) {
    const test::Built a = test::BuildAt(from_spec, level, keys);
    const test::Built b = test::BuildAt(typed, level, keys);
    EXPECT_EQ(a.has_filter, b.has_filter) << "level " << level;
    EXPECT_TRUE(a.filter == b.filter)
        << "level " << level << ": filters of " << a.filter.size() << " and "
        << b.filter.size() << " bytes differ";
  }
}

TEST(TreePolicySpecTest, BloomNamesThePerLevelPolicy) {
  const std::vector<TreeLevel> tree = SevenLevels();
  auto from_spec =
      NewRocksDbTreeFilterPolicy("bloom:levels=tree:bits_per_key=10", tree);
  ASSERT_TRUE(from_spec.ok()) << from_spec.status();
  auto typed = NewRocksDbPerLevelFilterPolicy(tree, kBudget);
  ASSERT_TRUE(typed.ok()) << typed.status();
  ExpectSameAtEveryLevel(**from_spec, **typed);
}

TEST(TreePolicySpecTest, HybridNamesTheHybridTreePolicy) {
  const std::vector<TreeLevel> tree = SevenLevels();
  auto from_spec = NewRocksDbTreeFilterPolicy("hybrid:10:levels=tree", tree);
  ASSERT_TRUE(from_spec.ok()) << from_spec.status();
  auto typed = NewRocksDbHybridFilterPolicy(tree, kBudget);
  ASSERT_TRUE(typed.ok()) << typed.status();
  ExpectSameAtEveryLevel(**from_spec, **typed);
}

TEST(TreePolicySpecTest, HybridTakesTheBuildCap) {
  // A cap below any compact build: every level the allocation gives the
  // compact filter falls back to the native one, as the typed policy does.
  const std::vector<TreeLevel> tree = SevenLevels();
  auto from_spec = NewRocksDbTreeFilterPolicy(
      "hybrid:10:levels=tree:max_build_bytes=1024", tree);
  ASSERT_TRUE(from_spec.ok()) << from_spec.status();
  HybridTreeOptions capped;
  capped.max_build_bytes = 1024;
  auto typed = NewRocksDbHybridFilterPolicy(tree, kBudget, capped);
  ASSERT_TRUE(typed.ok()) << typed.status();
  ExpectSameAtEveryLevel(**from_spec, **typed);
  auto uncapped = NewRocksDbHybridFilterPolicy(tree, kBudget);
  ASSERT_TRUE(uncapped.ok()) << uncapped.status();
  const std::vector<std::string> keys = Keys();
  const int last = kLevels - 1;
  EXPECT_FALSE(test::BuildAt(**from_spec, last, keys).filter ==
               test::BuildAt(**uncapped, last, keys).filter)
      << "the cap changed no level's filter";
}

TEST(TreePolicySpecTest, RefusesWhatItCannotHonour) {
  const std::vector<TreeLevel> tree = SevenLevels();
  const struct {
    const char* spec;
    const char* message;
  } cases[] = {
      {"bloom:10", "give levels=tree"},
      {"bloom:10:levels=uniform", "give levels=tree"},
      {"burr:10", "family burr has no tree form"},
      {"bloom:fpp=0.01:levels=tree", "by bits_per_key"},
      {"bloom:10:levels=tree:checksum=off", "checksum"},
      {"bloom:10:levels=tree:path=portable", "path is not a param"},
      {"hybrid:10:levels=tree:family=native", "family is not a param"},
      {"bloom:levels=tree:bits_per_key=-1", "-1"},
      {"bloom:levels=forest:bits_per_key=10", "forest"},
      {"nope:10", "nope"},
      {"hybrid:10:levels=tree:max_build_bytes=1e6",
       "max_build_bytes: \"1e6\" is not an unsigned integer"},
  };
  for (const auto& c : cases) {
    auto policy = NewRocksDbTreeFilterPolicy(c.spec, tree);
    ASSERT_FALSE(policy.ok()) << c.spec;
    EXPECT_EQ(policy.status().code(), absl::StatusCode::kInvalidArgument)
        << c.spec;
    EXPECT_THAT(policy.status().message(), HasSubstr(c.message)) << c.spec;
  }
  EXPECT_FALSE(NewRocksDbTreeFilterPolicy("bloom:10:levels=tree", {}).ok())
      << "an empty tree";
}

TEST(TreePolicySpecTest, AFilterAloneRefusesLevelsTree) {
  for (const char* spec : {"bloom:10:levels=tree", "hybrid:10:levels=tree"}) {
    auto policy = NewFilterPolicyFromString(spec);
    ASSERT_FALSE(policy.ok()) << spec;
    EXPECT_THAT(policy.status().message(),
                HasSubstr("NewRocksDbTreeFilterPolicy"))
        << spec;
    auto adapted = AsRocksDbFilterPolicy(absl::string_view(spec));
    ASSERT_FALSE(adapted.ok()) << spec;
    EXPECT_EQ(adapted.status().code(), absl::StatusCode::kInvalidArgument);
  }
  // levels=uniform is the family's own policy.
  auto uniform = NewFilterPolicyFromString("bloom:10:levels=uniform");
  ASSERT_TRUE(uniform.ok()) << uniform.status();
  auto plain = NewFilterPolicyFromString("bloom:10");
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_EQ((*uniform)->Name(), (*plain)->Name());
}

}  // namespace
}  // namespace sstfilter
