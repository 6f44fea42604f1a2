// Verified builds catch a filter that misses one of its keys (the planted
// bug of filter/testing/planted_policy.h) and pass every honest policy's
// filters through unchanged.

#include "filter/verified_build.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "filter/filter_policy.h"
#include "filter/format_registry.h"
#include "filter/leveldb/leveldb_bloom.h"
#include "filter/testing/filter_test_util.h"
#include "filter/testing/planted_policy.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

using test::Keys16;

// Keys whose last one the planted policy's filter misses: the real LevelDB
// filter of all but the last key does not match the last (a false positive
// there would hide the bug). Checked, not assumed.
std::vector<std::string> KeysTheBugLoses() {
  const std::vector<std::string> keys = Keys16(0, 0, 1000);
  const std::vector<std::string> all_but_last(keys.begin(), keys.end() - 1);
  const std::unique_ptr<const FilterPolicy> honest =
      *NewLevelDbFilterPolicy(FilterOptions::Fpp(0.01));
  const std::string filter = test::BuildFilter(*honest, all_but_last);
  EXPECT_FALSE(honest->KeyMayMatch(keys.back(), filter))
      << "the dropped key is a false positive: choose other keys";
  return keys;
}

TEST(VerifiedBuildTest, CatchesAFilterThatLosesAKey) {
  const std::unique_ptr<const FilterPolicy> planted =
      *fuzz::NewDropLastKeyPolicy(FilterOptions::Fpp(0.01));
  VerifiedFilterBuilder builder(*planted);
  for (const std::string& key : KeysTheBugLoses()) builder.AddKey(key);
  std::string filter = "kept";
  const absl::Status status = builder.Finish(&filter);
  EXPECT_TRUE(absl::IsDataLoss(status)) << status;
  EXPECT_NE(status.message().find("misses 1 of its 1000 keys"),
            absl::string_view::npos)
      << status;
  EXPECT_EQ(filter, "kept");  // nothing appended
  EXPECT_EQ(builder.NumAdded(), 0u);
}

TEST(VerifiedBuildTest, PassesEveryHonestPolicyUnchanged) {
  for (const FamilyVariant& factory : RegisteredFamilyVariants()) {
    SCOPED_TRACE(factory.spec);
    const std::unique_ptr<const FilterPolicy> policy =
        *factory.factory(FilterOptions::Fpp(0.01));
    VerifiedFilterBuilder builder(*policy);
    // Two filters one after another: Finish appends and resets.
    std::string verified = "prefix";
    std::string plain = "prefix";
    for (uint64_t n : {uint64_t{0}, uint64_t{1}, uint64_t{3000}}) {
      const std::vector<std::string> keys = Keys16(n, 0, n);
      for (const std::string& key : keys) builder.AddKey(key);
      ASSERT_TRUE(builder.Finish(&verified).ok()) << n;
      plain += test::BuildFilter(*policy, keys);
      EXPECT_EQ(verified, plain) << n;
    }
  }
}

TEST(VerifiedBuildTest, AddedKeysCountsEveryMiss) {
  AddedKeys keys;
  for (const std::string& key : Keys16(0, 0, 200)) keys.Add(key);
  keys.Add("");  // an empty key is a key too
  EXPECT_EQ(keys.size(), 201u);
  EXPECT_GE(keys.AllocatedBytes(), 200u * 16 + 201 * sizeof(size_t));
  const std::unique_ptr<const FilterPolicy> policy =
      *NewLevelDbFilterPolicy(FilterOptions::Fpp(0.01));
  // A filter of the first 100 keys: at least the 100 others, less their false
  // positives, are missed; the first missed is one of them.
  std::string filter = test::BuildFilter(*policy, Keys16(0, 0, 100));
  const absl::Status status =
      keys.CheckEveryKeyMatches(*policy->NewReader(filter));
  EXPECT_TRUE(absl::IsDataLoss(status)) << status;
  EXPECT_NE(status.message().find("of its 201 keys"), absl::string_view::npos);
  keys.Clear();
  EXPECT_EQ(keys.size(), 0u);
  EXPECT_TRUE(keys.CheckEveryKeyMatches(*policy->NewReader(filter)).ok());
}

}  // namespace
}  // namespace sstfilter
