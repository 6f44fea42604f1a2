// The native Bloom filter's format pieces: the block index at sizes beyond 2^32
// blocks, the body layout, the corrupt-filter decision table, and the scalar
// and AVX2 paths against a plain reference of the format.

#include "filter/bloom/bloom_format.h"

#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "filter/bloom/bloom.h"
#include "filter/bloom/bloom_impl.h"
#include "filter/bloom/bloom_probe.h"
#include "filter/bloom_like_policy.h"
#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"
#include "util/bloom_math.h"
#include "util/coding.h"

namespace sstfilter {
namespace bloom_internal {
namespace {

using ::sstfilter::test::BuildFilter;
using ::sstfilter::test::Key16;
using ::sstfilter::test::Keys16;
using ::sstfilter::test::Mix64;

// The reference: BlockIndex's definition written out with long division in 128
// bits.
uint64_t ReferenceBlock(uint64_t hash, uint64_t body_bits) {
  const unsigned __int128 bit =
      (static_cast<unsigned __int128>(hash) * body_bits) >> 64;
  const uint64_t num_blocks = std::max<uint64_t>(1, body_bits / 512);
  return std::min<uint64_t>(static_cast<uint64_t>(bit / 512), num_blocks - 1);
}

TEST(BloomFormatTest, BlockIndexBeyond32Bits) {
  // 2^36 regular blocks (a 4 TiB body): computed, not allocated.
  const uint64_t num_blocks = uint64_t{1} << 36;
  const uint64_t body_bits = num_blocks * 512;
  EXPECT_EQ(BlockIndex(0, body_bits, num_blocks), 0u);
  EXPECT_EQ(BlockIndex(~uint64_t{0}, body_bits, num_blocks), num_blocks - 1);
  EXPECT_EQ(BlockIndex(uint64_t{1} << 63, body_bits, num_blocks),
            num_blocks / 2);
  // Block j starts exactly at hash j * 2^28.
  for (uint64_t j : {uint64_t{1}, uint64_t{0xffffffff}, uint64_t{0x100000000},
                     uint64_t{0x123456789}, num_blocks - 1}) {
    EXPECT_EQ(BlockIndex(j << 28, body_bits, num_blocks), j);
    EXPECT_EQ(BlockIndex((j << 28) - 1, body_bits, num_blocks), j - 1);
  }
  // A body with an irregular last block, with more than 2^32 blocks: (2^33 + 5)
  // blocks plus 37 bytes; the last block takes the hashes of its 101 bytes.
  const uint64_t blocks2 = (uint64_t{1} << 33) + 5;
  const BodyLayout layout = MakeBodyLayout(blocks2 * 64 + 37);
  EXPECT_EQ(layout.num_blocks, blocks2);
  EXPECT_EQ(layout.last_block_bits, (64u + 37u) * 8);
  EXPECT_EQ(layout.regular_blocks, blocks2 - 1);
  EXPECT_EQ(BlockIndex(~uint64_t{0}, layout.body_bits, layout.num_blocks),
            blocks2 - 1);
  for (uint64_t i = 0; i < 100000; ++i) {
    const uint64_t hash = Mix64(i);
    ASSERT_EQ(BlockIndex(hash, layout.body_bits, layout.num_blocks),
              ReferenceBlock(hash, layout.body_bits));
    ASSERT_EQ(BlockIndex(hash, body_bits, num_blocks),
              ReferenceBlock(hash, body_bits));
  }
  // Blocks beyond 2^32 are reached: the top half of the hash space lands there.
  EXPECT_GT(BlockIndex(uint64_t{3} << 62, body_bits, num_blocks),
            uint64_t{1} << 32);
}

TEST(BloomFormatTest, BodyLayout) {
  struct Case {
    uint64_t body_bytes, num_blocks, last_block_bits, regular_blocks;
  };
  for (const Case& c : std::vector<Case>{
           {1, 1, 8, 0},        // a tiny filter: one 8-bit block
           {63, 1, 504, 0},     // still shorter than a block
           {64, 1, 512, 1},     // exactly one regular block
           {127, 1, 1016, 0},   // one block absorbing 63 extra bytes
           {128, 2, 512, 2},    // two regular blocks
           {1250, 19, 784, 18}  // 1000 keys at 10 bits/key
       }) {
    const BodyLayout layout = MakeBodyLayout(c.body_bytes);
    EXPECT_EQ(layout.body_bits, c.body_bytes * 8);
    EXPECT_EQ(layout.num_blocks, c.num_blocks) << c.body_bytes;
    EXPECT_EQ(layout.last_block_bits, c.last_block_bits) << c.body_bytes;
    EXPECT_EQ(layout.regular_blocks, c.regular_blocks) << c.body_bytes;
  }
}

// The format as filter/bloom/README.md states it, written plainly and
// sharing nothing with the reader but the block index above: its own trailer
// parse, multipliers and hash (libxxhash's XXH3, called directly).

// "Reading any bytes", row by row.
struct ReferenceFilter {
  Verdict verdict = Verdict::kMatchAll;
  uint64_t body_bytes = 0;  // B
  int num_probes = 0;       // k
};

ReferenceFilter ReferenceParse(absl::string_view filter) {
  ReferenceFilter parsed;
  if (filter.size() < 4) {
    parsed.verdict = Verdict::kMatchNothing;
    return parsed;
  }
  auto byte = [&](size_t i) { return static_cast<uint8_t>(filter[i]); };
  const size_t size = filter.size();
  const int k = byte(size - 1);
  const uint8_t marker = byte(size - 2);
  const size_t varint_bytes = byte(size - 3);  // L
  if (marker != 0xB1) return parsed;
  if (k == 0 || k > 30) return parsed;
  if (varint_bytes == 0 || varint_bytes > 10 || varint_bytes + 3 > size) {
    return parsed;
  }
  // n: 7 bits per byte, low group first, the high bit set on every byte but
  // the last, which must be byte L; the shortest encoding, so the last byte
  // is not 0 unless it is the only one, and the value fits 64 bits.
  const size_t body_bytes = size - 3 - varint_bytes;
  unsigned __int128 n = 0;
  for (size_t i = 0; i < varint_bytes; ++i) {
    const uint8_t b = byte(body_bytes + i);
    const bool last = i + 1 == varint_bytes;
    if (((b & 0x80) == 0) != last) return parsed;
    n |= static_cast<unsigned __int128>(b & 0x7f) << (7 * i);
  }
  if (varint_bytes > 1 && byte(size - 4) == 0) return parsed;
  if (n > ~uint64_t{0}) return parsed;
  if (n == 0 && body_bytes == 0) {
    parsed.verdict = Verdict::kMatchNothing;
    return parsed;
  }
  if ((n == 0) != (body_bytes == 0)) return parsed;
  const unsigned __int128 body_bits =
      static_cast<unsigned __int128>(body_bytes) * 8;
  if (body_bits < n || body_bits >= 100 * n + 8) return parsed;
  parsed.verdict = Verdict::kProbe;
  parsed.body_bytes = body_bytes;
  parsed.num_probes = k;
  return parsed;
}

// "kProbeMultipliers": the high 32 bits of successive splitmix64 outputs
// (Steele, Lea and Flood 2014) from seed 0x5eed51f1, made odd.
std::vector<uint32_t> ReferenceMultipliers() {
  std::vector<uint32_t> multipliers;
  uint64_t state = 0x5eed51f1;
  for (int i = 0; i < 30; ++i) {
    state += 0x9e3779b97f4a7c15ULL;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    multipliers.push_back(static_cast<uint32_t>(z >> 32) | 1);
  }
  return multipliers;
}

uint64_t ReferenceHash(absl::string_view key) {
  return XXH3_64bits(key.data(), key.size());
}

// The bit of the body that probe i of a key with hash tests ("Bits of a key").
uint64_t ReferenceProbeBit(uint64_t hash, uint64_t body_bytes, int i) {
  static const std::vector<uint32_t>* const multipliers =
      new std::vector<uint32_t>(ReferenceMultipliers());
  const uint64_t body_bits = body_bytes * 8;
  const uint64_t num_blocks = std::max<uint64_t>(1, body_bytes / 64);
  const uint64_t block = ReferenceBlock(hash, body_bits);
  const uint64_t block_bits =
      block + 1 == num_blocks ? body_bits - block * 512 : 512;
  const uint32_t probe = static_cast<uint32_t>(hash) * (*multipliers)[i];
  return block * 512 + ((uint64_t{probe} * block_bits) >> 32);
}

bool ReferenceMayMatch(absl::string_view filter, absl::string_view key) {
  const ReferenceFilter parsed = ReferenceParse(filter);
  if (parsed.verdict != Verdict::kProbe) {
    return parsed.verdict == Verdict::kMatchAll;
  }
  const uint64_t hash = ReferenceHash(key);
  for (int i = 0; i < parsed.num_probes; ++i) {
    const uint64_t bit = ReferenceProbeBit(hash, parsed.body_bytes, i);
    if (((static_cast<uint8_t>(filter[bit / 8]) >> (bit % 8)) & 1) == 0) {
      return false;
    }
  }
  return true;
}

// The document's derivation of the multipliers gives the code's table.
TEST(BloomFormatTest, ProbeMultipliersAreTheDocumentsSplitMix64Outputs) {
  const std::vector<uint32_t> reference = ReferenceMultipliers();
  for (size_t i = 0; i < reference.size(); ++i) {
    EXPECT_EQ(kProbeMultipliers[i], reference[i]) << "multiplier " << i;
  }
}

// Builds filter bytes from parts: body, then varint bytes, length byte, marker,
// k.
std::string Bytes(size_t body_bytes, const std::string& varint,
                  int varint_length, int marker, int k) {
  std::string bytes(body_bytes, '\xff');
  bytes += varint;
  bytes.push_back(static_cast<char>(varint_length));
  bytes.push_back(static_cast<char>(marker));
  bytes.push_back(static_cast<char>(k));
  return bytes;
}

std::string Varint(uint64_t value) {
  std::string out;
  PutVarint64(&out, value);
  return out;
}

TEST(BloomFormatTest, CorruptFilterDecisionTable) {
  const int kMarker = kFormatMarker;
  struct Case {
    const char* why;
    std::string bytes;
    Verdict verdict;
  };
  const std::vector<Case> cases = {
      // Too short to hold the smallest trailer: like an empty filter slice in
      // LevelDB, it
      // stands for no keys.
      {"empty", "", Verdict::kMatchNothing},
      {"3 bytes", std::string("\x01\xb1\x06", 3), Verdict::kMatchNothing},
      // What the builder writes for no keys: a 0 count and no body.
      {"empty key set", Bytes(0, Varint(0), 1, kMarker, 6),
       Verdict::kMatchNothing},
      // A format this reader does not know (a later version, or another
      // policy's
      // filter): it may hold any key.
      {"other marker", Bytes(10, Varint(8), 1, 0xB2, 6), Verdict::kMatchAll},
      {"zero marker", Bytes(10, Varint(8), 1, 0, 6), Verdict::kMatchAll},
      // k outside [1, 30]: 0 probes cannot reject a key; above 30 is reserved
      // (the same
      // rule as LevelDB's).
      {"k = 0", Bytes(10, Varint(8), 1, kMarker, 0), Verdict::kMatchAll},
      {"k = 31", Bytes(10, Varint(8), 1, kMarker, 31), Verdict::kMatchAll},
      {"k = 255", Bytes(10, Varint(8), 1, kMarker, 255), Verdict::kMatchAll},
      // The varint length byte must be 1..10 and fit in the filter.
      {"varint length 0", Bytes(10, "", 0, kMarker, 6), Verdict::kMatchAll},
      {"varint length 11", Bytes(20, Varint(8), 11, kMarker, 6),
       Verdict::kMatchAll},
      {"varint longer than filter", Bytes(0, Varint(8), 5, kMarker, 6),
       Verdict::kMatchAll},
      // The varint must end exactly where its length says, in the shortest
      // encoding.
      {"varint continues", Bytes(10, "\x88", 1, kMarker, 6),
       Verdict::kMatchAll},
      {"varint ends early", Bytes(9, std::string("\x08\x00", 2), 2, kMarker, 6),
       Verdict::kMatchAll},
      {"varint not shortest",
       Bytes(9, std::string("\x88\x00", 2), 2, kMarker, 6), Verdict::kMatchAll},
      // Body size against key count: a writer uses 1..100 bits per key.
      {"keys but no body", Bytes(0, Varint(8), 1, kMarker, 6),
       Verdict::kMatchAll},
      {"body but no keys", Bytes(10, Varint(0), 1, kMarker, 6),
       Verdict::kMatchAll},
      {"under 1 bit/key", Bytes(10, Varint(81), 1, kMarker, 6),
       Verdict::kMatchAll},
      {"exactly 1 bit/key", Bytes(10, Varint(80), 1, kMarker, 6),
       Verdict::kProbe},
      {"100 bits/key, rounded up", Bytes(13, Varint(1), 1, kMarker, 6),
       Verdict::kProbe},
      {"over 100 bits/key", Bytes(14, Varint(1), 1, kMarker, 6),
       Verdict::kMatchAll},
      // The bound itself: 8B = 100n + 8 is refused, one byte less is not.
      {"8B = 100n + 8", Bytes(26, Varint(2), 1, kMarker, 6),
       Verdict::kMatchAll},
      {"8B = 100n", Bytes(25, Varint(2), 1, kMarker, 6), Verdict::kProbe},
      {"huge key count", Bytes(10, Varint(~uint64_t{0}), 10, kMarker, 6),
       Verdict::kMatchAll},
      // Well-formed.
      {"k = 1", Bytes(10, Varint(8), 1, kMarker, 1), Verdict::kProbe},
      {"k = 30", Bytes(100, Varint(80), 1, kMarker, 30), Verdict::kProbe},
      {"2-byte varint", Bytes(1000, Varint(300), 2, kMarker, 6),
       Verdict::kProbe},
  };
  std::unique_ptr<const FilterPolicy> policy = std::move(
      *NewBloomFilterPolicy(test::Version1(FilterOptions::BitsPerKey(10))));
  for (const Case& c : cases) {
    // A copy of exactly the filter's size, so that a sanitizer sees any
    // over-read.
    const std::unique_ptr<char[]> copy(new char[c.bytes.size() + 1]);
    std::copy(c.bytes.begin(), c.bytes.end(), copy.get());
    const absl::string_view filter(copy.get(), c.bytes.size());
    EXPECT_EQ(ParseFilter(filter).verdict, c.verdict) << c.why;
    EXPECT_EQ(ReferenceParse(filter).verdict, c.verdict) << c.why;
    std::unique_ptr<FilterReader> reader = policy->NewReader(filter);
    switch (c.verdict) {
      case Verdict::kMatchNothing:
        EXPECT_FALSE(reader->MayMatch("key")) << c.why;
        EXPECT_FALSE(policy->KeyMayMatch("key", filter)) << c.why;
        EXPECT_EQ(reader->ExpectedFpp(), 0.0) << c.why;
        break;
      case Verdict::kMatchAll:
        EXPECT_TRUE(reader->MayMatch("key")) << c.why;
        EXPECT_TRUE(policy->KeyMayMatch("key", filter)) << c.why;
        EXPECT_EQ(reader->ExpectedFpp(), 1.0) << c.why;
        break;
      case Verdict::kProbe:
        // The body is all ones: everything matches, by probing.
        EXPECT_TRUE(reader->MayMatch("key")) << c.why;
        EXPECT_GT(reader->ExpectedFpp(), 0.0) << c.why;
        EXPECT_LE(reader->ExpectedFpp(), 1.0) << c.why;
        break;
    }
  }
}

// Any bytes at all: no crash, no read outside the buffer (checked under
// --config=asan), and every path answers as the reference below does.
TEST(BloomFormatTest, ArbitraryBytes) {
  std::vector<std::unique_ptr<const FilterPolicy>> policies;
  for (ProbePath path : {ProbePath::kScalar, ProbePath::kAvx2}) {
    if (!ProbePathAvailable(path)) continue;
    policies.push_back(std::move(*NewBloomFilterPolicyWithPath(
        test::Version1(FilterOptions::BitsPerKey(10)), path)));
  }
  const std::string good = BuildFilter(*policies[0], Keys16(0, 0, 500));
  for (uint64_t trial = 0; trial < 20000; ++trial) {
    std::string bytes;
    if (trial % 2 == 0) {
      // Random bytes, with a valid-looking trailer half of the time.
      bytes.resize(Mix64(trial) % 300);
      for (size_t i = 0; i < bytes.size(); ++i) {
        bytes[i] = static_cast<char>(Mix64(trial * 1000 + i));
      }
      if (trial % 4 == 0 && bytes.size() >= 4) {
        const uint64_t n = Mix64(trial + 7) % (bytes.size() * 8 + 1);
        std::string trailer = Varint(n);
        if (trailer.size() + 3 <= bytes.size()) {
          trailer.push_back(static_cast<char>(trailer.size()));
          trailer.push_back(static_cast<char>(kFormatMarker));
          trailer.push_back(static_cast<char>(1 + trial % 30));
          bytes.replace(bytes.size() - trailer.size(), trailer.size(), trailer);
        }
      }
    } else {
      // A good filter, truncated or with one byte changed.
      bytes = good;
      const uint64_t r = Mix64(trial);
      if (r % 3 == 0) {
        bytes.resize(r % bytes.size());
      } else {
        bytes[r % bytes.size()] ^= static_cast<char>(1 + (r >> 32) % 255);
      }
    }
    const std::unique_ptr<char[]> copy(new char[bytes.size() + 1]);
    std::copy(bytes.begin(), bytes.end(), copy.get());
    const absl::string_view filter(copy.get(), bytes.size());
    std::vector<bool> answers;
    for (const auto& policy : policies) {
      std::unique_ptr<FilterReader> reader = policy->NewReader(filter);
      const double fpp = reader->ExpectedFpp();
      ASSERT_GE(fpp, 0.0);
      ASSERT_LE(fpp, 1.0);
      for (uint64_t i = 0; i < 8; ++i) {
        const bool answer = reader->MayMatch(Key16(0, i));
        ASSERT_EQ(answer, policy->KeyMayMatch(Key16(0, i), filter));
        ASSERT_EQ(answer, ReferenceMayMatch(filter, Key16(0, i)))
            << "trial " << trial;
        answers.push_back(answer);
      }
    }
    for (size_t i = 8; i < answers.size(); ++i)
      ASSERT_EQ(answers[i], answers[i % 8]);
  }
}

// The builder against a plain construction of the format from the same keys,
// at sizes around the point (2^20 keys) where the builder starts grouping
// hashes by block range: the bytes must not depend on how it orders its work.
std::string ReferenceBuild(const std::vector<std::string>& keys,
                           double bits_per_key, int k) {
  std::vector<uint64_t> hashes;
  for (const std::string& key : keys) {
    const uint64_t hash = ReferenceHash(key);
    if (hashes.empty() || hashes.back() != hash) hashes.push_back(hash);
  }
  const uint64_t n = hashes.size();
  const uint64_t body_bytes =
      n == 0 ? 0
             : static_cast<uint64_t>(std::ceil(static_cast<long double>(n) *
                                               bits_per_key / 8.0L));
  std::string filter(body_bytes, '\0');
  for (uint64_t hash : hashes) {
    for (int i = 0; i < k; ++i) {
      const uint64_t bit = ReferenceProbeBit(hash, body_bytes, i);
      filter[bit / 8] = static_cast<char>(filter[bit / 8] | (1 << (bit % 8)));
    }
  }
  size_t varint_bytes = 0;
  uint64_t rest = n;
  do {
    const uint8_t low = rest & 0x7f;
    rest >>= 7;
    filter.push_back(static_cast<char>(rest != 0 ? low | 0x80 : low));
    ++varint_bytes;
  } while (rest != 0);
  filter.push_back(static_cast<char>(varint_bytes));
  filter.push_back(static_cast<char>(0xB1));
  filter.push_back(static_cast<char>(k));
  return filter;
}

TEST(BloomFormatTest, BuilderMatchesReferenceConstruction) {
  std::unique_ptr<const FilterPolicy> policy = std::move(
      *NewBloomFilterPolicy(test::Version1(FilterOptions::Fpp(0.02))));
  for (uint64_t n : {uint64_t{0}, uint64_t{1}, uint64_t{3}, uint64_t{100},
                     uint64_t{5000}, (uint64_t{1} << 20) - 1, uint64_t{1} << 20,
                     (uint64_t{1} << 20) + 12345}) {
    std::vector<std::string> keys = Keys16(0, 0, n);
    if (n > 2) keys[2] = keys[1];  // a repeated key, stored once
    ASSERT_EQ(BuildFilter(*policy, keys),
              ReferenceBuild(keys, policy->BitsPerKey(),
                             AsBloomLike(*policy)->NumProbes()))
        << "n=" << n;
  }
}

// Both paths against the reference, single and batched, over filter sizes that
// exercise tiny, irregular-last-block and multi-block layouts and every k.
TEST(BloomFormatTest, ProbePathsAgreeWithReference) {
  if (!ProbePathAvailable(ProbePath::kAvx2)) {
    GTEST_LOG_(INFO) << "no AVX2 on this CPU: checking the scalar path only";
  }
  for (int k = kMinProbes; k <= kMaxProbes; ++k) {
    // bits/key chosen so that the layout's optimum is k.
    const double bits = std::max(1.0, k / 0.69);
    std::vector<std::unique_ptr<const FilterPolicy>> policies;
    for (ProbePath path : {ProbePath::kScalar, ProbePath::kAvx2}) {
      if (!ProbePathAvailable(path)) continue;
      policies.push_back(std::move(*NewBloomFilterPolicyWithPath(
          test::Version1(FilterOptions::BitsPerKey(bits)), path)));
    }
    for (uint64_t n : {1, 3, 20, 51, 64, 333, 2000}) {
      const std::string filter = BuildFilter(*policies[0], Keys16(0, 0, n));
      ASSERT_EQ(filter, BuildFilter(*policies.back(), Keys16(0, 0, n)));
      const int stored_k = static_cast<uint8_t>(filter.back());
      std::vector<std::string> keys = Keys16(1, 0, 3000);
      const std::vector<std::string> present = Keys16(0, 0, n);
      keys.insert(keys.end(), present.begin(), present.end());
      std::vector<absl::string_view> views(keys.begin(), keys.end());
      std::unique_ptr<bool[]> batched(new bool[views.size()]);
      for (const auto& policy : policies) {
        std::unique_ptr<FilterReader> reader = policy->NewReader(filter);
        reader->MayMatch(absl::MakeConstSpan(views), batched.get());
        for (size_t i = 0; i < keys.size(); ++i) {
          const bool expected = ReferenceMayMatch(filter, keys[i]);
          ASSERT_EQ(reader->MayMatch(keys[i]), expected)
              << "k=" << stored_k << " n=" << n << " i=" << i;
          ASSERT_EQ(batched[i], expected) << "k=" << stored_k << " n=" << n;
        }
      }
    }
  }
}

// Keys of every length from 0 to 300 bytes, through each path's reader for k
// in each number of 8-probe rounds: a reader hashes keys of up to 16 bytes
// inline and the others out of line, and both agree with the reference.
TEST(BloomFormatTest, KeysOfEveryLengthAgreeWithReference) {
  std::vector<std::string> added, absent;
  for (size_t length = 0; length <= 300; ++length) {
    for (uint64_t copy = 0; copy < 4; ++copy) {
      std::string key(length, '\0');
      for (size_t i = 0; i < length; ++i) {
        key[i] = static_cast<char>(Mix64(length * 1000 + copy * 10 + i));
      }
      added.push_back(key);
      if (length > 0) key[0] = static_cast<char>(key[0] ^ 0x5a);
      absent.push_back(key);
    }
  }
  for (double bits : {4.0, 10.0, 20.0, 40.0}) {
    for (ProbePath path : {ProbePath::kScalar, ProbePath::kAvx2}) {
      if (!ProbePathAvailable(path)) continue;
      const auto policy = std::move(*NewBloomFilterPolicyWithPath(
          test::Version1(FilterOptions::BitsPerKey(bits)), path));
      const std::string filter = BuildFilter(*policy, added);
      std::unique_ptr<FilterReader> reader = policy->NewReader(filter);
      for (const std::string& key : added) {
        ASSERT_TRUE(reader->MayMatch(key)) << bits << " " << key.size();
      }
      for (const std::string& key : absent) {
        ASSERT_EQ(reader->MayMatch(key), ReferenceMayMatch(filter, key))
            << bits << " " << key.size();
      }
    }
  }
}

#if SSTFILTER_HAVE_AVX2_PATH
__attribute__((target("avx2"))) bool Avx2Probe(uint32_t probe_hash, int k,
                                               const char* block) {
  return Avx2ProbeRegularBlock(probe_hash, k, block);
}
#endif

// A filter may sit at any address (a block cache hands out whatever it has):
// both paths answer as the reference at every offset from a cache line.
TEST(BloomFormatTest, AnyAlignment) {
  std::vector<std::unique_ptr<const FilterPolicy>> policies;
  for (ProbePath path : {ProbePath::kScalar, ProbePath::kAvx2}) {
    if (!ProbePathAvailable(path)) continue;
    policies.push_back(std::move(*NewBloomFilterPolicyWithPath(
        test::Version1(FilterOptions::BitsPerKey(10)), path)));
  }
  std::vector<std::string> keys = Keys16(1, 0, 500);
  for (const std::string& key : Keys16(0, 0, 500)) keys.push_back(key);
  const std::vector<absl::string_view> views(keys.begin(), keys.end());
  std::unique_ptr<bool[]> batched(new bool[views.size()]);
  for (uint64_t n : {3, 40, 500}) {
    const std::string filter = BuildFilter(*policies[0], Keys16(0, 0, n));
    // 64-byte aligned storage, so that offset o puts the body at o mod 64.
    const size_t padded = (filter.size() + 64 + 63) / 64 * 64;
    std::unique_ptr<char, decltype(&std::free)> buffer(
        static_cast<char*>(std::aligned_alloc(64, padded)), &std::free);
    for (size_t offset = 0; offset < 64; ++offset) {
      std::copy(filter.begin(), filter.end(), buffer.get() + offset);
      const absl::string_view placed(buffer.get() + offset, filter.size());
      for (const auto& policy : policies) {
        std::unique_ptr<FilterReader> reader = policy->NewReader(placed);
        reader->MayMatch(absl::MakeConstSpan(views), batched.get());
        for (size_t i = 0; i < keys.size(); ++i) {
          const bool expected = ReferenceMayMatch(placed, keys[i]);
          ASSERT_EQ(reader->MayMatch(keys[i]), expected)
              << "n=" << n << " offset=" << offset << " i=" << i;
          ASSERT_EQ(batched[i], expected)
              << "n=" << n << " offset=" << offset << " i=" << i;
        }
      }
    }
  }
}

// The AVX2 probe of one regular block against the scalar one, on random block
// contents of every density and every k.
TEST(BloomProbeTest, Avx2BlockProbeEqualsScalar) {
  if (!ProbePathAvailable(ProbePath::kAvx2))
    GTEST_SKIP() << "no AVX2 on this CPU";
#if SSTFILTER_HAVE_AVX2_PATH
  char block[64 + 3];
  uint64_t disagreements = 0;
  uint64_t hits = 0;
  for (uint64_t trial = 0; trial < 200000; ++trial) {
    // Density from sparse to almost full: AND of up to 3 random words, or OR.
    const int mode = static_cast<int>(trial % 6);
    for (int i = 0; i < 64 + 3; ++i) {
      uint64_t r = Mix64(trial * 131 + i);
      if (mode < 3) {
        for (int j = 0; j < mode; ++j) r &= Mix64(r + j);
      } else {
        for (int j = 3; j < mode; ++j) r |= Mix64(r + j);
      }
      block[i] = static_cast<char>(r);
    }
    const uint32_t probe_hash = static_cast<uint32_t>(Mix64(~trial));
    const int k = 1 + static_cast<int>(trial % 30);
    const char* at = block + trial % 4;  // any alignment
    const bool scalar = ScalarProbeBlock(probe_hash, k, kBlockBits, at);
    if (scalar) ++hits;
    if (Avx2Probe(probe_hash, k, at) != scalar) ++disagreements;
  }
  EXPECT_EQ(disagreements, 0u);
  EXPECT_GT(hits, 1000u);  // both answers were exercised
#endif
}

}  // namespace
}  // namespace bloom_internal
}  // namespace sstfilter
