// The range filter's promises: no false negative for any range that holds a
// key (point, inclusive and exclusive ranges, across the hash's block
// boundaries and the wrap of the reduced universe); the measured
// false-positive rate within the proven bound on uniform and correlated
// ranges; the Elias-Fano query against a brute-force model of the stored
// hashes; sizing; options; and damaged filters.

#include "filter/range/range_filter.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "filter/range/grafite_builder.h"
#include "filter/range/grafite_format.h"
#include "filter/range/grafite_sizing.h"
#include "filter/range/range_key.h"
#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"
#include "util/coding.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

using grafite_internal::GrafiteSizing;
using grafite_internal::LocalityHash;
using grafite_internal::SizingForBudget;

std::unique_ptr<const FilterPolicy> Policy(double bits_per_key,
                                           bool self_checksum = true) {
  FilterOptions options = FilterOptions::BitsPerKey(bits_per_key);
  options.self_checksum = self_checksum;
  return std::move(*NewGrafiteFilterPolicy(options));
}

std::vector<uint64_t> RandomCodes(test::Random* rng, size_t n) {
  std::vector<uint64_t> codes(n);
  for (uint64_t& code : codes) code = rng->Next64();
  std::sort(codes.begin(), codes.end());
  codes.erase(std::unique(codes.begin(), codes.end()), codes.end());
  return codes;
}

std::vector<std::string> KeysOf(const std::vector<uint64_t>& codes) {
  std::vector<std::string> keys;
  for (uint64_t code : codes) keys.push_back(KeyOfRangeCode(code));
  return keys;
}

bool AnyCodeIn(const std::vector<uint64_t>& sorted, uint64_t lo, uint64_t hi) {
  auto it = std::lower_bound(sorted.begin(), sorted.end(), lo);
  return it != sorted.end() && *it <= hi;
}

TEST(RangeFilterTest, EveryRangeHoldingAKeyMatches) {
  test::Random rng(1);
  for (double bits : {3.0, 8.0, 16.0, 24.0}) {
    for (size_t n : {1u, 2u, 17u, 1000u, 30000u}) {
      SCOPED_TRACE(testing::Message() << bits << " bits, " << n << " keys");
      const std::vector<uint64_t> codes = RandomCodes(&rng, n);
      const auto policy = Policy(bits);
      const std::string filter = test::BuildFilter(*policy, KeysOf(codes));
      const auto reader = NewRangeFilterReader(filter);
      ASSERT_TRUE(reader->Corruption().ok());
      for (uint64_t code : codes) {
        ASSERT_TRUE(reader->MayMatch(KeyOfRangeCode(code)));
        for (int i = 0; i < 4; ++i) {
          // Up to 2^12 codes on either side, or anywhere up to the longest
          // range the filter bounds.
          const uint64_t reach =
              rng.OneIn(2) ? 1 << 12 : reader->max_range_length();
          const uint64_t before = std::min(code, rng.Uniform(reach + 1));
          const uint64_t after = std::min(~code, rng.Uniform(reach + 1));
          ASSERT_TRUE(reader->CodeRangeMayMatch(code - before, code + after));
          ASSERT_TRUE(reader->RangeMayMatch(KeyOfRangeCode(code - before),
                                            KeyOfRangeCode(code + after)));
          if (code + after != code && after > 0) {
            ASSERT_TRUE(reader->RangeMayMatchBefore(
                KeyOfRangeCode(code - before), KeyOfRangeCode(code + after)));
          }
        }
      }
    }
  }
}

