// The out-of-line parts of RocksDB's hashes (util/rocksdb_hash.h): inputs of
// more than 128 bytes for RocksDbHash64, and RocksDbHash32. Algorithm facts
// from RocksDB v7.8.3 util/xxph3.h (XXH3 0.7.2 preview) and util/hash.cc.

#include "util/rocksdb_hash.h"

namespace sstfilter {

uint32_t RocksDbHash32(const char* data, size_t n, uint32_t seed) {
  // Murmur-style multiplier and final shift of the hash (util/hash.cc).
  constexpr uint32_t kMultiplier = 0xc6a4a793;
  constexpr int kTailShift = 24;

  // The length enters modulo 2^32.
  uint32_t h = seed ^ (static_cast<uint32_t>(n) * kMultiplier);
  const size_t body = n - n % 4;
  for (size_t i = 0; i < body; i += 4) {
    h = (h + DecodeFixed32(data + i)) * kMultiplier;
    h ^= h >> 16;
  }
  if (body == n) return h;
  // The 1-3 tail bytes enter as sign-extended 32-bit values: the format
  // RocksDB kept from an early LevelDB, so bytes >= 0x80 subtract from the
  // upper bits.
  for (size_t i = n; i-- > body;) {
    const uint32_t extended = static_cast<uint32_t>(
        static_cast<int32_t>(static_cast<int8_t>(data[i])));
    h += extended << (8 * (i - body));
  }
  h *= kMultiplier;
  return h ^ (h >> kTailShift);
}

namespace rocksdb_hash_internal {

const uint8_t kSecret[kSecretBytes] = {
    0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c,
    0xf7, 0x21, 0xad, 0x1c, 0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb,
    0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f, 0xcb, 0x79, 0xe6, 0x4e,
    0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
    0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6,
    0x81, 0x3a, 0x26, 0x4c, 0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb,
    0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3, 0x71, 0x64, 0x48, 0x97,
    0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
    0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7,
    0xc7, 0x0b, 0x4f, 0x1d, 0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31,
    0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64, 0xea, 0xc5, 0xac, 0x83,
    0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
    0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26,
    0x29, 0xd4, 0x68, 0x9e, 0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc,
    0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce, 0x45, 0xcb, 0x3a, 0x8f,
    0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
};

namespace {

// 129..240 bytes: the first 128 bytes as eight 16-byte mixes against the
// secret's first 128 bytes, scrambled; then each further whole 16 bytes against
// the secret from offset kMidSecretOffset; then the last 16 bytes against the
// secret at kMidLastSecretOffset.
constexpr size_t kMaxMidInput = 240;
constexpr size_t kMidFirstMixes = 8;
constexpr size_t kMidSecretOffset = 3;        // bytes
constexpr size_t kMidLastSecretOffset = 119;  // bytes (136 - 17)

uint64_t HashMid(const char* p, size_t n, uint64_t seed) {
  uint64_t acc = n * kPrime64_1;
  for (size_t i = 0; i < kMidFirstMixes; ++i) {
    acc += Mix16(p + kMixBytes * i, SecretAt(kMixBytes * i), seed);
  }
  acc = Avalanche(acc);
  for (size_t i = kMidFirstMixes; i < n / kMixBytes; ++i) {
    acc += Mix16(p + kMixBytes * i,
                 SecretAt(kMixBytes * (i - kMidFirstMixes) + kMidSecretOffset),
                 seed);
  }
  acc += Mix16(p + n - kMixBytes, SecretAt(kMidLastSecretOffset), seed);
  return Avalanche(acc);
}

// Above 240 bytes: eight 64-bit lanes accumulate 64-byte stripes. A block is
// kStripesPerBlock stripes, stripe s keyed with the secret at 8s; the lanes are
// scrambled after each whole block. A partial last block's stripes follow, and
// when the length is not a multiple of 64, the last 64 bytes once more
// (overlapping), keyed at kLastStripeSecretOffset. The preview differs from
// released XXH3 here: each lane adds its own input word (not its neighbour's),
// and a length that is a multiple of 64 takes no extra last stripe.
constexpr size_t kLanes = 8;
constexpr size_t kStripeBytes = 64;
constexpr size_t kSecretStepBytes = 8;  // secret bytes consumed per stripe
constexpr size_t kStripesPerBlock =
    (kSecretBytes - kStripeBytes) / kSecretStepBytes;              // 16
constexpr size_t kScrambleSecretOffset = kSecretBytes - 64;        // bytes
constexpr size_t kLastStripeSecretOffset = kSecretBytes - 64 - 7;  // bytes
constexpr size_t kMergeSecretOffset = 11;                          // bytes

void AccumulateStripe(uint64_t* lanes, const char* stripe, const char* secret) {
  for (size_t i = 0; i < kLanes; ++i) {
    const uint64_t word = DecodeFixed64(stripe + 8 * i);
    const uint64_t keyed = word ^ DecodeFixed64(secret + 8 * i);
    lanes[i] += word + (keyed & 0xffffffff) * (keyed >> 32);
  }
}

void ScrambleLanes(uint64_t* lanes, const char* secret) {
  for (size_t i = 0; i < kLanes; ++i) {
    uint64_t lane = lanes[i];
    lane ^= lane >> 47;
    lane ^= DecodeFixed64(secret + 8 * i);
    lanes[i] = lane * kPrime32_1;
  }
}

uint64_t HashStripes(const char* p, size_t n, const char* secret) {
  uint64_t lanes[kLanes] = {kPrime32_3, kPrime64_1, kPrime64_2, kPrime64_3,
                            kPrime64_4, kPrime32_2, kPrime64_5, kPrime32_1};
  constexpr size_t kBlockBytes = kStripesPerBlock * kStripeBytes;
  const size_t whole_blocks = n / kBlockBytes;
  for (size_t b = 0; b < whole_blocks; ++b) {
    for (size_t s = 0; s < kStripesPerBlock; ++s) {
      AccumulateStripe(lanes, p + b * kBlockBytes + kStripeBytes * s,
                       secret + kSecretStepBytes * s);
    }
    ScrambleLanes(lanes, secret + kScrambleSecretOffset);
  }
  const size_t last_stripes = (n - whole_blocks * kBlockBytes) / kStripeBytes;
  for (size_t s = 0; s < last_stripes; ++s) {
    AccumulateStripe(lanes, p + whole_blocks * kBlockBytes + kStripeBytes * s,
                     secret + kSecretStepBytes * s);
  }
  if (n % kStripeBytes != 0) {
    AccumulateStripe(lanes, p + n - kStripeBytes,
                     secret + kLastStripeSecretOffset);
  }
  uint64_t result = n * kPrime64_1;
  for (size_t i = 0; i < kLanes; i += 2) {
    const char* key = secret + kMergeSecretOffset + 8 * i;
    result += MultiplyFold(lanes[i] ^ DecodeFixed64(key),
                           lanes[i + 1] ^ DecodeFixed64(key + 8));
  }
  return Avalanche(result);
}

}  // namespace

uint64_t HashLong(const char* p, size_t n, uint64_t seed) {
  if (n <= kMaxMidInput) return HashMid(p, n, seed);
  if (seed == 0) return HashStripes(p, n, SecretAt(0));
  // A seeded long input uses a derived secret: in each 16 bytes, the seed added
  // to the low word and subtracted from the high one.
  char secret[kSecretBytes];
  for (size_t i = 0; i < kSecretBytes; i += 16) {
    EncodeFixed64(secret + i, DecodeFixed64(SecretAt(i)) + seed);
    EncodeFixed64(secret + i + 8, DecodeFixed64(SecretAt(i + 8)) - seed);
  }
  return HashStripes(p, n, secret);
}

}  // namespace rocksdb_hash_internal
}  // namespace sstfilter
