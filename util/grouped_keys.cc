#include "util/grouped_keys.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <utility>

#include "util/coding.h"
#include "util/mix64.h"

namespace sstfilter {
namespace {

// Decorrelate a key's suffix from its group's prefix, and the draws from
// each other (any constants).
constexpr uint64_t kSuffixSalt = 0x8cb92ba72f3d8dd7ULL;
constexpr uint64_t kGroupSizeSalt = 0x5851f42d4c957f2dULL;
constexpr uint64_t kGroupPickSalt = 0x14057b7ef767814fULL;

// Draw i of a stream named by salt: uniform in [0, n). REQUIRES: n > 0.
uint64_t Draw(uint64_t seed, uint64_t salt, uint64_t i, uint64_t n) {
  const uint64_t bits = Mix64(i ^ Mix64(seed ^ salt));
  return static_cast<uint64_t>((static_cast<unsigned __int128>(bits) * n) >>
                               64);
}

std::string Key(GroupKeyStyle style, uint64_t seed, uint64_t group,
                uint64_t n) {
  char buf[kMaxGroupedKeyBytes];
  return std::string(buf, GroupedKey(style, seed, group, n, buf));
}

}  // namespace

size_t GroupPrefix(GroupKeyStyle style, uint64_t group, char* buf) {
  if (style == GroupKeyStyle::kBinary) {
    EncodeFixed64(buf, Mix64(group));
  } else {
    char text[kGroupPrefixBytes + 1];
    std::snprintf(text, sizeof(text), "g%07" PRIu64, group);
    std::memcpy(buf, text, kGroupPrefixBytes);
  }
  return kGroupPrefixBytes;
}

std::string GroupPrefix(GroupKeyStyle style, uint64_t group) {
  char buf[kGroupPrefixBytes];
  return std::string(buf, GroupPrefix(style, group, buf));
}

size_t GroupedKey(GroupKeyStyle style, uint64_t seed, uint64_t group,
                  uint64_t n, char* buf) {
  GroupPrefix(style, group, buf);
  // Mix64(0) == 0: seed 0 gives db_bench's keys.
  const uint64_t suffix = Mix64(n ^ kSuffixSalt ^ Mix64(seed));
  if (style == GroupKeyStyle::kBinary) {
    EncodeFixed64(buf + kGroupPrefixBytes, suffix);
    return kGroupPrefixBytes + 8;
  }
  char text[16 + 1];
  std::snprintf(text, sizeof(text), "%016" PRIx64, suffix);
  std::memcpy(buf + kGroupPrefixBytes, text, 16);
  return kGroupPrefixBytes + 16;
}

GroupedKeys MakeGroupedKeys(const GroupedKeysOptions& options) {
  const GroupKeyStyle style = options.style;
  const uint64_t seed = options.seed;
  GroupedKeys out;

  // Each present group's prefix and keys, then in prefix order.
  struct Group {
    std::string prefix;
    std::vector<std::string> keys;
    uint64_t number;
  };
  std::vector<Group> groups(options.groups);
  uint64_t n = 0;
  for (size_t i = 0; i < options.groups; ++i) {
    Group& group = groups[i];
    group.number = 2 * i;
    group.prefix = GroupPrefix(style, group.number);
    const uint64_t count =
        options.vary_group_sizes
            ? 1 + Draw(seed, kGroupSizeSalt, i, 2 * options.keys_per_group - 1)
            : options.keys_per_group;
    for (uint64_t j = 0; j < count; ++j) {
      group.keys.push_back(Key(style, seed, group.number, n++));
    }
    std::sort(group.keys.begin(), group.keys.end());
  }
  std::vector<const Group*> sorted;
  for (const Group& group : groups) sorted.push_back(&group);
  std::sort(sorted.begin(), sorted.end(), [](const Group* a, const Group* b) {
    return a->prefix < b->prefix;
  });
  for (const Group* group : sorted) {
    out.prefixes.push_back(group->prefix);
    out.first_key.push_back(out.keys.size());
    out.keys.insert(out.keys.end(), group->keys.begin(), group->keys.end());
  }
  out.first_key.push_back(out.keys.size());

  // Suffix numbers from n up are no present key's: the keys are absent.
  for (uint64_t d = 0; !groups.empty() && out.absent_in_present_groups.size() <
                                              options.absent_keys;
       ++d) {
    const Group& group = groups[Draw(seed, kGroupPickSalt, d, groups.size())];
    std::string key = Key(style, seed, group.number, n++);
    if (key < group.keys.back()) {
      out.absent_in_present_groups.push_back(std::move(key));
    }
  }

  const size_t absent_groups =
      options.absent_groups == 0 ? options.groups : options.absent_groups;
  std::vector<std::pair<std::string, uint64_t>> absent;  // prefix, number
  for (size_t i = 0; i < absent_groups; ++i) {
    absent.emplace_back(GroupPrefix(style, 2 * i + 1), 2 * i + 1);
  }
  std::sort(absent.begin(), absent.end());
  for (const auto& group : absent) out.absent_prefixes.push_back(group.first);
  for (size_t i = 0; !absent.empty() && i < options.absent_keys; ++i) {
    out.absent_in_absent_groups.push_back(
        Key(style, seed, absent[i % absent.size()].second, n++));
  }
  return out;
}

GroupedKeys MakeReadableGroupedKeys(size_t groups, size_t keys_per_group,
                                    size_t absent_keys, uint64_t seed) {
  return MakeGroupedKeys(GroupedKeysOptions(GroupKeyStyle::kReadable, groups,
                                            keys_per_group, absent_keys, seed));
}

}  // namespace sstfilter
