// Hash functions whose outputs are part of sstfilter's on-disk formats.
//
// Every function here is frozen: a filter written today must read the same in
// every later release, so changing any output is a format change (and a new
// FilterPolicy::Name()). Golden values in hash_test.cc pin them.

#ifndef SSTFILTER_UTIL_HASH_H_
#define SSTFILTER_UTIL_HASH_H_

#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"

namespace sstfilter {

// XXH3-64 with seed 0, from libxxhash (the released algorithm, stable since
// xxHash 0.8.0). The native filter's key hash.
uint64_t Hash64(absl::string_view key);

// The seed LevelDB's Bloom filter passes to LevelDBHash32 ("BloomHash" in
// LevelDB 1.23).
constexpr uint32_t kLevelDbBloomSeed = 0xbc9f1d34;

// LevelDB's 32-bit Murmur-like hash (util/hash.cc in LevelDB 1.23), reading
// bytes as unsigned. Used only for LevelDB byte compatibility: its 32 bits
// limit accuracy once a filter holds more than a few million keys.
uint32_t LevelDbHash32(const char* data, size_t n, uint32_t seed);

inline uint32_t LevelDbBloomHash(absl::string_view key) {
  return LevelDbHash32(key.data(), key.size(), kLevelDbBloomSeed);
}

}  // namespace sstfilter

#endif  // SSTFILTER_UTIL_HASH_H_
