// The contract of the native layout's public names (namespace bloom), as the
// layers built on it rely on them: the hash of fixed keys, a block below the
// block count and a bit below the block's for any hash, the trailer, the
// sizing of a few rates, and the probe paths. Written against the public
// headers only.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "filter/bloom/bloom_builder.h"
#include "filter/bloom/bloom_format.h"
#include "filter/bloom/bloom_impl.h"
#include "filter/bloom/bloom_probe.h"
#include "filter/bloom/bloom_sizing.h"
#include "filter/filter_policy.h"
#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

using ::sstfilter::test::Key16;
using ::sstfilter::test::Mix64;

TEST(BloomLayoutTest, Constants) {
  EXPECT_EQ(std::string(bloom::kLocalBloomName), "sstfilter.LocalBloom1");
  EXPECT_EQ(std::string(bloom::kCheckedLocalBloomName),
            "sstfilter.LocalBloom2");
  EXPECT_EQ(bloom::kFormatMarker, 0xB1);
  EXPECT_EQ(bloom::kBlockBytes, 64u);
  EXPECT_EQ(bloom::kBlockBits, 512u);
  EXPECT_EQ(uint64_t{1} << bloom::kLog2BlockBits, bloom::kBlockBits);
  EXPECT_EQ(bloom::kFixedTrailerBytes, 3u);
  EXPECT_EQ(bloom::kMinStoredBitsPerKey, 1);
  EXPECT_EQ(bloom::kMaxStoredBitsPerKey, 100);
  EXPECT_EQ(bloom::kProbeMultipliers[0], 0x43142b49u);
  EXPECT_EQ(bloom::kProbeMultipliers[31], 0x349622b3u);
}

// The values of bloom_golden_test's KeyHash (XXH3-64, seed 0).
TEST(BloomLayoutTest, KeyHashOfFixedKeys) {
  EXPECT_EQ(bloom::KeyHash(""), 0x2d06800538d394c2u);
  EXPECT_EQ(bloom::KeyHash("a"), 0xe6c632b61e964e1fu);
  EXPECT_EQ(bloom::KeyHash("hello"), 0x9555e8555c62dcfdu);
  EXPECT_EQ(bloom::KeyHash(Key16(0, 0)), 0xa80e9a467e21a67du);
  EXPECT_EQ(bloom::KeyHash(std::string(200, 'x')), 0x50ef124fb1e4de53u);
  // The low half drives the probes.
  EXPECT_EQ(bloom::ProbeHash(0x9555e8555c62dcfdu), 0x5c62dcfdu);
}

// Body sizes around the block boundaries and beyond 2^32 blocks.
std::vector<uint64_t> BodySizes() {
  return {1,   8,    63,   64,   65,           127,
          128, 1000, 4096, 4159, 123456789012, uint64_t{1} << 60};
}

TEST(BloomLayoutTest, BlockIndexBelowTheBlockCount) {
  for (uint64_t body_bytes : BodySizes()) {
    const bloom::BodyLayout layout = bloom::MakeBodyLayout(body_bytes);
    ASSERT_GE(layout.num_blocks, 1u);
    EXPECT_EQ(bloom::BlockIndex(0, layout.body_bits, layout.num_blocks), 0u);
    EXPECT_EQ(
        bloom::BlockIndex(~uint64_t{0}, layout.body_bits, layout.num_blocks),
        layout.num_blocks - 1)
        << body_bytes;
    uint64_t previous = 0;
    for (uint64_t i = 0; i < 10000; ++i) {
      // Increasing hashes: the block index never decreases.
      const uint64_t hash = i * (~uint64_t{0} / 10000);
      const uint64_t block =
          bloom::BlockIndex(hash, layout.body_bits, layout.num_blocks);
      ASSERT_LT(block, layout.num_blocks) << body_bytes << " " << hash;
      ASSERT_GE(block, previous) << body_bytes << " " << hash;
      previous = block;
      ASSERT_LT(
          bloom::BlockIndex(Mix64(i), layout.body_bits, layout.num_blocks),
          layout.num_blocks);
    }
  }
}