TEST(RangeFilterTest, KeysLongerThanTheCodeMatchThroughTheirPrefix) {
  const auto policy = Policy(16);
  const std::vector<std::string> keys = {"user0001:alpha", "user0001:beta",
                                         "user0007", "zz"};
  const std::string filter = test::BuildFilter(*policy, keys);
  const auto reader = NewRangeFilterReader(filter);
  EXPECT_TRUE(reader->RangeMayMatch("user0001:b", "user0001:c"));
  EXPECT_TRUE(reader->RangeMayMatch("user0001:beta", "user0001:beta"));
  EXPECT_TRUE(reader->MayMatch("user0001:gamma"));  // shares the code
  EXPECT_TRUE(reader->RangeMayMatchBefore("user0006", "user0008"));
  EXPECT_TRUE(reader->RangeMayMatch("zz", "zz\xff"));
  // Ranges between the keys' codes: the bound makes a match unlikely, and
  // these few are pinned by the fixed seed.
  EXPECT_FALSE(reader->RangeMayMatch("user0002", "user0006"));
  EXPECT_FALSE(reader->RangeMayMatchBefore("user0008", "user0009"));
  // "user0007\x01" is above "user0007" but shares its code: the range may
  // hold it.
  EXPECT_TRUE(reader->RangeMayMatchBefore("user0007\x01", "user0008"));
  // Empty ranges match nothing.
  EXPECT_FALSE(reader->RangeMayMatch("user0007", "user0001"));
  EXPECT_FALSE(reader->RangeMayMatchBefore("user0007", "user0007"));
}

// Codes placed across the boundaries of the hash's blocks (multiples of r)
// and at both ends of the code space: every range around them matches.
TEST(RangeFilterTest, RangesAcrossBlockBoundariesAndTheEnds) {
  const auto policy = Policy(12);
  for (uint64_t n : {1u, 5u, 300u}) {
    const GrafiteSizing sizing = SizingForBudget(12);
    const uint64_t r = grafite_internal::UniverseFor(sizing, n);
    std::vector<uint64_t> codes = {0, ~uint64_t{0}};
    for (uint64_t i = 1; codes.size() < n + 2; ++i) {
      codes.push_back(i * r - 1);
      codes.push_back(i * r);
    }
    std::sort(codes.begin(), codes.end());
    codes.erase(std::unique(codes.begin(), codes.end()), codes.end());
    codes.resize(n);  // the filter's r is sized for n codes
    const std::string filter = test::BuildFilter(*policy, KeysOf(codes));
    const auto reader = NewRangeFilterReader(filter);
    const uint64_t longest = reader->max_range_length();
    for (uint64_t code : codes) {
      for (uint64_t span :
           {uint64_t{0}, uint64_t{1}, uint64_t{2}, longest / 2, longest - 1}) {
        for (uint64_t shift : {uint64_t{0}, span / 2, span}) {
          const uint64_t lo = code >= shift ? code - shift : 0;
          const uint64_t hi = lo + span >= lo ? lo + span : ~uint64_t{0};
          if (hi < code) continue;
          ASSERT_TRUE(reader->CodeRangeMayMatch(lo, hi))
              << n << " " << code << " " << lo << ".." << hi;
        }
      }
    }
  }
}

