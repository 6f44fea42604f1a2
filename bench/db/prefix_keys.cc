#include "bench/db/prefix_keys.h"

#include <algorithm>

#include "bench/keys.h"
#include "util/grouped_keys.h"

namespace sstfilter {
namespace bench {

static_assert(kPrefixBytes == kGroupPrefixBytes,
              "a group's prefix is util/grouped_keys.h's");

size_t GroupPrefix(uint64_t group, char* buf) {
  return ::sstfilter::GroupPrefix(GroupKeyStyle::kBinary, group, buf);
}

size_t PrefixedKey(uint64_t index, char* buf) {
  return GroupedKey(GroupKeyStyle::kBinary, /*seed=*/0, index / kKeysPerPrefix,
                    index, buf);
}

size_t AbsentPrefix(uint64_t draw, uint64_t /*num_keys*/, char* buf) {
  return GroupPrefix(kAbsentBase + draw, buf);
}

uint64_t PrefixGroups(uint64_t num_keys) {
  return (num_keys + kKeysPerPrefix - 1) / kKeysPerPrefix;
}

uint64_t KeysWithPrefix(uint64_t group, uint64_t num_keys) {
  const uint64_t first = group * kKeysPerPrefix;
  if (first >= num_keys) return 0;
  return std::min(kKeysPerPrefix, num_keys - first);
}

}  // namespace bench
}  // namespace sstfilter