TEST(BloomLayoutTest, BodyLayoutOfFewSizes) {
  struct Case {
    uint64_t body_bytes;
    uint64_t num_blocks;
    uint64_t last_block_bits;
    uint64_t regular_blocks;
  };
  for (const Case& c :
       {Case{10, 1, 80, 0}, Case{64, 1, 512, 1}, Case{125, 1, 1000, 0},
        Case{128, 2, 512, 2}, Case{200, 3, 1600 - 2 * 512, 2}}) {
    const bloom::BodyLayout layout = bloom::MakeBodyLayout(c.body_bytes);
    EXPECT_EQ(layout.body_bytes, c.body_bytes);
    EXPECT_EQ(layout.body_bits, 8 * c.body_bytes);
    EXPECT_EQ(layout.num_blocks, c.num_blocks) << c.body_bytes;
    EXPECT_EQ(layout.last_block_bits, c.last_block_bits) << c.body_bytes;
    EXPECT_EQ(layout.regular_blocks, c.regular_blocks) << c.body_bytes;
  }
}

TEST(BloomLayoutTest, ProbeBitBelowTheBlockBits) {
  const uint32_t edges[] = {0, 1, 0x7fffffffu, 0x80000000u, 0xffffffffu};
  for (uint32_t probe : edges) {
    EXPECT_LT(bloom::ProbeBit(probe, bloom::kBlockBits), bloom::kBlockBits);
    EXPECT_LT(bloom::ProbeBit(probe, 1000), 1000u);
    EXPECT_LT(bloom::ProbeBit(probe, 8), 8u);
  }
  for (uint64_t i = 0; i < 100000; ++i) {
    const uint32_t probe = static_cast<uint32_t>(Mix64(i));
    // A regular block: the probe value's top 9 bits.
    ASSERT_EQ(bloom::ProbeBit(probe, bloom::kBlockBits),
              probe >> (32 - bloom::kLog2BlockBits));
    ASSERT_LT(bloom::ProbeBit(probe, 1016), 1016u);
  }
  EXPECT_EQ(bloom::ProbeBit(0xffffffffu, bloom::kBlockBits), 511u);
}

TEST(BloomLayoutTest, AddToBlockSetsTheProbeBits) {
  const uint64_t hash = bloom::KeyHash("hello");
  const uint32_t probe_hash = bloom::ProbeHash(hash);
  constexpr int kProbes = 7;
  char block[bloom::kBlockBytes] = {};
  bloom::AddToBlock(probe_hash, kProbes, bloom::kBlockBits, block);
  int set = 0;
  for (uint64_t bit = 0; bit < bloom::kBlockBits; ++bit) {
    set += (block[bit / 8] >> (bit % 8)) & 1;
  }
  EXPECT_GE(set, 1);
  EXPECT_LE(set, kProbes);
  for (int i = 0; i < kProbes; ++i) {
    const uint32_t bit = bloom::ProbeBit(
        probe_hash * bloom::kProbeMultipliers[i], bloom::kBlockBits);
    EXPECT_EQ((block[bit / 8] >> (bit % 8)) & 1, 1) << i;
  }
}

TEST(BloomLayoutTest, TrailerRoundTrip) {
  // 100 keys at 10 bits/key: a body of 125 bytes, one wide block.
  std::string filter(bloom::BodyBytes(100, 10), '\0');
  ASSERT_EQ(filter.size(), 125u);
  bloom::AppendTrailer(100, 6, &filter);
  EXPECT_EQ(filter.size(), 125u + 1 + bloom::kFixedTrailerBytes);
  EXPECT_EQ(static_cast<uint8_t>(filter[filter.size() - 2]),
            bloom::kFormatMarker);
  const bloom::ParsedFilter parsed = bloom::ParseFilter(filter);
  ASSERT_EQ(parsed.verdict, bloom::Verdict::kProbe);
  EXPECT_EQ(parsed.body, filter.data());
  EXPECT_EQ(parsed.num_keys, 100u);
  EXPECT_EQ(parsed.num_probes, 6);
  EXPECT_EQ(parsed.layout.body_bytes, 125u);

  std::string empty;
  bloom::AppendTrailer(0, 6, &empty);
  EXPECT_EQ(bloom::ParseFilter(empty).verdict, bloom::Verdict::kMatchNothing);
  EXPECT_EQ(bloom::ParseFilter("").verdict, bloom::Verdict::kMatchNothing);
  // Another marker is another format: may match.
  std::string other = filter;
  other[other.size() - 2] = static_cast<char>(0xB2);
  EXPECT_EQ(bloom::ParseFilter(other).verdict, bloom::Verdict::kMatchAll);
}

