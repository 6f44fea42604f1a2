// Pins the hash functions whose outputs are stored on disk (util/hash.h): any
// change to a value below is a format change. LevelDbHash32 is also checked
// against RocksDB's copy of LevelDB's hash, linked from librocksdb.

#include "util/hash.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "util/testing/random.h"

// RocksDB's rocksdb::Hash is LevelDB's hash (util/hash.cc of both projects),
// exported by librocksdb but declared only in an internal header.
namespace rocksdb {
uint32_t Hash(const char* data, size_t n, uint32_t seed);
}  // namespace rocksdb

namespace sstfilter {
namespace {

struct Hash32Vector {
  std::string input;
  uint32_t seed;
  uint32_t expected;
};

// From LevelDB 1.23 util/hash_test.cc, HASH.SignedUnsignedIssue: bytes >= 0x80
// must be read as unsigned (an early version sign-extended the tail bytes).
const std::vector<Hash32Vector>& LevelDbVectors() {
  static const auto* vectors = new std::vector<Hash32Vector>{
      {"", 0xbc9f1d34, 0xbc9f1d34},
      {"\x62", 0xbc9f1d34, 0xef1345c4},
      {"\xc3\x97", 0xbc9f1d34, 0x5b663814},
      {"\xe2\x99\xa5", 0xbc9f1d34, 0x323c078f},
      {"\xe1\x80\xb9\x32", 0xbc9f1d34, 0xed21633a},
      {std::string("\x01\xc0\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
                   "\x00\x00\x00\x00\x14\x00\x00\x00\x00\x00\x04\x00"
                   "\x00\x00\x00\x14\x00\x00\x00\x18\x28\x00\x00\x00"
                   "\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00",
                   48),
       0x12345678, 0xf333dabb},
  };
  return *vectors;
}

// From RocksDB util/hash_test.cc, HashTest.Values (seed 0xbc9f1d34, "Same as
// BloomHash"): random strings of every length 0..10.
const std::vector<Hash32Vector>& RocksDbVectors() {
  constexpr uint32_t kSeed = 0xbc9f1d34;
  static const auto* vectors = new std::vector<Hash32Vector>{
      {"", kSeed, 3164544308u},
      {"\x08", kSeed, 422599524u},
      {"\x17", kSeed, 3168152998u},
      {"\x9a", kSeed, 3195034349u},
      {"\x1c", kSeed, 2651681383u},
      {"\x4d\x76", kSeed, 2447836956u},
      {"\x52\xd5", kSeed, 3854228105u},
      {"\x91\xf7", kSeed, 31066776u},
      {"\xd6\x27", kSeed, 1806091603u},
      {"\x30\x46\x0b", kSeed, 3808221797u},
      {"\x56\xdc\xd6", kSeed, 2157698265u},
      {"\xd4\x52\x33", kSeed, 1721992661u},
      {"\x6a\xb5\xf4", kSeed, 2469105222u},
      {"\x67\x53\x81\x1c", kSeed, 118283265u},
      {"\x69\xb8\xc0\x88", kSeed, 3416318611u},
      {"\x1e\x84\xaf\x2d", kSeed, 3315003572u},
      {"\x46\xdc\x54\xbe", kSeed, 447346355u},
      {"\xd0\x7a\x6e\xea\x56", kSeed, 4255445370u},
      {"\x86\x83\xd5\xa4\xd8", kSeed, 2390603402u},
      {"\xb7\x46\xbb\x77\xce", kSeed, 2048907743u},
      {"\x6c\xa8\xbc\xe5\x99", kSeed, 2177978500u},
      {"\x5c\x5e\xe1\xa0\x73\x81", kSeed, 1036846008u},
      {"\x08\x5d\x73\x1c\xe5\x2e", kSeed, 229980482u},
      {"\x42\xfb\xf2\x52\xb4\x10", kSeed, 3655585422u},
      {"\x73\xe1\xff\x56\x9c\xce", kSeed, 3502708029u},
      {"\x5c\xbe\x97\x75\x54\x9a\x52", kSeed, 815120748u},
      {"\x16\x82\x39\x49\x88\x2b\x36", kSeed, 3056033698u},
      {"\x59\x77\xf0\xa7\x24\xf4\x78", kSeed, 587205227u},
      {"\xd3\xa5\x7c\x0e\xc0\x02\x07", kSeed, 2030937252u},
      {"\x31\x1b\x98\x75\x96\x22\xd3\x9a", kSeed, 469635402u},
      {"\x38\xd6\xf7\x28\x20\xb4\x8a\xe9", kSeed, 3530274698u},
      {"\xbb\x18\x5d\xf4\x12\x03\xf7\x99", kSeed, 1974545809u},
      {"\x80\xd4\x3b\x3b\xae\x22\xa2\x78", kSeed, 3563570120u},
      {"\x1a\xb5\xd0\xfe\xab\xc3\x61\xb2\x99", kSeed, 2706087434u},
      {"\x8e\x4a\xc3\x18\x20\x2f\x06\xe6\x3c", kSeed, 1534654151u},
      {"\xb6\xc0\xdd\x05\x3f\xc4\x86\x4c\xef", kSeed, 2355554696u},
      {"\x9a\x5f\x78\x0d\xaf\x50\xe1\x1f\x55", kSeed, 1400800912u},
      {"\x22\x6f\x39\x1f\xf8\xdd\x4f\x52\x17\x94", kSeed, 3420325137u},
      {"\x32\x89\x2a\x75\x48\x3a\x4a\x02\x69\xdd", kSeed, 3427803584u},
      {"\x06\x92\x5c\xf4\x88\x0e\x7e\x68\x38\x3e", kSeed, 1152407945u},
      {"\xbd\x2c\x63\x38\xbf\xe9\x78\xb7\xbf\x15", kSeed, 3382479516u},
  };
  return *vectors;
}

TEST(LevelDbHash32Test, LevelDbGoldenValues) {
  for (const Hash32Vector& v : LevelDbVectors()) {
    EXPECT_EQ(LevelDbHash32(v.input.data(), v.input.size(), v.seed), v.expected)
        << "input length " << v.input.size();
  }
}

// RocksDB's copy of the hash reads the 1-3 tail bytes as *signed* chars (it
// kept the original LevelDB behaviour, a disk format of its own), while
// LevelDB 1.23 reads them as unsigned. The two agree exactly when no tail byte
// is >= 0x80.
bool TailIsAscii(absl::string_view input) {
  for (size_t i = input.size() - input.size() % 4; i < input.size(); ++i) {
    if (static_cast<uint8_t>(input[i]) >= 0x80) return false;
  }
  return true;
}

TEST(LevelDbHash32Test, RocksDbGoldenValuesWithAsciiTails) {
  int checked = 0;
  for (const Hash32Vector& v : RocksDbVectors()) {
    if (!TailIsAscii(v.input)) continue;  // RocksDB's signed-tail variant
    EXPECT_EQ(LevelDbHash32(v.input.data(), v.input.size(), v.seed), v.expected)
        << "input length " << v.input.size();
    ++checked;
  }
  // Lengths 0, 4 and 8, and the others whose tail is ASCII: 18 of the 42.
  EXPECT_EQ(checked, 18);
}

TEST(LevelDbHash32Test, BloomHashUsesLevelDbSeed) {
  EXPECT_EQ(kLevelDbBloomSeed, 0xbc9f1d34u);
  for (const Hash32Vector& v : LevelDbVectors()) {
    if (v.seed != kLevelDbBloomSeed) continue;
    EXPECT_EQ(LevelDbBloomHash(v.input), v.expected);
  }
}

// Compares with rocksdb::Hash: equal when the tail is ASCII, different
// otherwise (a signed tail byte always changes the sum before the final
// bijective mix).
void ExpectRocksDbRelation(const char* data, size_t len, uint32_t seed) {
  const absl::string_view input(data, len);
  if (TailIsAscii(input)) {
    EXPECT_EQ(LevelDbHash32(data, len, seed), rocksdb::Hash(data, len, seed));
  } else {
    EXPECT_NE(LevelDbHash32(data, len, seed), rocksdb::Hash(data, len, seed));
  }
}

// Every byte value alone, and in each position of the 4-byte body and of a 1-3
// byte tail: the places where signed chars would go wrong.
TEST(LevelDbHash32Test, MatchesRocksDbOnEveryByteInEveryPosition) {
  for (int b = 0; b < 256; ++b) {
    for (size_t len = 1; len <= 7; ++len) {
      for (size_t pos = 0; pos < len; ++pos) {
        SCOPED_TRACE(testing::Message()
                     << "byte " << b << " at " << pos << " of " << len);
        std::string input(len, '\x5a');
        input[pos] = static_cast<char>(b);
        ExpectRocksDbRelation(input.data(), len, kLevelDbBloomSeed);
        if (HasFailure()) return;
      }
    }
  }
}

TEST(LevelDbHash32Test, MatchesRocksDbOnRandomInputs) {
  constexpr uint64_t kSeed = 0x5eed0001;
  SCOPED_TRACE(testing::Message() << "random seed " << kSeed);
  test::Random rng(kSeed);
  std::string buffer;
  int ascii_tails = 0;
  for (int round = 0; round < 20; ++round) {
    // Slack after the longest input so that inputs start at every alignment.
    buffer = rng.Bytes(300 + 8);
    for (size_t len = 0; len <= 300; ++len) {
      const size_t offset = rng.Uniform(8);
      char* data = &buffer[offset];
      // Half the inputs get an ASCII tail, so that both relations are exercised
      // often.
      if (rng.OneIn(2)) {
        for (size_t i = len - len % 4; i < len; ++i) data[i] &= 0x7f;
      }
      ascii_tails += TailIsAscii(absl::string_view(data, len));
      // The filter's seed, and arbitrary ones (all 32 bits take part).
      for (uint32_t seed :
           {kLevelDbBloomSeed, static_cast<uint32_t>(rng.Next64()), 0u}) {
        SCOPED_TRACE(testing::Message()
                     << "round " << round << ", length " << len << ", offset "
                     << offset << ", seed " << seed);
        ExpectRocksDbRelation(data, len, seed);
        if (HasFailure()) return;
      }
    }
  }
  // Both relations were tested many times.
  EXPECT_GT(ascii_tails, 20 * 301 / 3);
  EXPECT_LT(ascii_tails, 20 * 301 * 9 / 10);
}

// Hash64 is XXH3-64 with seed 0 (xxHash >= 0.8.0).
//
// Inputs of the first table are xxHash's sanity-test buffer: byte i is the top
// byte of 2654435761 * 11400714785074694797^i (mod 2^64). Expected values are
// xxHash's own, from cli/xsum_sanity_check.c (XSUM_XXH3_testdata, seed 0); the
// lengths reach every code path of XXH3 (1-3, 4-8, 9-16, 17-128, 129-240, and
// the long-input loop).
std::string XxhSanityBuffer(size_t len) {
  std::string buffer(len, '\0');
  uint64_t byte_gen = 2654435761u;
  for (size_t i = 0; i < len; ++i) {
    buffer[i] = static_cast<char>(byte_gen >> 56);
    byte_gen *= 11400714785074694797u;
  }
  return buffer;
}

TEST(Hash64Test, XxHashSanityValues) {
  const struct {
    size_t len;
    uint64_t expected;
  } kVectors[] = {
      {0, 0x2D06800538D394C2},    {1, 0xC44BDFF4074EECDB},
      {6, 0x27B56A84CD2D7325},    {12, 0xA713DAF0DFBB77E7},
      {24, 0xA3FE70BF9D3510EB},   {48, 0x397DA259ECBA1F11},
      {80, 0xBCDEFBBB2C47C90A},   {195, 0xCD94217EE362EC3A},
      {403, 0xCDEB804D65C6DEA4},  {512, 0x617E49599013CB6B},
      {2048, 0xDD59E2C3A5F038E0}, {2240, 0x6E73A90539CF2948},
      {2367, 0xCB37AEB9E5D361ED},
  };
  const std::string buffer = XxhSanityBuffer(2367);
  for (const auto& v : kVectors) {
    EXPECT_EQ(Hash64(absl::string_view(buffer.data(), v.len)), v.expected)
        << "length " << v.len;
  }
}

// Computed with libxxhash 0.8.1 when sstfilter's native format was defined, and
// frozen since: these values are part of the format.
TEST(Hash64Test, FrozenValues) {
  EXPECT_EQ(Hash64(""), 0x2D06800538D394C2u);
  EXPECT_EQ(Hash64("a"), 0xE6C632B61E964E1Fu);
  EXPECT_EQ(Hash64("abc"), 0x78AF5F94892F3950u);
  EXPECT_EQ(Hash64("hello"), 0x9555E8555C62DCFDu);
  EXPECT_EQ(Hash64("key0"), 0x74D935ED02021EC6u);
  EXPECT_EQ(Hash64("The quick brown fox jumps over the lazy dog"),
            0xCE7D19A5418FB365u);
}

TEST(Hash64Test, IgnoresBytesOutsideTheView) {
  const std::string text = "xxhello, worldyy";
  EXPECT_EQ(Hash64(absl::string_view(text).substr(2, 12)),
            Hash64("hello, world"));
}

}  // namespace
}  // namespace sstfilter
