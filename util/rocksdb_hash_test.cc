// Pins RocksDB's filter hashes (util/rocksdb_hash.h) and checks them against
// the functions librocksdb 7.8.3 exports: every length of RocksDbHash64 from 0
// to 4,096 at random alignments and seeds, and RocksDbHash32 on every byte in
// every tail position.

#include "util/rocksdb_hash.h"

#include <cstdint>
#include <string>

#include "gtest/gtest.h"
#include "util/hash.h"
#include "util/testing/random.h"

// librocksdb exports these (nm -DC librocksdb.so), but declares them only in
// its internal util/hash.h.
namespace rocksdb {
uint64_t Hash64(const char* data, size_t n, uint64_t seed);
uint64_t Hash64(const char* data, size_t n);
uint32_t Hash(const char* data, size_t n, uint32_t seed);
}  // namespace rocksdb

namespace sstfilter {
namespace {

constexpr size_t kMaxCheckedLength = 4096;

// Every length 0..4,096 covers each path of the preview XXH3 (0, 1-3, 4-8,
// 9-16, 17-128, 129-240, and the stripe loop with 0..15 stripes in a partial
// block, whole blocks, and lengths that are and are not multiples of 64).
TEST(RocksDbHash64Test, MatchesRocksDbForEveryLengthAndAlignment) {
  constexpr uint64_t kSeed = 0x4a5b64;
  SCOPED_TRACE(testing::Message() << "random seed " << kSeed);
  test::Random rng(kSeed);
  const std::string buffer = rng.Bytes(kMaxCheckedLength + 16);
  for (size_t len = 0; len <= kMaxCheckedLength; ++len) {
    const char* data = buffer.data() + rng.Uniform(16);
    SCOPED_TRACE(testing::Message() << "length " << len);
    ASSERT_EQ(RocksDbHash64(absl::string_view(data, len)),
              rocksdb::Hash64(data, len));
    ASSERT_EQ(RocksDbHash64(data, len, 0), rocksdb::Hash64(data, len, 0));
    // Seeds: small, with the top bit set, and random.
    for (uint64_t seed :
         {uint64_t{1}, uint64_t{0x8000000000000001}, rng.Next64()}) {
      ASSERT_EQ(RocksDbHash64(data, len, seed),
                rocksdb::Hash64(data, len, seed))
          << "seed " << seed;
    }
  }
}

// Inputs of a single repeated byte (all zeros, all 0xff) are where a missed
// sign or carry would show.
TEST(RocksDbHash64Test, MatchesRocksDbOnUniformBytes) {
  for (char c : {'\0', '\xff', '\x80', 'a'}) {
    const std::string input(kMaxCheckedLength, c);
    for (size_t len = 0; len <= kMaxCheckedLength;
         len += (len < 300 ? 1 : 61)) {
      ASSERT_EQ(RocksDbHash64(input.data(), len, 0),
                rocksdb::Hash64(input.data(), len))
          << "byte " << static_cast<int>(c) << ", length " << len;
    }
  }
}

// Frozen from librocksdb 7.8.3: the on-disk format of RocksDB's FastLocalBloom
// and Ribbon filters depends on these values. One input per path.
TEST(RocksDbHash64Test, FrozenValues) {
  const std::string long_input = [] {
    std::string s;
    for (int i = 0; i < 2000; ++i) s.push_back(static_cast<char>(i * 7 + 3));
    return s;
  }();
  const struct {
    absl::string_view input;
    uint64_t seed;
    uint64_t expected;
  } kVectors[] = {
      {"", 0, 0x5342c3010fe1dd04},
      {"a", 0, 0x88d868bf607681c7},
      {"abc", 0, 0xd39eeb71bb5342e8},
      {"hello", 0, 0xa0bbc238c97657b5},
      {"key0", 0, 0x0e31e4c8c91617cc},
      {"0123456789abcdef", 0, 0x402c83c1955d056d},
      {"The quick brown fox jumps over the lazy dog", 0, 0x7a1331a5f5e19b65},
      {absl::string_view(long_input).substr(0, 200), 0, 0x4ddc3e63692b0196},
      {long_input, 0, 0xc5769c96e6f212b8},
      {long_input, 0x123456789abcdef, 0x4de70fef2f0ee4af},
      {"hello", 0x123456789abcdef, 0xcc92390f7720b64b},
  };
  for (const auto& v : kVectors) {
    EXPECT_EQ(RocksDbHash64(v.input.data(), v.input.size(), v.seed), v.expected)
        << "length " << v.input.size() << ", seed " << v.seed;
  }
}

// The preview differs from released XXH3 (util/hash.h Hash64) at every length:
// the reason RocksDB's filters need their own hash.
TEST(RocksDbHash64Test, DiffersFromReleasedXxh3) {
  test::Random rng(0xd1ff);
  const std::string buffer = rng.Bytes(1100);
  for (size_t len = 0; len <= 1100; ++len) {
    const absl::string_view input(buffer.data(), len);
    ASSERT_NE(RocksDbHash64(input), Hash64(input)) << "length " << len;
  }
}

// Sign extension makes RocksDB's hash differ from LevelDB's exactly when a
// tail byte is >= 0x80; every byte value in every position of inputs of 1..7
// bytes, with the legacy Bloom seed and others.
TEST(RocksDbHash32Test, MatchesRocksDbOnEveryByteInEveryPosition) {
  for (int b = 0; b < 256; ++b) {
    for (size_t len = 1; len <= 7; ++len) {
      for (size_t pos = 0; pos < len; ++pos) {
        std::string input(len, '\x5a');
        input[pos] = static_cast<char>(b);
        for (uint32_t seed : {kRocksDbBloomSeed, 0u, 0xffffffffu}) {
          ASSERT_EQ(RocksDbHash32(input.data(), len, seed),
                    rocksdb::Hash(input.data(), len, seed))
              << "byte " << b << " at " << pos << " of " << len << ", seed "
              << seed;
        }
        const bool signed_tail = pos >= len - len % 4 && b >= 0x80;
        EXPECT_EQ(RocksDbBloomHash(input) != LevelDbBloomHash(input),
                  signed_tail)
            << "byte " << b << " at " << pos << " of " << len;
      }
    }
  }
}

TEST(RocksDbHash32Test, MatchesRocksDbOnRandomInputs) {
  constexpr uint64_t kSeed = 0x5eed32;
  SCOPED_TRACE(testing::Message() << "random seed " << kSeed);
  test::Random rng(kSeed);
  const std::string buffer = rng.Bytes(1024 + 8);
  for (size_t len = 0; len <= 1024; ++len) {
    const char* data = buffer.data() + rng.Uniform(8);
    for (uint32_t seed :
         {kRocksDbBloomSeed, static_cast<uint32_t>(rng.Next64())}) {
      ASSERT_EQ(RocksDbHash32(data, len, seed), rocksdb::Hash(data, len, seed))
          << "length " << len << ", seed " << seed;
    }
  }
}

// From RocksDB's util/hash_test.cc (HashTest.Values, seed 0xbc9f1d34): inputs
// with tail bytes >= 0x80, where LevelDB 1.23's hash gives other values.
TEST(RocksDbHash32Test, RocksDbGoldenValues) {
  EXPECT_EQ(RocksDbHash32("\x9a", 1, kRocksDbBloomSeed), 3195034349u);
  EXPECT_EQ(RocksDbHash32("\x52\xd5", 2, kRocksDbBloomSeed), 3854228105u);
  EXPECT_EQ(RocksDbHash32("\x56\xdc\xd6", 3, kRocksDbBloomSeed), 2157698265u);
  EXPECT_EQ(RocksDbHash32("\x86\x83\xd5\xa4\xd8", 5, kRocksDbBloomSeed),
            2390603402u);
  EXPECT_EQ(RocksDbHash32("\x1a\xb5\xd0\xfe\xab\xc3\x61\xb2\x99", 9,
                          kRocksDbBloomSeed),
            2706087434u);
  EXPECT_EQ(RocksDbHash32("", 0, kRocksDbBloomSeed), 3164544308u);
}

}  // namespace
}  // namespace sstfilter
