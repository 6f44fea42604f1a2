// Tests of the policy API's shared pieces (filter/filter_policy.h): option
// validation, how NewLevelDbFilterPolicy derives bits/key and probes from
// the options, and the default implementations FilterPolicy and FilterReader
// provide to every format.

#include "filter/filter_policy.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "filter/bloom_like_policy.h"
#include "filter/leveldb/leveldb_bloom.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "util/bloom_math.h"

namespace sstfilter {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct BadOptionsCase {
  FilterOptions options;
  // Texts the error message must contain: the field, and the offending value as
  // printed.
  std::vector<std::string> named;
};

std::vector<BadOptionsCase> BadOptionsCases() {
  FilterOptions both;
  both.fpp = 0.01;
  both.bits_per_key = 10;
  return {
      // The rate must be a probability strictly between 0 and 1.
      {FilterOptions::Fpp(0), {"fpp", "got 0"}},
      {FilterOptions::Fpp(-0.25), {"fpp", "-0.25"}},
      {FilterOptions::Fpp(1), {"fpp", "got 1"}},
      {FilterOptions::Fpp(1.5), {"fpp", "1.5"}},
      {FilterOptions::Fpp(kNaN), {"fpp", "nan"}},
      {FilterOptions::Fpp(kInf), {"fpp", "inf"}},
      {FilterOptions::Fpp(-kInf), {"fpp", "-inf"}},
      // Bits per key in [1, 100].
      {FilterOptions::BitsPerKey(0.5), {"bits_per_key", "0.5"}},
      {FilterOptions::BitsPerKey(0), {"bits_per_key", "got 0"}},
      {FilterOptions::BitsPerKey(-3), {"bits_per_key", "-3"}},
      {FilterOptions::BitsPerKey(100.5), {"bits_per_key", "100.5"}},
      {FilterOptions::BitsPerKey(kNaN), {"bits_per_key", "nan"}},
      {FilterOptions::BitsPerKey(kInf), {"bits_per_key", "inf"}},
      {FilterOptions::BitsPerKey(-kInf), {"bits_per_key", "-inf"}},
      // Exactly one of the two.
      {both, {"fpp", "bits_per_key"}},
      {FilterOptions(), {"fpp", "bits_per_key"}},
  };
}

TEST(ValidateFilterOptionsTest, RejectsBadOptionsNamingThem) {
  for (const BadOptionsCase& c : BadOptionsCases()) {
    const absl::Status status = ValidateFilterOptions(c.options);
    EXPECT_TRUE(absl::IsInvalidArgument(status)) << status;
    for (const std::string& text : c.named) {
      EXPECT_THAT(std::string(status.message()), testing::HasSubstr(text));
    }
  }
}

TEST(ValidateFilterOptionsTest, AcceptsValidOptions) {
  for (double fpp : {1e-300, 1e-9, 0.001, 0.01, 0.5, 0.999999}) {
    EXPECT_TRUE(ValidateFilterOptions(FilterOptions::Fpp(fpp)).ok()) << fpp;
  }
  for (double bits : {kMinBitsPerKey, 1.5, 9.585, 10.0, 64.0, kMaxBitsPerKey}) {
    EXPECT_TRUE(ValidateFilterOptions(FilterOptions::BitsPerKey(bits)).ok())
        << bits;
  }
  EXPECT_EQ(kMinBitsPerKey, 1.0);
  EXPECT_EQ(kMaxBitsPerKey, 100.0);
}

// The factory returns the same error as the validator, for every bad case.
TEST(NewLevelDbFilterPolicyTest, RejectsBadOptions) {
  for (const BadOptionsCase& c : BadOptionsCases()) {
    auto policy = NewLevelDbFilterPolicy(c.options);
    ASSERT_FALSE(policy.ok());
    EXPECT_EQ(policy.status(), ValidateFilterOptions(c.options));
  }
}

TEST(NewLevelDbFilterPolicyTest, DerivesSizeFromFpp) {
  // c = -ln p / (ln 2)^2, k = round(c ln 2); at k = 1, c >= -1 / ln(1 - p).
  const struct {
    double fpp;
    double bits_per_key;
    int num_probes;
  } kCases[] = {
      {0.01, 9.585058, 7},     // round(6.64)
      {0.1, 4.792529, 3},      // round(3.32)
      {0.001, 14.377588, 10},  // round(9.97)
      {0.5, 1.442695, 1},
      {0.6, 1.091357, 1},     // -1 / ln(0.4): the optimum's 1.063 gives 61%
      {0.9, 0.434294, 1},     // -1 / ln(0.1); k clamped up from round(0.15)
      {1e-9, 43.132763, 30},  // round(29.9)
      {kLevelDbBloomMinFpp, 43.997604, 30},  // round(30.497)
  };
  for (const auto& c : kCases) {
    auto policy = NewLevelDbFilterPolicy(FilterOptions::Fpp(c.fpp));
    ASSERT_TRUE(policy.ok()) << policy.status();
    EXPECT_NEAR((*policy)->BitsPerKey(), c.bits_per_key, 1e-6) << c.fpp;
    EXPECT_EQ(AsBloomLike(**policy)->NumProbes(), c.num_probes) << c.fpp;
    EXPECT_STREQ((*policy)->Name(), "leveldb.BuiltinBloomFilter2");
  }
}

// filter_policy.h: every policy accepts any fpp down to kMinGuaranteedFpp. The
// LevelDB-compatible one accepts every fpp down to its own, lower floor, each
// with the standard optimum k = round(log2(1/p)), unclamped (k never passes
// kMaxProbes), at least the optimum's bits/key and within kMaxBitsPerKey; at
// one probe the size gives p itself.
TEST(NewLevelDbFilterPolicyTest, AcceptsEveryFppDownToItsFloor) {
  EXPECT_LT(kLevelDbBloomMinFpp, kMinGuaranteedFpp);
  std::vector<double> rates = {kMinGuaranteedFpp, kLevelDbBloomMinFpp};
  for (double fpp = 0.999; fpp >= kLevelDbBloomMinFpp; fpp /= 1.05) {
    rates.push_back(fpp);
  }
  for (double fpp : rates) {
    auto policy = NewLevelDbFilterPolicy(FilterOptions::Fpp(fpp));
    ASSERT_TRUE(policy.ok()) << fpp << ": " << policy.status();
    const double bits_per_key = (*policy)->BitsPerKey();
    EXPECT_LE(bits_per_key, kMaxBitsPerKey) << fpp;
    EXPECT_GE(bits_per_key, StandardBloomBitsPerKey(fpp) * (1 - 1e-12)) << fpp;
    const int k = AsBloomLike(**policy)->NumProbes();
    EXPECT_EQ(k, std::max<double>(kMinProbes, std::round(std::log2(1 / fpp))))
        << fpp;
    if (k == 1) {
      EXPECT_LE(StandardBloomFpp(bits_per_key, 1), fpp * (1 + 1e-9)) << fpp;
    }
  }
}

// The floor sits just above 2^-30.5, where the standard optimum
// k = round(log2(1/p)) passes kMaxProbes, the most the format stores; below it
// k would be held at 30 and the rate would miss the target.
TEST(NewLevelDbFilterPolicyTest, FloorIsWhereTheOptimalProbesPassTheMost) {
  const double ln2 = std::log(2.0);
  EXPECT_LE(std::round(ln2 * StandardBloomBitsPerKey(kLevelDbBloomMinFpp)),
            kMaxProbes);
  const double two_to_minus_30_5 = std::exp2(-30.5);
  EXPECT_GT(kLevelDbBloomMinFpp, two_to_minus_30_5);
  EXPECT_LT(kLevelDbBloomMinFpp, 1.003 * two_to_minus_30_5);
  EXPECT_GT(
      std::round(ln2 * StandardBloomBitsPerKey(0.999 * two_to_minus_30_5)),
      kMaxProbes);
  // At 10^-12, the standard size with k held at 30 gives 1.9 * 10^-12.
  EXPECT_GT(StandardBloomFpp(StandardBloomBitsPerKey(1e-12), kMaxProbes),
            1.8e-12);
}

// Below the floor the policy refuses, naming the value, rather than build a
// filter that misses the rate it was asked for (the formula alone would size
// 1e-300 at 1,437.76 bits/key).
TEST(NewLevelDbFilterPolicyTest, RefusesFppBelowItsFloor) {
  const double just_below = std::nextafter(kLevelDbBloomMinFpp, 0.0);
  for (double fpp : {just_below, 6.5e-10, 1e-12, 1e-300,
                     std::numeric_limits<double>::denorm_min()}) {
    auto policy = NewLevelDbFilterPolicy(FilterOptions::Fpp(fpp));
    ASSERT_FALSE(policy.ok()) << fpp;
    EXPECT_TRUE(absl::IsInvalidArgument(policy.status())) << policy.status();
    EXPECT_THAT(std::string(policy.status().message()),
                testing::HasSubstr(absl::StrCat("fpp ", fpp, " is below")));
  }
}

TEST(NewLevelDbFilterPolicyTest, DerivesProbesFromBitsPerKeyAsLevelDb) {
  // LevelDB: k = floor(0.69 * bits_per_key), clamped to [1, 30].
  const struct {
    double bits_per_key;
    int num_probes;
  } kCases[] = {
      {1, 1},  // floor(0.69) = 0, clamped up
      {2, 1},   {3, 2},   {10, 6},
      {16, 11}, {20, 13}, {9.5, 6},   // a fractional bits/key is accepted
      {43, 29}, {44, 30}, {100, 30},  // floor(69), clamped down
  };
  for (const auto& c : kCases) {
    auto policy =
        NewLevelDbFilterPolicy(FilterOptions::BitsPerKey(c.bits_per_key));
    ASSERT_TRUE(policy.ok()) << policy.status();
    EXPECT_EQ((*policy)->BitsPerKey(), c.bits_per_key);
    EXPECT_EQ(AsBloomLike(**policy)->NumProbes(), c.num_probes)
        << c.bits_per_key;
  }
}

// A minimal exact-set format, to test the base classes' default methods on
// their own: the filter is the keys, each preceded by its length byte, then a
// 1-byte trailer.
class ExactSetBuilder : public FilterBuilder {
 public:
  void AddKey(absl::string_view key) override { keys_.emplace_back(key); }
  size_t NumAdded() const override { return keys_.size(); }
  void Finish(std::string* dst) override {
    for (const std::string& key : keys_) {
      dst->push_back(static_cast<char>(key.size()));
      dst->append(key);
    }
    dst->push_back('!');
    keys_.clear();
  }