// Bits/key and probes for a few rates (1% and 0.01% as bloom.h states them).
TEST(BloomLayoutTest, SizingOfFewRates) {
  struct Case {
    double fpp;
    double bits_per_key;
    int num_probes;
  };
  for (const Case& c : {Case{0.1, 4.836, 3}, Case{0.01, 9.92, 6},
                        Case{0.001, 15.546, 9}, Case{0.0001, 22.03, 12}}) {
    absl::StatusOr<bloom::BloomSizing> sizing = bloom::SizeForFpp(c.fpp);
    ASSERT_TRUE(sizing.ok()) << c.fpp;
    EXPECT_NEAR(sizing->bits_per_key, c.bits_per_key, 0.005) << c.fpp;
    EXPECT_EQ(sizing->num_probes, c.num_probes) << c.fpp;
    EXPECT_LE(bloom::LayoutFpp(sizing->bits_per_key, sizing->num_probes),
              c.fpp);
  }
  EXPECT_FALSE(bloom::SizeForFpp(1e-11).ok());
  EXPECT_EQ(bloom::OptimalProbes(10), 6);
  const bloom::BloomSizing ten = bloom::SizeForBitsPerKey(10);
  EXPECT_EQ(ten.bits_per_key, 10);
  EXPECT_EQ(ten.num_probes, 6);
  absl::StatusOr<bloom::BloomSizing> by_options =
      bloom::SizeForOptions(FilterOptions::BitsPerKey(10));
  ASSERT_TRUE(by_options.ok());
  EXPECT_EQ(by_options->num_probes, 6);
  EXPECT_EQ(bloom::BodyBytes(0, 10), 0u);
  EXPECT_EQ(bloom::BodyBytes(1001, 10), 1252u);
}

TEST(BloomLayoutTest, ProbePaths) {
  EXPECT_TRUE(bloom::ProbePathAvailable(bloom::ProbePath::kScalar));
  EXPECT_TRUE(bloom::ProbePathAvailable(bloom::BestProbePath()));
  EXPECT_EQ(bloom::ProbePathAvailable(bloom::ProbePath::kAvx2),
            bloom::CpuHasAvx2());
  EXPECT_EQ(bloom::ProbeRounds(1), 1);
  EXPECT_EQ(bloom::ProbeRounds(8), 1);
  EXPECT_EQ(bloom::ProbeRounds(9), 2);
  EXPECT_EQ(bloom::ProbeRounds(30), 4);
  for (bloom::ProbePath path :
       {bloom::ProbePath::kScalar, bloom::BestProbePath()}) {
    EXPECT_EQ(std::string(bloom::LocalBloomFormatFor(path).Name()),
              bloom::kLocalBloomName);
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
        bloom::NewBloomFilterPolicyWithPath(
            test::Version1(FilterOptions::BitsPerKey(10)), path);
    ASSERT_TRUE(policy.ok());
    std::unique_ptr<FilterBuilder> builder = (*policy)->NewBuilder();
    std::unique_ptr<FilterBuilder> same = bloom::NewLocalBloomBuilder(10, 6);
    for (uint64_t i = 0; i < 100; ++i) {
      builder->AddKey(Key16(0, i));
      same->AddKey(Key16(0, i));
    }
    std::string built;
    std::string built_same;
    builder->Finish(&built);
    same->Finish(&built_same);
    EXPECT_EQ(built, built_same);
    EXPECT_EQ(bloom::ParseFilter(built).num_probes, 6);
  }
}

}  // namespace
}  // namespace sstfilter
