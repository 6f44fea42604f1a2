#include "bench/db/prefix_keys.h"

#include <algorithm>

#include "bench/keys.h"
#include "util/coding.h"

namespace sstfilter {
namespace bench {
namespace {

// Decorrelates a key's suffix from its group's prefix (any odd constant).
constexpr uint64_t kSuffixSalt = 0x8cb92ba72f3d8dd7ULL;

}  // namespace

size_t GroupPrefix(uint64_t group, char* buf) {
  EncodeFixed64(buf, Mix64(group));
  return kPrefixBytes;
}

size_t PrefixedKey(uint64_t index, char* buf) {
  GroupPrefix(index / kKeysPerPrefix, buf);
  EncodeFixed64(buf + kPrefixBytes, Mix64(index ^ kSuffixSalt));
  return kPrefixBytes + kSuffixBytes;
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