 private:
  std::vector<std::string> keys_;
};

class ExactSetReader : public FilterReader {
 public:
  explicit ExactSetReader(absl::string_view filter) {
    size_t i = 0;
    while (i + 1 < filter.size()) {
      const size_t len = static_cast<uint8_t>(filter[i]);
      keys_.emplace(filter.substr(i + 1, len));
      i += 1 + len;
    }
  }
  bool MayMatch(absl::string_view key) const override {
    return keys_.count(std::string(key)) > 0;
  }
  using FilterReader::MayMatch;
  double ExpectedFpp() const override { return 0; }

 private:
  std::set<std::string> keys_;
};

class ExactSetFormat : public FilterFormat {
 public:
  const char* Name() const override { return "test.ExactSet"; }
  std::unique_ptr<FilterReader> NewReader(
      absl::string_view filter) const override {
    return std::make_unique<ExactSetReader>(filter);
  }
};

class ExactSetPolicy : public FilterPolicy {
 public:
  const FilterFormat& Format() const override { return format_; }
  double BitsPerKey() const override { return 0; }
  std::unique_ptr<FilterBuilder> NewBuilder() const override {
    return std::make_unique<ExactSetBuilder>();
  }

 private:
  ExactSetFormat format_;
};

TEST(FilterPolicyDefaultsTest, NameAndReaderComeFromTheFormat) {
  ExactSetPolicy policy;
  EXPECT_STREQ(policy.Name(), "test.ExactSet");
  std::string filter;
  policy.CreateFilter({"apple"}, &filter);
  EXPECT_TRUE(policy.NewReader(filter)->MayMatch("apple"));
  EXPECT_FALSE(policy.Format().KeyMayMatch("cherry", filter));
  EXPECT_EQ(policy.Format().ExpectedFpp(filter), 0);
}

TEST(FilterPolicyDefaultsTest, CreateFilterAppendsWhatTheBuilderWrites) {
  ExactSetPolicy policy;
  const std::vector<absl::string_view> keys = {"apple", "banana"};
  std::string dst = "prefix";
  policy.CreateFilter(keys, &dst);
  EXPECT_EQ(dst,
            "prefix\x05"
            "apple\x06"
            "banana!");
}

TEST(FilterPolicyDefaultsTest, KeyMayMatchAsksAReader) {
  ExactSetPolicy policy;
  std::string filter;
  policy.CreateFilter({"apple", "banana"}, &filter);
  EXPECT_TRUE(policy.KeyMayMatch("apple", filter));
  EXPECT_TRUE(policy.KeyMayMatch("banana", filter));
  EXPECT_FALSE(policy.KeyMayMatch("cherry", filter));
  EXPECT_FALSE(policy.KeyMayMatch("apple", "!"));
}

TEST(FilterReaderDefaultsTest, BatchedMayMatchAnswersEachKey) {
  ExactSetPolicy policy;
  std::string filter;
  policy.CreateFilter({"a", "c", "e"}, &filter);
  std::unique_ptr<FilterReader> reader = policy.NewReader(filter);
  const std::vector<absl::string_view> queries = {"a", "b", "c", "d", "e", ""};
  bool results[6] = {false, true, false, true, false, true};  // all wrong
  reader->MayMatch(queries, results);
  EXPECT_THAT(results,
              testing::ElementsAre(true, false, true, false, true, false));
  // An empty batch touches nothing.
  reader->MayMatch(absl::Span<const absl::string_view>(), nullptr);
}

}  // namespace
}  // namespace sstfilter
