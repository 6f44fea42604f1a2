// Keys that share prefixes, for prefix filtering: each key is an 8-byte group
// prefix ("g" + 7 digits) and a 16-hex-digit suffix, so a fixed-prefix
// extractor of kGroupPrefixBytes cuts the group.

#ifndef SSTFILTER_TABLE_TESTING_GROUPED_KEYS_H_
#define SSTFILTER_TABLE_TESTING_GROUPED_KEYS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sstfilter {
namespace test {

constexpr size_t kGroupPrefixBytes = 8;

// The prefix of group g.
std::string GroupPrefix(uint64_t g);

struct GroupedKeys {
  std::vector<std::string> keys;             // sorted, distinct
  std::vector<std::string> prefixes;         // of the groups present
  std::vector<std::string> absent_prefixes;  // groups with no key
  // Keys of present groups that are not in keys (random suffixes).
  std::vector<std::string> absent_in_present_groups;
  // Keys of absent groups.
  std::vector<std::string> absent_in_absent_groups;
};

// groups present groups of keys_per_group keys each, interleaved with as many
// absent groups; absent keys: absent_keys of each kind.
GroupedKeys MakeGroupedKeys(size_t groups, size_t keys_per_group,
                            size_t absent_keys, uint64_t seed);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_TESTING_GROUPED_KEYS_H_
