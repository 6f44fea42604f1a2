// XXH3-64 (seed 0) of a three-byte head followed by a tail, without copying
// them into one buffer: equal to Hash64 of the joined bytes for every input
// (joined_hash_test.cc checks each length up to 300).
//
// A hash of bytes just copied together reads them back in words that span
// several of the copy's stores, and each such read waits for those stores to
// reach the cache. Reading the words straight from head and tail saves that
// wait where a caller would otherwise assemble a name for every query.

#ifndef SSTFILTER_UTIL_JOINED_HASH_H_
#define SSTFILTER_UTIL_JOINED_HASH_H_

#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"
#include "util/coding.h"

#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include "xxhash.h"

namespace sstfilter {
namespace joined_hash_internal {

// The joined lengths hashed in place: from the shortest whose words each
// take eight tail bytes at most (3 + 8), to the longest of XXH3's mid-size
// step.
constexpr size_t kMinInPlaceBytes = 11;
constexpr size_t kMaxInPlaceBytes = 128;

// Hash64 of the bytes copied together: the other lengths.
uint64_t CopiedHash64(uint32_t head, absl::string_view tail);

// The eight joined bytes from offset, little-endian. REQUIRES: tail holds at
// least eight bytes, and offset + 8 <= 3 + tail.size().
inline uint64_t WordAt(uint32_t head, absl::string_view tail, size_t offset) {
  if (offset >= 3) return DecodeFixed64(tail.data() + offset - 3);
  return (uint64_t{head} >> (8 * offset)) |
         (DecodeFixed64(tail.data()) << (8 * (3 - offset)));
}

// XXH3's 128-bit multiply of a word pair against 16 secret bytes.
inline uint64_t Mix16(uint32_t head, absl::string_view tail, size_t offset,
                      size_t secret_offset) {
  return XXH3_mul128_fold64(
      WordAt(head, tail, offset) ^ XXH_readLE64(XXH3_kSecret + secret_offset),
      WordAt(head, tail, offset + 8) ^
          XXH_readLE64(XXH3_kSecret + secret_offset + 8));
}

}  // namespace joined_hash_internal

// Hash64 of the bytes head[0], head[1], head[2], then tail: XXH3's steps for
// 9 to 16 and for 17 to 128 bytes (the XXH3 specification; xxhash.h 0.8.x,
// XXH3_len_9to16_64b and XXH3_len_17to128_64b, seed 0), reading their words
// from head and tail.
inline uint64_t JoinedHash64(const uint8_t (&head)[3], absl::string_view tail) {
  namespace internal = joined_hash_internal;
  const uint32_t head_bits =
      uint32_t{head[0]} | (uint32_t{head[1]} << 8) | (uint32_t{head[2]} << 16);
  const size_t length = 3 + tail.size();
  if (length < internal::kMinInPlaceBytes ||
      length > internal::kMaxInPlaceBytes) {
    return internal::CopiedHash64(head_bits, tail);
  }
  if (length <= 16) {
    const uint64_t low =
        internal::WordAt(head_bits, tail, 0) ^
        (XXH_readLE64(XXH3_kSecret + 24) ^ XXH_readLE64(XXH3_kSecret + 32));
    const uint64_t high =
        internal::WordAt(head_bits, tail, length - 8) ^
        (XXH_readLE64(XXH3_kSecret + 40) ^ XXH_readLE64(XXH3_kSecret + 48));
    return XXH3_avalanche(length + XXH_swap64(low) + high +
                          XXH3_mul128_fold64(low, high));
  }
  uint64_t acc = length * XXH_PRIME64_1;
  if (length > 32) {
    if (length > 64) {
      if (length > 96) {
        acc += internal::Mix16(head_bits, tail, 48, 96);
        acc += internal::Mix16(head_bits, tail, length - 64, 112);
      }
      acc += internal::Mix16(head_bits, tail, 32, 64);
      acc += internal::Mix16(head_bits, tail, length - 48, 80);
    }
    acc += internal::Mix16(head_bits, tail, 16, 32);
    acc += internal::Mix16(head_bits, tail, length - 32, 48);
  }
  acc += internal::Mix16(head_bits, tail, 0, 0);
  acc += internal::Mix16(head_bits, tail, length - 16, 16);
  return XXH3_avalanche(acc);
}

}  // namespace sstfilter

#endif  // SSTFILTER_UTIL_JOINED_HASH_H_