// The Elias-Fano search against a model: the stored values are the hashes of
// the codes, which the test recomputes, and a code range's answer is whether
// a hash lies in the range's image (one or two intervals, mod r).
TEST(RangeFilterTest, AnswersEqualABruteForceModelOfTheHashes) {
  test::Random rng(2);
  for (double bits : {3.0, 4.5, 7.0, 10.0, 20.0}) {
    const GrafiteSizing sizing = SizingForBudget(bits);
    for (size_t n : {1u, 3u, 64u, 700u, 5000u}) {
      SCOPED_TRACE(testing::Message() << bits << " bits, " << n << " keys");
      // Clustered codes, so that ranges and blocks hold several.
      std::vector<uint64_t> codes;
      const uint64_t base = rng.Next64() >> 1;
      for (size_t i = 0; i < n; ++i)
        codes.push_back(base + rng.Uniform(n * 50));
      std::sort(codes.begin(), codes.end());
      codes.erase(std::unique(codes.begin(), codes.end()), codes.end());
      std::string filter;
      grafite_internal::AppendGrafiteFilter(
          sizing, codes, grafite_internal::kDefaultSeed, &filter);
      const auto reader = NewRangeFilterReader(filter);
      const uint64_t r = grafite_internal::UniverseFor(sizing, codes.size());
      const LocalityHash hash(r, grafite_internal::kDefaultSeed);
      std::vector<uint64_t> hashes;
      for (uint64_t code : codes) hashes.push_back(hash.Hash(code));
      std::sort(hashes.begin(), hashes.end());
      auto image_hit = [&](uint64_t start, uint64_t span) {
        if (start + span < r) return AnyCodeIn(hashes, start, start + span);
        return AnyCodeIn(hashes, start, r - 1) ||
               AnyCodeIn(hashes, 0, start + span - r);
      };
      const uint64_t longest = reader->max_range_length();
      for (int q = 0; q < 20000; ++q) {
        const uint64_t lo = base + rng.Uniform(n * 60);
        const uint64_t length = 1 + rng.Uniform(std::min<uint64_t>(
                                        longest, rng.OneIn(2) ? 8 : 1 << 20));
        const uint64_t hi = lo + length - 1;
        bool expected;
        if (lo / r == hi / r) {
          expected = image_hit(hash.Hash(lo), hi - lo);
        } else {
          const uint64_t start = (hi / r) * r;
          expected = image_hit(hash.Hash(lo), start - 1 - lo) ||
                     image_hit(hash.Hash(start), hi - start);
        }
        ASSERT_EQ(reader->CodeRangeMayMatch(lo, hi), expected)
            << lo << ".." << hi << " r " << r;
      }
    }
  }
}

struct RateCase {
  const char* workload;
  uint64_t length;
};

// Measured rate of empty ranges of `length` codes that match, each starting
// anywhere (uniform) or just after a present key (correlated).
double MeasuredRate(const RangeFilterReader& reader,
                    const std::vector<uint64_t>& codes, bool correlated,
                    uint64_t length, uint64_t queries, test::Random* rng) {
  uint64_t empty = 0;
  uint64_t matches = 0;
  while (empty < queries) {
    const uint64_t lo =
        correlated ? codes[rng->Uniform(codes.size())] + 1 : rng->Next64();
    const uint64_t hi = lo + length - 1;
    if (hi < lo || AnyCodeIn(codes, lo, hi)) continue;
    ++empty;
    matches += reader.CodeRangeMayMatch(lo, hi);
  }
  return static_cast<double>(matches) / static_cast<double>(queries);
}

TEST(RangeFilterTest, MeasuredRateIsWithinTheProvenBound) {
  test::Random rng(3);
  const std::vector<uint64_t> codes = RandomCodes(&rng, 100000);
  for (double bits : {10.0, 16.0}) {
    const std::string filter = test::BuildFilter(*Policy(bits), KeysOf(codes));
    const auto reader = NewRangeFilterReader(filter);
    for (bool correlated : {false, true}) {
      for (uint64_t length : {1, 2, 16, 32, 64, 1024}) {
        if (length > reader->max_range_length()) continue;
        const double bound = reader->RangeFppBound(length);
        const uint64_t queries = 200000;
        const double rate =
            MeasuredRate(*reader, codes, correlated, length, queries, &rng);
        // The bound is on the expectation: allow five standard deviations of
        // the binomial count.
        const double slack =
            5 * std::sqrt(bound * (1 - bound) / static_cast<double>(queries));
        EXPECT_LE(rate, bound + slack)
            << bits << " bits, length " << length
            << (correlated ? ", correlated" : ", uniform");
      }
    }
  }
}

TEST(RangeFilterTest, SixteenBitsBoundRangesOf32CodesBelowAQuarterPercent) {
  const auto policy = Policy(16);
  test::Random rng(4);
  const std::vector<uint64_t> codes = RandomCodes(&rng, 50000);
  const std::string filter = test::BuildFilter(*policy, KeysOf(codes));
  const auto reader = NewRangeFilterReader(filter);
  EXPECT_LE(reader->RangeFppBound(32), 0.0025);
  // The filter holds what its budget says (the fixed trailers aside).
  const double bits_per_key = 8.0 * static_cast<double>(filter.size()) /
                              static_cast<double>(codes.size());
  EXPECT_LE(bits_per_key, 16.01);
  EXPECT_GE(bits_per_key, 15.5);
}

