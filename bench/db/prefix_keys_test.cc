// Tests of the prefix-seek section's keys: a group's keys share its prefix
// and differ after it, groups' prefixes differ, absent prefixes are no
// written group's, and the last group holds the remainder.

#include "bench/db/prefix_keys.h"

#include <set>
#include <string>

#include "bench/keys.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace bench {
namespace {

std::string Key(uint64_t index) {
  char buf[kMaxKeyBytes];
  return std::string(buf, PrefixedKey(index, buf));
}

std::string Prefix(uint64_t group) {
  char buf[kMaxKeyBytes];
  return std::string(buf, GroupPrefix(group, buf));
}

TEST(PrefixKeysTest, AGroupsKeysShareItsPrefixAndDifferAfterIt) {
  std::set<std::string> keys;
  for (uint64_t i = 0; i < 3 * kKeysPerPrefix; ++i) {
    const std::string key = Key(i);
    ASSERT_EQ(key.size(), kPrefixBytes + kSuffixBytes);
    EXPECT_EQ(key.substr(0, kPrefixBytes), Prefix(i / kKeysPerPrefix)) << i;
    keys.insert(key);
  }
  EXPECT_EQ(keys.size(), 3 * kKeysPerPrefix);
}

TEST(PrefixKeysTest, GroupsHaveDistinctPrefixes) {
  std::set<std::string> prefixes;
  for (uint64_t group = 0; group < 10'000; ++group) {
    prefixes.insert(Prefix(group));
  }
  EXPECT_EQ(prefixes.size(), 10'000u);
}

TEST(PrefixKeysTest, AbsentPrefixesAreNoWrittenGroups) {
  std::set<std::string> written;
  for (uint64_t group = 0; group < 10'000; ++group) {
    written.insert(Prefix(group));
  }
  char buf[kMaxKeyBytes];
  for (uint64_t draw = 0; draw < 10'000; ++draw) {
    const std::string prefix(buf, AbsentPrefix(draw, 0, buf));
    EXPECT_EQ(prefix, Prefix(kAbsentBase + draw));
    EXPECT_EQ(written.count(prefix), 0u) << draw;
  }
}

TEST(PrefixKeysTest, TheLastGroupHoldsTheRemainder) {
  const uint64_t keys = 5 * kKeysPerPrefix + 3;
  EXPECT_EQ(PrefixGroups(keys), 6u);
  EXPECT_EQ(KeysWithPrefix(0, keys), kKeysPerPrefix);
  EXPECT_EQ(KeysWithPrefix(5, keys), 3u);
  EXPECT_EQ(KeysWithPrefix(6, keys), 0u);
  EXPECT_EQ(PrefixGroups(kKeysPerPrefix), 1u);
  EXPECT_EQ(PrefixGroups(1), 1u);
}

}  // namespace
}  // namespace bench
}  // namespace sstfilter
