// RocksDB's two filter hashes, so that sstfilter writes and reads RocksDB's
// filters byte for byte without linking RocksDB: RocksDbHash64 (RocksDB's
// Hash64, of its FastLocalBloom and Ribbon filters; not released XXH3) and
// RocksDbHash32 (RocksDB's Hash, of its legacy Bloom filter, with the seed
// kRocksDbBloomSeed). Both are part of RocksDB's on-disk format and frozen;
// rocksdb_hash_test.cc pins them against librocksdb. util/README.md says how
// each differs from the hash it resembles.
//
// Cost: RocksDbHash64 hashes inputs of up to 128 bytes inline (no call, no
// allocation); longer ones call into rocksdb_hash.cc.

#ifndef SSTFILTER_UTIL_ROCKSDB_HASH_H_
#define SSTFILTER_UTIL_ROCKSDB_HASH_H_

#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"
#include "util/coding.h"

namespace sstfilter {

// The seed of RocksDB's BloomHash (util/hash.h at v7.8.3), the same value
// LevelDB uses (util/hash.h kLevelDbBloomSeed).
constexpr uint32_t kRocksDbBloomSeed = 0xbc9f1d34;

// RocksDB's 32-bit hash, tail bytes sign-extended (util/hash.cc at v7.8.3).
uint32_t RocksDbHash32(const char* data, size_t n, uint32_t seed);

// The key hash of RocksDB's legacy Bloom filter.
inline uint32_t RocksDbBloomHash(absl::string_view key) {
  return RocksDbHash32(key.data(), key.size(), kRocksDbBloomSeed);
}

namespace rocksdb_hash_internal {

// The 192-byte key material ("kSecret") of XXH3 0.7.2 (util/xxph3.h); released
// XXH3 uses the same bytes.
constexpr size_t kSecretBytes = 192;
extern const uint8_t kSecret[kSecretBytes];

// xxHash's primes (util/xxph3.h PRIME32_*, PRIME64_*).
constexpr uint64_t kPrime32_1 = 0x9E3779B1;
constexpr uint64_t kPrime32_2 = 0x85EBCA77;
constexpr uint64_t kPrime32_3 = 0xC2B2AE3D;
constexpr uint64_t kPrime64_1 = 0x9E3779B185EBCA87;
constexpr uint64_t kPrime64_2 = 0xC2B2AE3D27D4EB4F;
constexpr uint64_t kPrime64_3 = 0x165667B19E3779F9;
constexpr uint64_t kPrime64_4 = 0x85EBCA77C2B2AE63;
constexpr uint64_t kPrime64_5 = 0x27D4EB2F165667C5;

// Bytes of input per 16-byte mix step, and the largest input of each path.
constexpr size_t kMixBytes = 16;
constexpr size_t kMaxShortInput = 16;
constexpr size_t kMaxMediumInput = 128;

inline const char* SecretAt(size_t offset) {
  return reinterpret_cast<const char*>(kSecret) + offset;
}

// The 128-bit product of a and b, its two halves xored together.
inline uint64_t MultiplyFold(uint64_t a, uint64_t b) {
  const unsigned __int128 product =
      static_cast<unsigned __int128>(a) * static_cast<unsigned __int128>(b);
  return static_cast<uint64_t>(product) ^ static_cast<uint64_t>(product >> 64);
}

// The final scramble of every path but the empty input.
inline uint64_t Avalanche(uint64_t h) {
  h ^= h >> 37;
  h *= kPrime64_3;
  return h ^ (h >> 32);
}

// 16 input bytes keyed with 16 bytes of secret (the seed added to the low
// word, subtracted from the high one), then multiplied together.
inline uint64_t Mix16(const char* input, const char* secret, uint64_t seed) {
  const uint64_t lo = DecodeFixed64(input) ^ (DecodeFixed64(secret) + seed);
  const uint64_t hi =
      DecodeFixed64(input + 8) ^ (DecodeFixed64(secret + 8) - seed);
  return MultiplyFold(lo, hi);
}

// 0..16 bytes: four cases by length.
inline uint64_t HashShort(const char* p, size_t n, uint64_t seed) {
  if (n > 8) {
    // The first and last 8 bytes (overlapping below 16), keyed, then
    // multiplied.
    const uint64_t lo = DecodeFixed64(p) ^ (DecodeFixed64(SecretAt(0)) + seed);
    const uint64_t hi =
        DecodeFixed64(p + n - 8) ^ (DecodeFixed64(SecretAt(8)) - seed);
    return Avalanche(n + lo + hi + MultiplyFold(lo, hi));
  }
  if (n >= 4) {
    // The first and last 4 bytes as one 64-bit word.
    const uint64_t input =
        DecodeFixed32(p) | (uint64_t{DecodeFixed32(p + n - 4)} << 32);
    const uint64_t keyed = input ^ (DecodeFixed64(SecretAt(0)) + seed);
    const uint64_t mixed = n + (keyed ^ (keyed >> 51)) * kPrime32_1;
    return Avalanche((mixed ^ (mixed >> 47)) * kPrime64_2);
  }
  if (n > 0) {
    // First, middle and last byte, and the length, in one 32-bit word.
    const auto byte = [](char c) { return uint32_t{static_cast<uint8_t>(c)}; };
    const uint32_t packed = byte(p[0]) | (byte(p[n / 2]) << 8) |
                            (byte(p[n - 1]) << 16) |
                            (static_cast<uint32_t>(n) << 24);
    const uint64_t keyed = packed ^ (DecodeFixed32(SecretAt(0)) + seed);
    return Avalanche(keyed * kPrime64_1);
  }
  // RocksDB's change to the preview (util/xxph3.h): the empty input hashes the
  // seed, where the preview returned 0, a poor value for multiplicative uses.
  return MultiplyFold(seed + DecodeFixed64(SecretAt(0)), kPrime64_2);
}

// 17..128 bytes: 16-byte pieces taken in pairs from both ends towards the
// middle, one pair per started 32 bytes; pair i uses secret bytes 32i..32i+31.
// Written out by length (rather than a loop) so that each length class is
// straight-line code.
inline uint64_t HashMedium(const char* p, size_t n, uint64_t seed) {
  const auto pair = [p, n, seed](size_t i) {
    return Mix16(p + kMixBytes * i, SecretAt(2 * kMixBytes * i), seed) +
           Mix16(p + n - kMixBytes * (i + 1),
                 SecretAt(2 * kMixBytes * i + kMixBytes), seed);
  };
  uint64_t acc = n * kPrime64_1 + pair(0);
  if (n > 2 * kMixBytes) {
    acc += pair(1);
    if (n > 4 * kMixBytes) {
      acc += pair(2);
      if (n > 6 * kMixBytes) acc += pair(3);
    }
  }
  return Avalanche(acc);
}

// More than 128 bytes.
uint64_t HashLong(const char* p, size_t n, uint64_t seed);

}  // namespace rocksdb_hash_internal

// RocksDB's Hash64(data, n, seed) (util/hash.cc at v7.8.3): XXH3-64 preview
// 0.7.2 with RocksDB's empty-input change. Seed 0 gives Hash64(data, n), the
// filters' key hash.
inline uint64_t RocksDbHash64(const char* data, size_t n, uint64_t seed) {
  namespace internal = rocksdb_hash_internal;
  if (n <= internal::kMaxShortInput) {
    return internal::HashShort(data, n, seed);
  }
  if (n <= internal::kMaxMediumInput) {
    return internal::HashMedium(data, n, seed);
  }
  return internal::HashLong(data, n, seed);
}

// The key hash of RocksDB's FastLocalBloom and Ribbon filters
// (GetSliceHash64).
inline uint64_t RocksDbHash64(absl::string_view key) {
  return RocksDbHash64(key.data(), key.size(), 0);
}

}  // namespace sstfilter

#endif  // SSTFILTER_UTIL_ROCKSDB_HASH_H_
