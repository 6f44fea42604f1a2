// Tests of the RocksDB Bloom policies (rocksdb_bloom.h): their name and
// settings, option errors, and either policy reading either format.
// rocksdb_bloom_fpp_test.cc measures their false-positive rates,
// rocksdb_golden_test.cc pins their bytes, rocksdb_differential_test.cc
// compares the bytes with RocksDB, and tests/testing/policy_contract_test.cc
// checks what every policy promises.

#include "filter/rocksdb/rocksdb_bloom.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "filter/bloom_like_policy.h"
#include "filter/rocksdb/rocksdb_test_util.h"
#include "gtest/gtest.h"
#include "rocksdb/filter_policy.h"

namespace sstfilter {
namespace rocksdb_test {
namespace {

TEST(RocksDbBloomPolicyTest, NameIsRocksDbsBuiltinFilterName) {
  std::unique_ptr<const rocksdb::FilterPolicy> rocksdb_policy(
      rocksdb::NewBloomFilterPolicy(10));
  EXPECT_STREQ(kRocksDbBuiltinFilterName, rocksdb_policy->CompatibilityName());
  EXPECT_STREQ(kRocksDbBuiltinFilterName, "rocksdb.BuiltinBloomFilter");
  for (Format format : {Format::kFastLocalBloom, Format::kLegacyBloom}) {
    EXPECT_STREQ(MakePolicy(format, FilterOptions::BitsPerKey(10))->Name(),
                 kRocksDbBuiltinFilterName);
  }
}

TEST(RocksDbBloomPolicyTest, SettingsFromBitsPerKey) {
  struct Expected {
    Format format;
    double bits_per_key;
    double stored_bits_per_key;
    int k;
  };
  for (const Expected& e : std::vector<Expected>{
           {Format::kFastLocalBloom, 1, 1, 1},
           {Format::kFastLocalBloom, 9.9, 9.9, 6},
           {Format::kFastLocalBloom, 10, 10, 6},
           {Format::kFastLocalBloom, 16, 16, 9},
           {Format::kFastLocalBloom, 23.4, 23.4, 12},
           {Format::kFastLocalBloom, 25.6, 25.6, 11},  // RocksDB's table
           {Format::kFastLocalBloom, 100, 100, 24},
           {Format::kLegacyBloom, 1, 1, 1},
           {Format::kLegacyBloom, 9.9, 10, 6},  // whole bits, rounded
           {Format::kLegacyBloom, 10.5, 11, 7},
           {Format::kLegacyBloom, 23.4, 23, 15},
           {Format::kLegacyBloom, 100, 100, 30},
       }) {
    SCOPED_TRACE(testing::Message()
                 << FormatName(e.format) << " at " << e.bits_per_key);
    const std::unique_ptr<const FilterPolicy> policy =
        MakePolicy(e.format, FilterOptions::BitsPerKey(e.bits_per_key));
    EXPECT_DOUBLE_EQ(policy->BitsPerKey(), e.stored_bits_per_key);
    EXPECT_EQ(AsBloomLike(*policy)->NumProbes(), e.k);
  }
}

TEST(RocksDbBloomPolicyTest, SettingsFromFpp) {
  const std::unique_ptr<const FilterPolicy> fast =
      MakePolicy(Format::kFastLocalBloom, FilterOptions::Fpp(0.01));
  EXPECT_DOUBLE_EQ(fast->BitsPerKey(), 9.918);
  EXPECT_EQ(AsBloomLike(*fast)->NumProbes(), 6);
  const std::unique_ptr<const FilterPolicy> legacy =
      MakePolicy(Format::kLegacyBloom, FilterOptions::Fpp(0.01));
  EXPECT_DOUBLE_EQ(legacy->BitsPerKey(), 11);
  EXPECT_EQ(AsBloomLike(*legacy)->NumProbes(), 7);
  // FastLocalBloom accepts every fpp the API guarantees.
  EXPECT_TRUE(
      NewRocksDbFastBloomFilterPolicy(FilterOptions::Fpp(kMinGuaranteedFpp))
          .ok());
}

TEST(RocksDbBloomPolicyTest, InvalidOptionsAreRefusedNamingTheValue) {
  FilterOptions both = FilterOptions::Fpp(0.01);
  both.bits_per_key = 10;
  const std::vector<std::pair<FilterOptions, std::string>> invalid = {
      {FilterOptions(), "exactly one"},
      {both, "exactly one"},
      {FilterOptions::Fpp(0), "got 0"},
      {FilterOptions::Fpp(1), "got 1"},
      {FilterOptions::Fpp(std::nan("")), "got nan"},
      {FilterOptions::BitsPerKey(0.5), "got 0.5"},
      {FilterOptions::BitsPerKey(101), "got 101"},
  };
  for (const auto& [options, named] : invalid) {
    for (auto factory : {&NewRocksDbFastBloomFilterPolicy,
                         &NewRocksDbLegacyBloomFilterPolicy}) {
      const auto policy = factory(options);
      ASSERT_FALSE(policy.ok());
      EXPECT_EQ(policy.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_TRUE(absl::StrContains(policy.status().message(), named))
          << policy.status();
    }
  }
  // Below what 100 bits/key reach: 1.1e-10 for FastLocalBloom, 0.097% for
  // legacy Bloom, whose floor is above the API's kMinGuaranteedFpp.
  const auto fast = NewRocksDbFastBloomFilterPolicy(FilterOptions::Fpp(1e-11));
  ASSERT_FALSE(fast.ok());
  EXPECT_EQ(fast.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(fast.status().message(), "1e-11"));
  for (double fpp : {9e-4, kMinGuaranteedFpp}) {
    const auto legacy =
        NewRocksDbLegacyBloomFilterPolicy(FilterOptions::Fpp(fpp));
    ASSERT_FALSE(legacy.ok());
    EXPECT_EQ(legacy.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(absl::StrContains(legacy.status().message(), absl::StrCat(fpp)))
        << legacy.status();
  }
  EXPECT_TRUE(NewRocksDbLegacyBloomFilterPolicy(FilterOptions::Fpp(1e-3)).ok());
}

// Every policy reads every RocksDB format: the trailer, not the policy, says
// how to probe.
TEST(RocksDbBloomApiTest, EitherPolicyReadsEitherFormat) {
  std::vector<std::string> keys;
  for (int i = 0; i < 200; ++i) keys.push_back(absl::StrCat("key", i));
  const std::unique_ptr<const FilterPolicy> fast =
      MakePolicy(Format::kFastLocalBloom, FilterOptions::BitsPerKey(20));
  const std::unique_ptr<const FilterPolicy> legacy =
      MakePolicy(Format::kLegacyBloom, FilterOptions::BitsPerKey(3));
  for (const std::string& filter :
       {BuildFilter(*fast, keys), BuildFilter(*legacy, keys)}) {
    for (const FilterPolicy* reader_policy : {fast.get(), legacy.get()}) {
      const std::unique_ptr<FilterReader> reader =
          reader_policy->NewReader(filter);
      for (const std::string& key : keys) {
        ASSERT_TRUE(reader->MayMatch(key));
        ASSERT_TRUE(reader_policy->KeyMayMatch(key, filter));
      }
    }
  }
}

}  // namespace
}  // namespace rocksdb_test
}  // namespace sstfilter
