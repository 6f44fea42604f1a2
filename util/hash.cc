#include "util/hash.h"

#include "util/coding.h"
#include "xxhash.h"

namespace sstfilter {

uint64_t Hash64(absl::string_view key) {
  return XXH3_64bits(key.data(), key.size());
}

uint32_t LevelDbHash32(const char* data, size_t n, uint32_t seed) {
  // Constants of LevelDB's hash: a Murmur-style multiplier and final shift.
  constexpr uint32_t kMultiplier = 0xc6a4a793;
  constexpr int kTailShift = 24;

  // The length enters modulo 2^32, as in LevelDB.
  uint32_t h = seed ^ (static_cast<uint32_t>(n) * kMultiplier);
  const char* p = data;
  const char* const limit = data + n;
  for (; limit - p >= 4; p += 4) {
    h += DecodeFixed32(p);
    h *= kMultiplier;
    h ^= h >> 16;
  }
  const auto byte = [](char c) {
    return static_cast<uint32_t>(static_cast<uint8_t>(c));
  };
  switch (limit - p) {
    case 3:
      h += byte(p[2]) << 16;
      [[fallthrough]];
    case 2:
      h += byte(p[1]) << 8;
      [[fallthrough]];
    case 1:
      h += byte(p[0]);
      h *= kMultiplier;
      h ^= h >> kTailShift;
      break;
  }
  return h;
}

}  // namespace sstfilter