TEST(RangeFilterTest, LongRangesMayMatch) {
  test::Random rng(5);
  const std::vector<uint64_t> codes = RandomCodes(&rng, 1000);
  const std::string filter = test::BuildFilter(*Policy(8), KeysOf(codes));
  const auto reader = NewRangeFilterReader(filter);
  const uint64_t longest = reader->max_range_length();
  ASSERT_GT(longest, 0u);
  // A range longer than the longest bounded one, holding no key: "maybe".
  const uint64_t lo = codes[0] + 1;
  ASSERT_FALSE(AnyCodeIn(codes, lo, lo + longest)) << "pick another seed";
  EXPECT_TRUE(reader->CodeRangeMayMatch(lo, lo + longest));
  EXPECT_TRUE(reader->CodeRangeMayMatch(0, ~uint64_t{0}));
}

TEST(RangeFilterTest, EmptyFilterMatchesNothing) {
  for (bool checksum : {true, false}) {
    const std::string filter = test::BuildFilter(*Policy(16, checksum), {});
    const auto reader = NewRangeFilterReader(filter);
    EXPECT_FALSE(reader->MayMatch("a"));
    EXPECT_FALSE(reader->RangeMayMatch("", "\xff\xff\xff\xff\xff\xff\xff\xff"));
    EXPECT_FALSE(reader->CodeRangeMayMatch(0, ~uint64_t{0}));
    EXPECT_EQ(reader->ExpectedFpp(), 0);
  }
}

// Every bit of a version-2 filter flipped in turn: no key and no range
// holding one is lost, and the CRC reports the damage, except where a flip
// turns the checked-filter marker (0xC2, filter/format_version_2.md) into no
// checked marker at all (7 of its 8 bits; the eighth gives 0xC3, the padded
// marker, which the CRC covers): those bytes read as a version-1 filter of an
// unknown marker, "may match" everything.
TEST(RangeFilterTest, DamagedChecksummedFilterMatchesAndSaysSo) {
  test::Random rng(6);
  const std::vector<uint64_t> codes = RandomCodes(&rng, 2000);
  const std::vector<std::string> keys = KeysOf(codes);
  const std::string filter = test::BuildFilter(*Policy(16), keys);
  const size_t marker_at = filter.size() - 2;
  ASSERT_EQ(static_cast<uint8_t>(filter[marker_at]), 0xC2);  // unpadded
  size_t reported = 0;
  for (size_t bit = 0; bit < 8 * filter.size(); ++bit) {
    std::string damaged = filter;
    damaged[bit / 8] ^= static_cast<char>(1 << (bit % 8));
    const auto reader = NewRangeFilterReader(damaged);
    for (size_t i = 0; i < codes.size(); ++i) {
      ASSERT_TRUE(reader->MayMatch(keys[i])) << "bit " << bit;
      ASSERT_TRUE(reader->CodeRangeMayMatch(codes[i] - (codes[i] > 0),
                                            codes[i] + (codes[i] < ~0ull)))
          << "bit " << bit;
    }
    const uint8_t marker = static_cast<uint8_t>(damaged[marker_at]);
    if (marker != 0xC2 && marker != 0xC3) {
      EXPECT_TRUE(reader->Corruption().ok()) << "bit " << bit;
      EXPECT_TRUE(reader->CodeRangeMayMatch(5, 6)) << "bit " << bit;
    } else {
      ASSERT_TRUE(absl::IsDataLoss(reader->Corruption())) << "bit " << bit;
      EXPECT_TRUE(absl::StrContains(reader->Corruption().message(),
                                    "sstfilter.Grafite2"));
      EXPECT_TRUE(absl::IsDataLoss(VerifyRangeFilter(damaged)));
      ++reported;
    }
  }
  EXPECT_EQ(reported, 8 * filter.size() - 7);
  // A flip in the body is caught unless the caller vouches for the bytes.
  std::string flipped = filter;
  flipped[10] ^= 1;
  EXPECT_TRUE(absl::IsDataLoss(VerifyRangeFilter(flipped)));
  EXPECT_TRUE(VerifyRangeFilter(filter).ok());
  const auto trusted =
      NewRangeFilterReader(flipped, RangeFilterChecksum::kTrusted);
  EXPECT_TRUE(trusted->Corruption().ok());
}

