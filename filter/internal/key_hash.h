// The key hash of sstfilter's own formats (the native Bloom filter and the
// compact filter): XXH3-64 with seed 0, compiled inline from libxxhash's own
// header so that hashing a short key costs no function call. It
// is the same function as util::Hash64 (the library call); key_hash_test.cc
// checks that.
//
// Internal to the filter families.

#ifndef SSTFILTER_FILTER_INTERNAL_KEY_HASH_H_
#define SSTFILTER_FILTER_INTERNAL_KEY_HASH_H_

#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"
#include "util/hash.h"

#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include "xxhash.h"

namespace sstfilter {
namespace filter_internal {

// Longest key of XXH3's shortest path: a few instructions and registers.
constexpr size_t kMaxShortKeyBytes = 16;
// Longest key hashed by inline code; longer keys take libxxhash's own call.
constexpr size_t kMaxInlineHashBytes = 128;

// XXH3_64bits of a key of at most kMaxShortKeyBytes.
__attribute__((always_inline)) inline uint64_t ShortKeyHash(
    absl::string_view key) {
  return XXH3_len_0to16_64b(reinterpret_cast<const xxh_u8*>(key.data()),
                            key.size(), XXH3_kSecret, 0);
}

// XXH3_64bits of any key, the steps for up to kMaxInlineHashBytes inline: GCC
// keeps XXH3_64bits itself out of line (it weighs the long-input code too),
// which costs about a nanosecond per key. XXH3_len_0to16_64b,
// XXH3_len_17to128_64b and XXH3_kSecret are the steps XXH3_64bits takes for
// these lengths with seed 0 (xxhash.h 0.8.x); key_hash_test.cc checks the
// result against the library call for every length up to 300. Longer keys call
// the library (util/hash.cc) rather than inline XXH3's long-input loop, which
// made a flattened reader save registers and align its stack in every query.
__attribute__((always_inline)) inline uint64_t KeyHash(absl::string_view key) {
  if (key.size() <= kMaxShortKeyBytes) return ShortKeyHash(key);
  if (key.size() <= kMaxInlineHashBytes) {
    return XXH3_len_17to128_64b(reinterpret_cast<const xxh_u8*>(key.data()),
                                key.size(), XXH3_kSecret, sizeof(XXH3_kSecret),
                                0);
  }
  return ::sstfilter::Hash64(key);
}

}  // namespace filter_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_INTERNAL_KEY_HASH_H_
