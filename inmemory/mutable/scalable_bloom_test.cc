// ScalableBloomFilter: options, layer sizes, the rate over all keys at 10 and
// 100 times the first layer's keys (against a fixed-size filter's), memory per
// key against a bound derived from the layers' sizing, batched queries, and a
// filter that runs out of layers.

#include "inmemory/mutable/scalable_bloom.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "filter/bloom/bloom_sizing.h"
#include "filter/testing/filter_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "inmemory/mutable/mutable_bloom.h"
#include "inmemory/mutable/mutable_test_util.h"

namespace sstfilter {
namespace {

using ::sstfilter::test::Key16;
using ::testing::HasSubstr;

ScalableBloomOptions Options(double fpp, uint64_t initial_keys,
                             double growth = 2.0, double tightening = 0.5) {
  ScalableBloomOptions options;
  options.fpp = fpp;
  options.initial_keys = initial_keys;
  options.growth = growth;
  options.tightening = tightening;
  return options;
}

std::unique_ptr<ScalableBloomFilter> Make(const ScalableBloomOptions& options) {
  absl::StatusOr<std::unique_ptr<ScalableBloomFilter>> filter =
      ScalableBloomFilter::Create(options);
  EXPECT_TRUE(filter.ok()) << filter.status();
  return *std::move(filter);
}

void ExpectInvalid(const ScalableBloomOptions& options,
                   const std::string& mention) {
  absl::StatusOr<std::unique_ptr<ScalableBloomFilter>> filter =
      ScalableBloomFilter::Create(options);
  ASSERT_FALSE(filter.ok());
  EXPECT_TRUE(absl::IsInvalidArgument(filter.status())) << filter.status();
  EXPECT_THAT(std::string(filter.status().message()), HasSubstr(mention));
}

TEST(ScalableBloomTest, RejectsBadOptionsNamingTheValue) {
  ExpectInvalid(Options(1.5, 100), "fpp must be in (0, 1), got 1.5");
  ExpectInvalid(Options(0, 100), "got 0");
  ExpectInvalid(Options(std::nan(""), 100), "nan");
  ExpectInvalid(Options(0.01, 0), "initial_keys must be at least 1, got 0");
  ExpectInvalid(Options(0.01, 100, 0.5),
                "growth must be a finite number at "
                "least 1, got 0.5");
  ExpectInvalid(Options(0.01, 100, INFINITY), "got inf");
  ExpectInvalid(Options(0.01, 100, 2, 1.0),
                "tightening must be in (0, 1), got 1");
  ExpectInvalid(Options(0.01, 100, 2, 0), "got 0");
  // A first layer past 100 bits/key: p (1 - r) / 1.05 below 1.1e-10.
  ExpectInvalid(Options(1e-10, 100), "layer 0");
  // A first layer past kMaxMutableBloomBytes.
  ExpectInvalid(Options(0.01, uint64_t{1} << 62), "kMaxMutableBloomBytes");
}

TEST(ScalableBloomTest, AddsOnceAndGrowsLayerByLayer) {
  std::unique_ptr<ScalableBloomFilter> filter = Make(Options(0.01, 1000));
  EXPECT_EQ(filter->NumLayers(), 1u);
  ASSERT_TRUE(*filter->Add("apple"));
  EXPECT_FALSE(*filter->Add("apple"));  // matched: not added again
  EXPECT_TRUE(filter->MayContain("apple"));
  EXPECT_FALSE(filter->MayContain("durian"));

  uint64_t added = 1;
  for (uint64_t i = 0; i < 20000; ++i) added += *filter->Add(Key16(0, i));
  // A key a layer already matched (a false positive) is not added, so the
  // layers hold the keys that were added: full ones and the newest.
  const std::vector<ScalableBloomFilter::LayerInfo> layers = filter->Layers();
  ASSERT_EQ(layers.size(), filter->NumLayers());
  uint64_t held = 0;
  for (size_t i = 0; i < layers.size(); ++i) {
    EXPECT_EQ(layers[i].capacity, 1000u << i);
    EXPECT_DOUBLE_EQ(layers[i].fpp, 0.01 * 0.5 * std::pow(0.5, i) / 1.05);
    const bloom::BloomSizing sizing = *bloom::SizeForFpp(layers[i].fpp);
    EXPECT_EQ(layers[i].bits_per_key, sizing.bits_per_key);
    EXPECT_EQ(layers[i].num_probes, sizing.num_probes);
    if (i + 1 < layers.size()) {
      EXPECT_EQ(layers[i].keys, layers[i].capacity);
    }
    held += layers[i].keys;
  }
  // 20,001 keys: 1,000 + 2,000 + 4,000 + 8,000 fill four layers, the fifth
  // takes the rest.
  EXPECT_EQ(layers.size(), 5u);
  EXPECT_EQ(held, added);
  // A key is skipped only as a false positive of the layers, which happens
  // with probability below the bound, 1%, at any fill: at most about 200 of
  // the 20,000 (130 measured).
  EXPECT_GT(added, 19750u);
  for (uint64_t i = 0; i < 20000; ++i) {
    ASSERT_TRUE(filter->MayContain(Key16(0, i)));
    ASSERT_FALSE(*filter->Add(Key16(0, i)));
  }
  EXPECT_NEAR(static_cast<double>(filter->ApproximateCount()), added,
              0.01 * added);
}

TEST(ScalableBloomTest, BatchedQueriesAnswerAsSingleOnes) {
  std::unique_ptr<ScalableBloomFilter> filter = Make(Options(0.05, 500));
  for (uint64_t i = 0; i < 5000; ++i)
    ASSERT_TRUE(filter->Add(Key16(0, i)).ok());
  ASSERT_GT(filter->NumLayers(), 3u);
  std::vector<std::string> keys;
  for (uint64_t i = 0; i < 3000; ++i) keys.push_back(Key16(i % 2, i));
  std::vector<absl::string_view> views(keys.begin(), keys.end());
  for (size_t n : {0, 1, 64, 65, 3000}) {
    std::unique_ptr<bool[]> results(new bool[n + 1]);
    results[n] = true;
    filter->MayContain(absl::MakeConstSpan(views.data(), n), results.get());
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(results[i], filter->MayContain(keys[i])) << n << " " << i;
    }
    EXPECT_TRUE(results[n]);
  }
}

struct Growth {
  double fpp;
  uint64_t multiple;  // keys added, as a multiple of initial_keys
};

class ScalableRateTest : public testing::TestWithParam<Growth> {};

// initial_keys = 10^4, then 10 or 100 times that many keys. The rate over
// all keys stays within the bound, measured over 10^7 absent keys (about
// 90,000 false positives at 1%, 9,000 at 0.1%: the bound is 6 and 20
// standard deviations above the expected counts); a fixed filter sized for
// 10^4 keys, given the same keys, is far past its rate.
//
// Memory: layer i holds initial * 2^i keys at c_i bits/key, the native
// sizing for p_i, in whole 64-byte blocks. With L layers, the first L - 1 are
// full, so N > initial * (2^(L-1) - 1) keys share at most
//   sum_i (initial * 2^i * c_i + 512) bits <= c_(L-1) * initial * (2^L - 1) +
//   512 L,
// about 2 c_(L-1) bits per key: the bound asserted, derived from the options
// and the native sizing, not from the filter.
TEST_P(ScalableRateTest, RateOverAllKeysStaysWithinTheBound) {
  const Growth growth = GetParam();
  constexpr uint64_t kInitial = 10000;
  constexpr uint64_t kAbsent = 10000000;
  const uint64_t num_keys = kInitial * growth.multiple;
  std::unique_ptr<ScalableBloomFilter> filter =
      Make(Options(growth.fpp, kInitial));
  absl::StatusOr<MutableBloomFilter> fixed =
      MutableBloomFilter::Create(FilterOptions::Fpp(growth.fpp), kInitial);
  ASSERT_TRUE(fixed.ok());
  for (uint64_t i = 0; i < num_keys; ++i) {
    ASSERT_TRUE(filter->Add(Key16(0, i)).ok());
    fixed->Add(Key16(0, i));
  }
  for (uint64_t i = 0; i < num_keys; ++i) {
    ASSERT_TRUE(filter->MayContain(Key16(0, i))) << i;
  }

  const uint64_t false_positives = test::CountMatches(
      mutable_test::AsReader(*filter), /*set=*/1, 0, kAbsent);
  const double rate = static_cast<double>(false_positives) / kAbsent;
  const double fixed_rate =
      static_cast<double>(test::CountMatches(mutable_test::AsReader(*fixed),
                                             /*set=*/1, 0, kAbsent / 10)) /
      (kAbsent / 10);
  const size_t layers = filter->NumLayers();
  const double bits_per_key = 8.0 * filter->MemoryBytes() / num_keys;
  const double right_sized = bloom::SizeForFpp(growth.fpp)->bits_per_key;
  std::printf(
      "fpp %g, %llu keys (%llux the first layer): %zu layers, measured rate "
      "%.4f%% (%.3f x fpp), ExpectedFpp %.4f%%; a filter sized for the first "
      "layer alone: %.2f%%; memory %.2f bits/key, %.2f x the %.2f of a filter "
      "sized for all the keys\n",
      growth.fpp, static_cast<unsigned long long>(num_keys),
      static_cast<unsigned long long>(growth.multiple), layers, 100 * rate,
      rate / growth.fpp, 100 * filter->ExpectedFpp(), 100 * fixed_rate,
      bits_per_key, bits_per_key / right_sized, right_sized);
  EXPECT_LE(rate, growth.fpp);
  EXPECT_LE(filter->ExpectedFpp(), growth.fpp);
  EXPECT_GT(fixed_rate, 20 * growth.fpp);

  // The layers the options call for: the fewest whose capacities hold every
  // key (a key a layer matched before it was added takes no place, so one
  // layer fewer is possible only at a boundary, which these sizes avoid).
  size_t want_layers = 0;
  for (uint64_t capacity = 0; capacity < num_keys; ++want_layers) {
    capacity += kInitial << want_layers;
  }
  EXPECT_EQ(layers, want_layers);
  const double p_last = growth.fpp * 0.5 * std::pow(0.5, layers - 1) / 1.05;
  const double c_last = bloom::SizeForFpp(p_last)->bits_per_key;
  const double bound =
      (c_last * kInitial * ((uint64_t{1} << layers) - 1) + 512.0 * layers) /
      num_keys;
  std::printf("  memory bound %.2f bits/key (c_%zu = %.2f)\n", bound,
              layers - 1, c_last);
  EXPECT_LE(bits_per_key, bound);
}

INSTANTIATE_TEST_SUITE_P(TenAndHundredTimes, ScalableRateTest,
                         testing::Values(Growth{0.01, 10}, Growth{0.01, 100},
                                         Growth{0.001, 10},
                                         Growth{0.001, 100}));

// Tightening 0.001: layer 3's rate, 9.5e-13, is below what 100 bits/key
// reach, so the fourth layer cannot be made. The filter says so, keeps saying
// so, and still answers for the keys it holds.
TEST(ScalableBloomTest, FullWhenTheNextLayerCannotReachItsRate) {
  std::unique_ptr<ScalableBloomFilter> filter =
      Make(Options(0.001, 10, 1.0, 0.001));
  std::vector<std::string> added;
  absl::Status full;
  for (uint64_t i = 0; i < 1000 && full.ok(); ++i) {
    absl::StatusOr<bool> result = filter->Add(Key16(0, i));
    if (result.ok()) {
      added.push_back(Key16(0, i));
    } else {
      full = result.status();
    }
  }
  EXPECT_TRUE(absl::IsResourceExhausted(full)) << full;
  EXPECT_THAT(std::string(full.message()), HasSubstr("layer 3"));
  EXPECT_EQ(filter->NumLayers(), 3u);
  EXPECT_EQ(added.size(), 30u);
  for (const std::string& key : added) ASSERT_TRUE(filter->MayContain(key));
  // Sticky: every later new key gets the same error; known keys are matched.
  absl::StatusOr<bool> again = filter->Add("another new key");
  EXPECT_EQ(again.status(), full);
  EXPECT_FALSE(*filter->Add(added[0]));
}

TEST(ScalableBloomTest, FullAfterTheLastLayer) {
  // One key per layer at a rate that hardly tightens: the layer array, not
  // the rate, runs out.
  std::unique_ptr<ScalableBloomFilter> filter = Make(Options(0.5, 1, 1.0, 0.9));
  absl::Status full;
  uint64_t added = 0;
  for (uint64_t i = 0; i < 10000 && full.ok(); ++i) {
    absl::StatusOr<bool> result = filter->Add(Key16(0, i));
    if (result.ok()) {
      added += *result;
    } else {
      full = result.status();
    }
  }
  EXPECT_TRUE(absl::IsResourceExhausted(full)) << full;
  EXPECT_THAT(std::string(full.message()), HasSubstr("kMaxScalableLayers"));
  EXPECT_EQ(filter->NumLayers(), kMaxScalableLayers);
  EXPECT_EQ(added, kMaxScalableLayers);
}

TEST(ScalableBloomTest, FullWhenTheNextLayerWouldBeTooLarge) {
  std::unique_ptr<ScalableBloomFilter> filter = Make(Options(0.01, 100, 1e30));
  absl::Status full;
  for (uint64_t i = 0; i < 1000 && full.ok(); ++i) {
    full = filter->Add(Key16(0, i)).status();
  }
  EXPECT_TRUE(absl::IsResourceExhausted(full)) << full;
  EXPECT_THAT(std::string(full.message()), HasSubstr("more than 2^63"));
  EXPECT_EQ(filter->NumLayers(), 1u);
}

}  // namespace
}  // namespace sstfilter
