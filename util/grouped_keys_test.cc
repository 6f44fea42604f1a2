// Tests of the grouped keys: a group's keys share its prefix and differ after
// it, db_bench's keys stay what they were, sets are sorted with their groups
// in place, and absent keys and prefixes are absent.

#include "util/grouped_keys.h"

#include <algorithm>
#include <set>
#include <string>

#include "absl/strings/escaping.h"
#include "gtest/gtest.h"
#include "util/coding.h"

namespace sstfilter {
namespace {

std::string BinaryKey(uint64_t seed, uint64_t group, uint64_t n) {
  char buf[kMaxGroupedKeyBytes];
  return std::string(buf,
                     GroupedKey(GroupKeyStyle::kBinary, seed, group, n, buf));
}

constexpr GroupKeyStyle kStyles[] = {GroupKeyStyle::kBinary,
                                     GroupKeyStyle::kReadable};

TEST(GroupedKeysTest, KeysStartWithTheirGroupsPrefix) {
  for (GroupKeyStyle style : kStyles) {
    std::set<std::string> keys;
    for (uint64_t n = 0; n < 100; ++n) {
      char buf[kMaxGroupedKeyBytes];
      const std::string key(buf, GroupedKey(style, 3, n / 10, n, buf));
      EXPECT_EQ(key.substr(0, kGroupPrefixBytes), GroupPrefix(style, n / 10));
      keys.insert(key);
    }
    EXPECT_EQ(keys.size(), 100u);
  }
  EXPECT_EQ(GroupPrefix(GroupKeyStyle::kReadable, 42), "g0000042");
  EXPECT_EQ(BinaryKey(0, 0, 0).size(), 16u);
}

// db_bench's prefix-seek keys (bench/db/prefix_keys.h) are seed 0's: its
// published results stay reproducible.
TEST(GroupedKeysTest, SeedZeroKeepsDbBenchKeys) {
  EXPECT_EQ(absl::BytesToHexString(BinaryKey(0, 0, 0)),
            "0000000000000000688d2ec78bb49c39");
  EXPECT_EQ(absl::BytesToHexString(BinaryKey(0, 1, 17)),
            "e5050b101d169256579fb7fd36445f18");
}

TEST(GroupedKeysTest, SetsAreSortedWithGroupsInPlace) {
  for (GroupKeyStyle style : kStyles) {
    GroupedKeysOptions options(style, 50, 6, 300, /*seed=*/9);
    options.vary_group_sizes = style == GroupKeyStyle::kBinary;
    const GroupedKeys keys = MakeGroupedKeys(options);
    ASSERT_TRUE(std::is_sorted(keys.keys.begin(), keys.keys.end()));
    ASSERT_EQ(std::set<std::string>(keys.keys.begin(), keys.keys.end()).size(),
              keys.keys.size());
    ASSERT_EQ(keys.prefixes.size(), 50u);
    ASSERT_EQ(keys.first_key.size(), 51u);
    EXPECT_EQ(keys.first_key.back(), keys.keys.size());
    size_t sizes_seen = 0;
    std::set<size_t> sizes;
    for (size_t i = 0; i < keys.prefixes.size(); ++i) {
      ASSERT_LT(keys.first_key[i], keys.first_key[i + 1]);
      sizes.insert(keys.first_key[i + 1] - keys.first_key[i]);
      for (size_t k = keys.first_key[i]; k < keys.first_key[i + 1]; ++k) {
        EXPECT_EQ(keys.keys[k].substr(0, kGroupPrefixBytes), keys.prefixes[i]);
        ++sizes_seen;
      }
    }
    EXPECT_EQ(sizes_seen, keys.keys.size());
    if (options.vary_group_sizes) {
      EXPECT_GT(sizes.size(), 3u);
      EXPECT_LE(*sizes.rbegin(), 11u);
    } else {
      EXPECT_EQ(keys.keys.size(), 300u);
    }
  }
}

TEST(GroupedKeysTest, AbsentKeysAndPrefixesAreAbsent) {
  for (GroupKeyStyle style : kStyles) {
    const GroupedKeys keys =
        MakeGroupedKeys(GroupedKeysOptions(style, 40, 5, 500, /*seed=*/4));
    const std::set<std::string> present(keys.keys.begin(), keys.keys.end());
    const std::set<std::string> prefixes(keys.prefixes.begin(),
                                         keys.prefixes.end());
    ASSERT_EQ(keys.absent_prefixes.size(), 40u);
    for (const std::string& prefix : keys.absent_prefixes) {
      EXPECT_EQ(prefixes.count(prefix), 0u);
    }
    ASSERT_EQ(keys.absent_in_present_groups.size(), 500u);
    EXPECT_EQ(std::set<std::string>(keys.absent_in_present_groups.begin(),
                                    keys.absent_in_present_groups.end())
                  .size(),
              500u);
    for (const std::string& key : keys.absent_in_present_groups) {
      EXPECT_EQ(present.count(key), 0u);
      const std::string prefix = key.substr(0, kGroupPrefixBytes);
      ASSERT_EQ(prefixes.count(prefix), 1u);
      // Below the last key of its group.
      const auto next = present.upper_bound(key);
      ASSERT_NE(next, present.end());
      EXPECT_EQ(next->substr(0, kGroupPrefixBytes), prefix);
    }
    ASSERT_EQ(keys.absent_in_absent_groups.size(), 500u);
    for (size_t i = 0; i < keys.absent_in_absent_groups.size(); ++i) {
      EXPECT_EQ(keys.absent_in_absent_groups[i].substr(0, kGroupPrefixBytes),
                keys.absent_prefixes[i % 40]);
    }
  }
}

TEST(GroupedKeysTest, ReadableAbsentPrefixesSortBetweenPresentOnes) {
  const GroupedKeys keys = MakeReadableGroupedKeys(10, 3, 0, 1);
  for (size_t i = 0; i < 10; ++i) {
    EXPECT_LT(keys.prefixes[i], keys.absent_prefixes[i]);
    if (i + 1 < 10) {
      EXPECT_LT(keys.absent_prefixes[i], keys.prefixes[i + 1]);
    }
    EXPECT_EQ(keys.prefixes[i].substr(0, kGroupPrefixBytes - 1),
              keys.absent_prefixes[i].substr(0, kGroupPrefixBytes - 1));
  }
}

}  // namespace
}  // namespace sstfilter