TEST(RangeFilterTest, InvalidOptionsNameTheValue) {
  auto expect_invalid = [](const FilterOptions& options, const char* mentions) {
    const auto policy = NewGrafiteFilterPolicy(options);
    ASSERT_FALSE(policy.ok());
    EXPECT_TRUE(absl::IsInvalidArgument(policy.status()));
    EXPECT_TRUE(absl::StrContains(policy.status().message(), mentions))
        << policy.status();
  };
  expect_invalid(FilterOptions::BitsPerKey(2.5), "2.5");
  expect_invalid(FilterOptions::BitsPerKey(61), "61");
  expect_invalid(FilterOptions::RangeFpp(0, 32), "got 0");
  expect_invalid(FilterOptions::RangeFpp(1.5, 32), "1.5");
  expect_invalid(FilterOptions::RangeFpp(0.01, 0), "max_range_length 0");
  expect_invalid(FilterOptions::RangeFpp(1e-18, 1 << 20), "1e-18");
  expect_invalid(FilterOptions(), "exactly one");
  EXPECT_FALSE(NewGrafiteFilterPolicy(FilterOptions::BitsPerKey(2)).ok());
}

TEST(RangeFilterTest, FppSizesForItsRangeLength) {
  for (uint64_t length : {1, 32, 1024}) {
    for (double fpp : {0.01, 0.001}) {
      const auto policy =
          NewGrafiteFilterPolicy(FilterOptions::RangeFpp(fpp, length));
      ASSERT_TRUE(policy.ok()) << policy.status();
      test::Random rng(length);
      const std::vector<uint64_t> codes = RandomCodes(&rng, 20000);
      const std::string filter = test::BuildFilter(**policy, KeysOf(codes));
      const auto reader = NewRangeFilterReader(filter);
      // Rounding r up only lowers the bound.
      EXPECT_LE(reader->RangeFppBound(length), fpp * 1.0001);
      EXPECT_GE(reader->RangeFppBound(length), fpp * 0.99);
    }
  }
  // 16 bits per key is what a 0.2% target for ranges of 32 costs.
  EXPECT_NEAR(
      *RangeFilterBitsPerKey(FilterOptions::RangeFpp(32.0 / 14563.0, 32)), 16.0,
      0.01);
}

TEST(RangeFilterTest, VersionOneReadsTheSameAndNamesItself) {
  test::Random rng(9);
  const std::vector<uint64_t> codes = RandomCodes(&rng, 3000);
  const auto v1 = Policy(16, false);
  const auto v2 = Policy(16, true);
  EXPECT_STREQ(v1->Name(), "sstfilter.Grafite1");
  EXPECT_STREQ(v2->Name(), "sstfilter.Grafite2");
  EXPECT_TRUE(IsRangeFilterFormat(v1->Name()));
  EXPECT_TRUE(IsRangeFilterFormat(v2->Name()));
  EXPECT_FALSE(IsRangeFilterFormat("sstfilter.LocalBloom2"));
  const std::string f1 = test::BuildFilter(*v1, KeysOf(codes));
  const std::string f2 = test::BuildFilter(*v2, KeysOf(codes));
  EXPECT_EQ(f2.substr(0, f1.size()), f1);
  const auto r1 = NewRangeFilterReader(f1);
  const auto r2 = NewRangeFilterReader(f2);
  for (int q = 0; q < 100000; ++q) {
    const uint64_t lo = rng.Next64();
    const uint64_t hi = lo + rng.Uniform(100);
    if (hi < lo) continue;
    ASSERT_EQ(r1->CodeRangeMayMatch(lo, hi), r2->CodeRangeMayMatch(lo, hi));
  }
}

}  // namespace
}  // namespace sstfilter
