// Tests of the bumped Ribbon filter: round trips at many sizes and settings
// (each column count has its own reader), determinism, retries with a new seed,
// the query paths against each other, sizing from the options, and the
// reader's trailer rules. What every policy promises (empty filters,
// duplicates, readers total on any bytes) is checked for this one by
// tests/testing/policy_contract_test.cc.

#include "filter/burr/burr.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "filter/burr/burr_format.h"
#include "filter/burr/burr_impl.h"
#include "filter/burr/burr_sizing.h"
#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"
#include "util/coding.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace burr_internal {
namespace {

using ::sstfilter::test::BuildFilter;
using ::sstfilter::test::CountMatches;
using ::sstfilter::test::Key16;
using ::sstfilter::test::Keys16;

std::unique_ptr<const FilterPolicy> Policy(const FilterOptions& options,
                                           QueryPath path = QueryPath::kScalar,
                                           int forced_failures = 0) {
  return std::move(*NewBurrFilterPolicyForTest(options, path, forced_failures));
}

// Every key of set 0, numbers 0..n-1, matches, single and batched.
void ExpectAllMatch(const FilterPolicy& policy, const std::string& filter,
                    uint64_t n) {
  std::unique_ptr<FilterReader> reader = policy.NewReader(filter);
  EXPECT_EQ(CountMatches(*reader, 0, 0, n), n);
  for (uint64_t i = 0; i < std::min<uint64_t>(n, 300); ++i) {
    ASSERT_TRUE(reader->MayMatch(Key16(0, i))) << i;
    ASSERT_TRUE(policy.KeyMayMatch(Key16(0, i), filter)) << i;
  }
}

TEST(BumpedRibbonTest, RoundTripManySizes) {
  for (const FilterOptions& options :
       {test::Version1(FilterOptions::Fpp(0.01)),
        test::Version1(FilterOptions::Fpp(0.3)),
        test::Version1(FilterOptions::Fpp(1e-6)),
        test::Version1(FilterOptions::BitsPerKey(1)),
        test::Version1(FilterOptions::BitsPerKey(7.5)),
        test::Version1(FilterOptions::BitsPerKey(100))}) {
    const auto policy = Policy(options);
    for (uint64_t n :
         {1, 2, 3, 17, 63, 64, 65, 100, 129, 1000, 4097, 65537, 200003}) {
      SCOPED_TRACE(absl::StrCat("n=", n, " bits/key=", policy->BitsPerKey()));
      const std::string filter = BuildFilter(*policy, Keys16(0, 0, n));
      const ParsedFilter parsed = ParseFilter(filter);
      ASSERT_EQ(parsed.verdict, Verdict::kProbe);
      EXPECT_EQ(parsed.num_keys, n);
      EXPECT_EQ(parsed.seed, 0u);
      ExpectAllMatch(*policy, filter, n);
    }
  }
}

TEST(BumpedRibbonTest, SameKeysSameBytesInAnyOrder) {
  const auto policy = Policy(test::Version1(FilterOptions::Fpp(0.01)));
  std::vector<std::string> keys = Keys16(0, 0, 20000);
  const std::string first = BuildFilter(*policy, keys);
  EXPECT_EQ(BuildFilter(*policy, keys), first);
  test::Random rng(7);
  for (size_t i = keys.size(); i > 1; --i) {
    std::swap(keys[i - 1], keys[rng.Uniform(i)]);
  }
  EXPECT_EQ(BuildFilter(*policy, keys), first);
}

TEST(BumpedRibbonTest, FailedConstructionRetriesWithNewSeed) {
  for (int failures : {1, 3}) {
    const auto policy = Policy(test::Version1(FilterOptions::Fpp(0.01)),
                               QueryPath::kScalar, failures);
    const std::string filter = BuildFilter(*policy, Keys16(0, 0, 30000));
    const ParsedFilter parsed = ParseFilter(filter);
    ASSERT_EQ(parsed.verdict, Verdict::kProbe);
    EXPECT_EQ(parsed.seed, static_cast<uint64_t>(failures));
    // Any policy reads it: the seed is in the bytes.
    ExpectAllMatch(*Policy(test::Version1(FilterOptions::Fpp(0.01))), filter,
                   30000);
    std::unique_ptr<FilterReader> reader = policy->NewReader(filter);
    const uint64_t fp = CountMatches(*reader, 1, 0, 1000000);
    EXPECT_NEAR(fp / 1e6, reader->ExpectedFpp(), 0.001);
    EXPECT_NE(filter,
              BuildFilter(*Policy(test::Version1(FilterOptions::Fpp(0.01))),
                          Keys16(0, 0, 30000)));
  }
}

TEST(BumpedRibbonTest, AfterTheLastSeedUnplacedKeysMatch) {
  // Every seed forced to fail: the last one is kept as it is, complete here.
  const auto policy =
      Policy(test::Version1(FilterOptions::Fpp(0.01)), QueryPath::kScalar,
             static_cast<int>(kMaxSeed) + 1);
  const std::string filter = BuildFilter(*policy, Keys16(0, 0, 1000));
  EXPECT_EQ(ParseFilter(filter).seed, kMaxSeed);
  ExpectAllMatch(*policy, filter, 1000);
}

// Too few layers to place every key: each seed fails for real and is retried;
// the last is kept, and the keys it could not place match everything (no
// false negatives), at a measured cost in false positives.
TEST(BumpedRibbonTest, KeysPastTheLastLayerMatch) {
  const auto policy = std::move(*NewBurrFilterPolicyForTest(
      test::Version1(FilterOptions::Fpp(0.01)), QueryPath::kScalar, 0,
      /*max_layers=*/1));
  const std::string filter = BuildFilter(*policy, Keys16(0, 0, 20000));
  const ParsedFilter parsed = ParseFilter(filter);
  ASSERT_EQ(parsed.verdict, Verdict::kProbe);
  EXPECT_EQ(parsed.seed, kMaxSeed);
  EXPECT_EQ(parsed.layers.size(), 1u);
  ExpectAllMatch(*policy, filter, 20000);
  std::unique_ptr<FilterReader> reader = policy->NewReader(filter);
  const double expected = reader->ExpectedFpp();
  EXPECT_GT(expected, 0.02);  // about 3% of starts are bumped, and match
  EXPECT_NEAR(CountMatches(*reader, 1, 0, 1000000) / 1e6, expected, 0.002);
}

// Answers of every query path against the scalar one's, single and batched.
void ExpectSameAnswers(const FilterReader& scalar, const FilterReader& other,
                       uint64_t set, uint64_t count) {
  std::vector<std::string> storage;
  std::vector<absl::string_view> keys;
  for (uint64_t i = 0; i < count; ++i) storage.push_back(Key16(set + i % 2, i));
  keys.assign(storage.begin(), storage.end());
  std::unique_ptr<bool[]> expected(new bool[count]);
  std::unique_ptr<bool[]> batched(new bool[count]);
  scalar.MayMatch(keys, expected.get());
  other.MayMatch(keys, batched.get());
  for (uint64_t i = 0; i < count; ++i) {
    ASSERT_EQ(scalar.MayMatch(keys[i]), expected[i]) << i;
    ASSERT_EQ(other.MayMatch(keys[i]), expected[i]) << i;
    ASSERT_EQ(batched[i], expected[i]) << i;
  }
}

// The AVX2 and AVX-512 readers give the scalar reader's answers. The column
// counts cover the AVX-512 check's groups of eight: none (0/1 columns, the
// scalar check), one group (1/2, 6/7, 7/8), two (8/9, 19/20 fill three) and
// four (31/32); and the AVX2 check's steps of four: one (1/2), two (6/7,
// 7/8), three (8/9), five (19/20, the last step one column) and eight
// (31/32).
TEST(BumpedRibbonTest, QueryPathsAgree) {
  std::vector<QueryPath> paths;
  for (QueryPath path : {QueryPath::kAvx2, QueryPath::kAvx512}) {
    if (QueryPathAvailable(path)) paths.push_back(path);
  }
  if (paths.empty()) GTEST_SKIP() << "no AVX2 on this CPU";
  for (const FilterOptions& options :
       {test::Version1(FilterOptions::Fpp(0.6)),
        test::Version1(FilterOptions::Fpp(0.45)),
        test::Version1(FilterOptions::Fpp(0.01)),
        test::Version1(FilterOptions::Fpp(0.006)),
        test::Version1(FilterOptions::Fpp(0.003)),
        test::Version1(FilterOptions::Fpp(1e-6)),
        test::Version1(FilterOptions::BitsPerKey(40))}) {
    const auto scalar = Policy(options, QueryPath::kScalar);
    for (uint64_t n : {1, 70, 5000, 100000}) {
      const std::string filter = BuildFilter(*scalar, Keys16(0, 0, n));
      std::unique_ptr<FilterReader> a = scalar->NewReader(filter);
      for (QueryPath path : paths) {
        std::unique_ptr<FilterReader> b =
            Policy(options, path)->NewReader(filter);
        ExpectSameAnswers(*a, *b, 0, 40000);
        EXPECT_EQ(CountMatches(*a, 1, 0, 50000), CountMatches(*b, 1, 0, 50000));
      }
    }
  }
  // Random bytes behind a well-formed trailer: the paths still agree.
  test::Random rng(11);
  const auto scalar =
      Policy(test::Version1(FilterOptions::Fpp(0.01)), QueryPath::kScalar);
  std::string filter = BuildFilter(*scalar, Keys16(0, 0, 3000));
  const size_t body = filter.size() - 20;
  for (int round = 0; round < 20; ++round) {
    filter.replace(0, body, rng.Bytes(body));
    std::unique_ptr<FilterReader> a = scalar->NewReader(filter);
    for (QueryPath path : paths) {
      std::unique_ptr<FilterReader> b =
          Policy(test::Version1(FilterOptions::Fpp(0.01)), path)
              ->NewReader(filter);
      ExpectSameAnswers(*a, *b, 3, 5000);
    }
  }
}

// Keys of every length from 0 to 300 bytes: queries split at 16 bytes (the
// short-key path) and at 128 (the hash's library call). Every path matches
// every added key and gives the scalar reader's answer on the others, single,
// batched and through KeyMayMatch.
TEST(BumpedRibbonTest, KeysOfEveryLength) {
  std::vector<std::string> added, absent;
  test::Random rng(5);
  for (size_t length = 0; length <= 300; ++length) {
    for (int copy = 0; copy < 8; ++copy) {
      added.push_back(rng.Bytes(length));
      absent.push_back(rng.Bytes(length));
    }
  }
  const auto scalar =
      Policy(test::Version1(FilterOptions::Fpp(0.05)), QueryPath::kScalar);
  const std::string filter = BuildFilter(*scalar, added);
  std::unique_ptr<FilterReader> reference = scalar->NewReader(filter);
  for (QueryPath path :
       {QueryPath::kScalar, QueryPath::kAvx2, QueryPath::kAvx512}) {
    if (!QueryPathAvailable(path)) continue;
    SCOPED_TRACE(static_cast<int>(path));
    const auto policy = Policy(test::Version1(FilterOptions::Fpp(0.05)), path);
    std::unique_ptr<FilterReader> reader = policy->NewReader(filter);
    for (const std::string& key : added) {
      ASSERT_TRUE(reader->MayMatch(key)) << key.size();
      ASSERT_TRUE(policy->KeyMayMatch(key, filter)) << key.size();
    }
    for (const std::string& key : absent) {
      ASSERT_EQ(reader->MayMatch(key), reference->MayMatch(key)) << key.size();
      ASSERT_EQ(policy->KeyMayMatch(key, filter), reference->MayMatch(key))
          << key.size();
    }
    std::vector<absl::string_view> views(absent.begin(), absent.end());
    std::unique_ptr<bool[]> batched(new bool[views.size()]);
    reader->MayMatch(views, batched.get());
    for (size_t i = 0; i < views.size(); ++i) {
      ASSERT_EQ(batched[i], reference->MayMatch(views[i])) << i;
    }
  }
}

// The query's start slot from two independent products is StartOf's segment
// and slot, numbered across the layer, for any hash and any shape a reader
// accepts (up to 2^40 segments, 1 to kMaxSegmentBlocks blocks each).
TEST(BumpedRibbonTest, StartSlotInLayerIsStartOf) {
  test::Random rng(3);
  std::vector<uint64_t> hashes = {0, 1, ~uint64_t{0}, uint64_t{1} << 63};
  for (int i = 0; i < 2000; ++i) hashes.push_back(rng.Next64());
  for (uint64_t segments :
       {uint64_t{1}, uint64_t{2}, uint64_t{3}, uint64_t{16}, uint64_t{1000},
        uint64_t{1} << 20, (uint64_t{1} << 40) - 1}) {
    for (uint64_t blocks : {uint64_t{1}, uint64_t{2}, uint64_t{63},
                            uint64_t{1000}, kMaxSegmentBlocks}) {
      // Hashes at the edges of each of the first segments, too.
      std::vector<uint64_t> edges = hashes;
      for (uint64_t s = 1; s < std::min<uint64_t>(segments, 5); ++s) {
        const uint64_t edge = static_cast<uint64_t>(
            ((static_cast<unsigned __int128>(s) << 64) + segments - 1) /
            segments);
        edges.insert(edges.end(), {edge - 1, edge, edge + 1});
      }
      const uint64_t layer_starts = segments * SegmentStarts(blocks);
      for (uint64_t h : edges) {
        const Start start = StartOf(h, segments, blocks);
        ASSERT_EQ(StartSlotInLayer(h, segments, layer_starts),
                  start.segment * blocks * kBlockSlots + start.slot)
            << h << " " << segments << " " << blocks;
      }
    }
  }
}

// A reader of a well-formed filter starts on a cache line, on every query
// path, so that what its common path reads of it is one line.
TEST(BumpedRibbonTest, ReaderObjectStartsOnACacheLine) {
  const std::string filter = BuildFilter(
      *Policy(test::Version1(FilterOptions::Fpp(0.01))), Keys16(0, 0, 1000));
  for (QueryPath path :
       {QueryPath::kScalar, QueryPath::kAvx2, QueryPath::kAvx512}) {
    if (!QueryPathAvailable(path)) continue;
    const auto policy = Policy(test::Version1(FilterOptions::Fpp(0.01)), path);
    for (int i = 0; i < 8; ++i) {
      std::unique_ptr<FilterReader> reader = policy->NewReader(filter);
      EXPECT_EQ(reinterpret_cast<uintptr_t>(reader.get()) % 64, 0u);
      EXPECT_TRUE(reader->MayMatch(Key16(0, 0)));
    }
  }
}

TEST(BumpedRibbonTest, SizingFromOptions) {
  EXPECT_FALSE(NewBurrFilterPolicy(test::Version1(FilterOptions::Fpp(0))).ok());
  const auto too_low =
      NewBurrFilterPolicy(test::Version1(FilterOptions::Fpp(1e-10)));
  ASSERT_FALSE(too_low.ok());
  EXPECT_TRUE(absl::IsInvalidArgument(too_low.status()));
  EXPECT_NE(too_low.status().message().find("1e-10"), std::string::npos);
  EXPECT_TRUE(
      NewBurrFilterPolicy(test::Version1(FilterOptions::Fpp(1e-6))).ok());
  EXPECT_FALSE(
      NewBurrFilterPolicy(test::Version1(FilterOptions::BitsPerKey(0.5))).ok());

  const BurrSizing one = *SizeForFpp(0.01);
  EXPECT_EQ(one.columns, 6);  // 2^-6 = 1.56% > 1% > 2^-7
  EXPECT_NEAR((1 - one.upper_fraction) / 64 + one.upper_fraction / 128, 0.01,
              1e-12);
  const BurrSizing exact = *SizeForFpp(1.0 / 128);
  EXPECT_EQ(exact.columns, 7);
  EXPECT_EQ(exact.upper_fraction, 0.0);
  EXPECT_NEAR(SizeForBitsPerKey(10).bits_per_key, 10, 1e-9);
  EXPECT_EQ(SizeForBitsPerKey(100).max_columns(), kMaxColumns);
}

TEST(BumpedRibbonTest, SpaceWithinThreePercentOfTheFloor) {
  const auto policy = Policy(test::Version1(FilterOptions::Fpp(0.01)));
  const std::string filter = BuildFilter(*policy, Keys16(0, 0, 300000));
  const double bits_per_key = 8.0 * filter.size() / 300000;
  const double expected = policy->NewReader(filter)->ExpectedFpp();
  EXPECT_LE(bits_per_key, 1.03 * std::log2(1 / expected));
  EXPECT_NEAR(expected, 0.01, 0.0002);
}

// The reader's rules for trailers, one case each (README.md, "Reading any
// bytes").
TEST(BumpedRibbonTest, TrailerRules) {
  const auto policy = Policy(test::Version1(FilterOptions::Fpp(0.01)));
  const std::string good = BuildFilter(*policy, Keys16(0, 0, 200));
  auto verdict = [](const std::string& bytes) {
    return ParseFilter(bytes).verdict;
  };
  EXPECT_EQ(verdict(""), Verdict::kMatchNothing);  // too short
  EXPECT_EQ(verdict("\x00\x00\x00\x03\xb7"), Verdict::kMatchNothing);
  EXPECT_EQ(verdict(std::string("\x00\x00\x00\x03\xb7\x06", 6)),
            Verdict::kMatchNothing);  // the empty key set
  EXPECT_EQ(verdict(good), Verdict::kProbe);
  std::string bad = good;
  bad[bad.size() - 2] = '\xb1';  // another format's marker
  EXPECT_EQ(verdict(bad), Verdict::kMatchAll);
  bad = good;
  bad.back() = static_cast<char>(kMaxColumns);  // columns out of range
  EXPECT_EQ(verdict(bad), Verdict::kMatchAll);
  bad = good;
  bad[bad.size() - 3] = 2;  // header too short for three varints
  EXPECT_EQ(verdict(bad), Verdict::kMatchAll);
  bad = good;
  bad.insert(0, 1, '\0');  // body one byte longer than the layers
  EXPECT_EQ(verdict(bad), Verdict::kMatchAll);
  // Keys but no layers, or layers but no keys.
  std::string no_layers;
  AppendTrailer(5, 0, 6, {}, &no_layers);
  EXPECT_EQ(verdict(no_layers), Verdict::kMatchAll);
  // A seed beyond any builder's.
  const ParsedFilter parsed = ParseFilter(good);
  std::string big_seed(good.data(),
                       parsed.layers[0].shape.num_words(parsed.columns) * 8 +
                           parsed.layers[0].shape.threshold_bytes());
  std::vector<LayerShape> shapes = {parsed.layers[0].shape};
  AppendTrailer(200, kMaxSeed + 1, parsed.columns, shapes, &big_seed);
  EXPECT_EQ(verdict(big_seed), Verdict::kMatchAll);
}

}  // namespace
}  // namespace burr_internal
}  // namespace sstfilter
