// Keys in groups that share a fixed-length prefix (kGroupPrefixBytes), for
// prefix filters and prefix seeks. Every key is a pure function of its style,
// a seed, its group and its number: the same set on every platform, streamed
// without storing any.
//
//   const GroupedKeys keys = MakeGroupedKeys(GroupedKeysOptions(
//       GroupKeyStyle::kBinary, /*groups=*/100, /*keys_per_group=*/16,
//       /*absent_keys=*/1000, /*seed=*/1));
//   // Write keys.keys; look up keys.absent_in_absent_groups, which no filter
//   // of the written prefixes should match.

#ifndef SSTFILTER_UTIL_GROUPED_KEYS_H_
#define SSTFILTER_UTIL_GROUPED_KEYS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sstfilter {

constexpr size_t kGroupPrefixBytes = 8;
constexpr size_t kMaxGroupedKeyBytes = kGroupPrefixBytes + 16;  // bytes

enum class GroupKeyStyle {
  // The prefix is 8 bytes, a bijective mix of the group number (prefixes are
  // distinct and sort in no order of their groups); the suffix is 8 bytes.
  kBinary,
  // The prefix is "g" and the group number in 7 decimal digits, so groups
  // sort by number and groups 2i and 2i + 1 share 7 bytes; the suffix is 16
  // hex digits. Every byte printable. REQUIRES: group numbers below 10^7.
  kReadable,
};

// Writes the prefix of group `group` (kGroupPrefixBytes bytes) to buf;
// returns its length.
size_t GroupPrefix(GroupKeyStyle style, uint64_t group, char* buf);
std::string GroupPrefix(GroupKeyStyle style, uint64_t group);

// Writes key number n of group `group` (at most kMaxGroupedKeyBytes bytes) to
// buf; returns its length. The suffix is a bijective function of n and seed:
// keys of distinct n differ.
size_t GroupedKey(GroupKeyStyle style, uint64_t seed, uint64_t group,
                  uint64_t n, char* buf);

struct GroupedKeysOptions {
  GroupedKeysOptions() = default;
  GroupedKeysOptions(GroupKeyStyle style_in, size_t groups_in,
                     size_t keys_per_group_in, size_t absent_keys_in,
                     uint64_t seed_in)
      : style(style_in),
        groups(groups_in),
        keys_per_group(keys_per_group_in),
        absent_keys(absent_keys_in),
        seed(seed_in) {}

  GroupKeyStyle style = GroupKeyStyle::kBinary;
  size_t groups = 0;  // groups with keys
  // Keys of each group; with vary_group_sizes, the mean: each group's count
  // is drawn from [1, 2 * keys_per_group - 1]. REQUIRES: >= 1.
  size_t keys_per_group = 1;
  bool vary_group_sizes = false;
  // Groups with no key; 0 for as many as `groups`.
  size_t absent_groups = 0;
  size_t absent_keys = 0;  // absent keys of each kind
  uint64_t seed = 0;
};

// Present group i is group number 2i and absent group i is 2i + 1, so that
// in the readable style absent prefixes sort between present ones.
struct GroupedKeys {
  std::vector<std::string> keys;      // sorted, distinct
  std::vector<std::string> prefixes;  // of the groups with keys, sorted
  // The keys of prefixes[i] are keys[first_key[i] .. first_key[i + 1]).
  std::vector<size_t> first_key;
  std::vector<std::string> absent_prefixes;  // of the groups without, sorted
  // Distinct keys of groups with keys, each absent and sorting below the last
  // key of its group: the table (and the filter partition) that looks one up
  // holds keys of its prefix.
  std::vector<std::string> absent_in_present_groups;
  // Key i has absent_prefixes[i % absent_prefixes.size()]: with as many
  // absent groups as keys, one key per absent prefix.
  std::vector<std::string> absent_in_absent_groups;
};

GroupedKeys MakeGroupedKeys(const GroupedKeysOptions& options);

// The readable keys of the table tests: groups groups of keys_per_group keys
// each, as many absent groups, absent_keys absent keys of each kind.
GroupedKeys MakeReadableGroupedKeys(size_t groups, size_t keys_per_group,
                                    size_t absent_keys, uint64_t seed);

}  // namespace sstfilter

#endif  // SSTFILTER_UTIL_GROUPED_KEYS_H_
