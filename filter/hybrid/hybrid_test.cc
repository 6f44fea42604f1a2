// The hybrid policies' own promises: the bytes are the family's, the format
// dispatches on the marker, counters count builds by family, and a compact
// build falls back to the native filter exactly past its memory cap. What
// every policy promises is in tests/testing/policy_contract_test.cc, which
// runs both hybrid factories.

#include "filter/hybrid/hybrid.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "filter/bloom/bloom.h"
#include "filter/bloom/bloom_format.h"
#include "filter/burr/burr.h"
#include "filter/burr/burr_builder.h"
#include "filter/burr/burr_format.h"
#include "filter/burr/burr_sizing.h"
#include "filter/filter_policy.h"
#include "filter/format_registry.h"
#include "filter/policy_spec.h"
#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

using test::BuildFilter;
using test::Keys16;

constexpr uint64_t kAbsentSet = 1000;

std::unique_ptr<const FilterPolicy> Policy(const FilterOptions& options,
                                           const HybridOptions& hybrid) {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      NewHybridFilterPolicy(options, hybrid);
  EXPECT_TRUE(policy.ok()) << policy.status();
  return policy.ok() ? std::move(*policy) : nullptr;
}

uint8_t Marker(const std::string& filter) {
  return static_cast<uint8_t>(filter[filter.size() - 2]);
}

// Every key matches through the policy's reader and the registered format's.
void ExpectEveryKeyMatches(const FilterPolicy& policy,
                           const std::string& filter,
                           const std::vector<std::string>& keys) {
  const std::unique_ptr<FilterReader> mine = policy.NewReader(filter);
  const std::unique_ptr<FilterReader> registered =
      FindFilterFormat(kHybridFormatName)->NewReader(filter);
  for (const std::string& key : keys) {
    ASSERT_TRUE(mine->MayMatch(key));
    ASSERT_TRUE(registered->MayMatch(key));
  }
}

TEST(HybridTest, BytesAreTheFamilysOwn) {
  const std::vector<std::string> keys = Keys16(0, 0, 3000);
  for (const FilterOptions& options :
       {test::Version1(FilterOptions::Fpp(0.01)),
        test::Version1(FilterOptions::BitsPerKey(10))}) {
    HybridOptions native;
    native.family = FilterFamily::kNative;
    EXPECT_EQ(BuildFilter(*Policy(options, native), keys),
              BuildFilter(**NewBloomFilterPolicy(options), keys));
    EXPECT_EQ(BuildFilter(*Policy(options, HybridOptions()), keys),
              BuildFilter(**NewBurrFilterPolicy(options), keys));
  }
}

TEST(HybridTest, FormatDispatchesOnTheMarker) {
  const FilterFormat* format = FindFilterFormat(kHybridFormatName);
  ASSERT_NE(format, nullptr);
  const std::vector<std::string> keys = Keys16(0, 0, 2000);
  const std::string native = BuildFilter(
      **NewBloomFilterPolicy(test::Version1(FilterOptions::Fpp(0.01))), keys);
  const std::string compact = BuildFilter(
      **NewBurrFilterPolicy(test::Version1(FilterOptions::Fpp(0.01))), keys);
  EXPECT_EQ(Marker(native), 0xB1);
  EXPECT_EQ(Marker(compact), 0xB7);
  for (const std::string* filter : {&native, &compact}) {
    const std::unique_ptr<FilterReader> reader = format->NewReader(*filter);
    EXPECT_EQ(test::CountMatches(*reader, 0, 0, 2000), 2000u);
    // About 1% of absent keys match: a family's reader, not a constant one.
    EXPECT_LT(test::CountMatches(*reader, kAbsentSet, 0, 20000), 400u);
    EXPECT_GT(reader->ExpectedFpp(), 0);
    EXPECT_LT(reader->ExpectedFpp(), 0.02);
    EXPECT_FALSE(format->Describe(*filter).kind.empty());
  }
  // Each family's facts, by its marker.
  EXPECT_EQ(format->Describe(native).kind,
            FindFilterFormat("sstfilter.LocalBloom1")->Describe(native).kind);
  EXPECT_EQ(
      format->Describe(compact).kind,
      FindFilterFormat("sstfilter.BumpedRibbon1")->Describe(compact).kind);
}

TEST(HybridTest, BytesOfNoFamily) {
  const FilterFormat& format = *FindFilterFormat(kHybridFormatName);
  struct Case {
    std::string bytes;
    bool may_match;
    const char* why;
  };
  const Case cases[] = {
      {"", false, "too short to hold a marker: no key"},
      {std::string(1, '\xB1'), false, "one byte: no marker position"},
      {std::string("\x00\x01\x00\x06", 4), true, "marker 0x00: unknown"},
      {std::string(100, '\xFF'), true, "marker 0xFF: unknown"},
      {std::string("\x00\x01\xB2\x06", 4), true, "marker 0xB2: unknown"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.why);
    EXPECT_EQ(format.KeyMayMatch("key", c.bytes), c.may_match);
    EXPECT_EQ(format.NewReader(c.bytes)->MayMatch("key"), c.may_match);
    EXPECT_EQ(format.ExpectedFpp(c.bytes), c.may_match ? 1.0 : 0.0);
  }
}

// FilterFamily also names "no filter" for a tree's levels; a hybrid policy
// must build one of the two families, so kNone is refused, not read as either.
TEST(HybridTest, NoFamilyIsAnInvalidArgument) {
  HybridOptions hybrid;
  hybrid.family = FilterFamily::kNone;
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      NewHybridFilterPolicy(FilterOptions::Fpp(0.01), hybrid);
  ASSERT_FALSE(policy.ok());
  EXPECT_EQ(policy.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(policy.status().message().find("kNone"), absl::string_view::npos)
      << policy.status();
}

// ParsePolicySpec already refuses a cap that is no count; a spec built by
// hand reaches MaxBuildBytesOfSpec's own check.
TEST(HybridTest, MaxBuildBytesOfSpec) {
  PolicySpec spec;
  spec.family = kHybridFamilyName;
  EXPECT_EQ(*MaxBuildBytesOfSpec(spec), 0u) << "no cap by default";
  spec.params[kMaxBuildBytesParam] = "1024";
  EXPECT_EQ(*MaxBuildBytesOfSpec(spec), 1024u);
  spec.params[kMaxBuildBytesParam] = "lots";
  const absl::StatusOr<size_t> refused = MaxBuildBytesOfSpec(spec);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(refused.status().message(),
            "max_build_bytes: \"lots\" is not an unsigned integer");
}

TEST(HybridTest, CountersCountBuildsByFamily) {
  HybridOptions hybrid;
  hybrid.counters = std::make_shared<HybridCounters>();
  HybridOptions native = hybrid;
  native.family = FilterFamily::kNative;
  const std::vector<std::string> keys = Keys16(0, 0, 100);
  BuildFilter(*Policy(test::Version1(FilterOptions::Fpp(0.01)), hybrid), keys);
  BuildFilter(*Policy(test::Version1(FilterOptions::Fpp(0.01)), hybrid), keys);
  BuildFilter(*Policy(test::Version1(FilterOptions::Fpp(0.01)), native), keys);
  EXPECT_EQ(hybrid.counters->compact_builds.load(), 2u);
  EXPECT_EQ(hybrid.counters->native_builds.load(), 1u);
  EXPECT_EQ(hybrid.counters->fallbacks.load(), 0u);
}

TEST(HybridTest, SizingBuildsAreNotCounted) {
  HybridOptions hybrid;
  hybrid.counters = std::make_shared<HybridCounters>();
  HybridOptions native = hybrid;
  native.family = FilterFamily::kNative;
  for (const HybridOptions& options : {hybrid, native}) {
    const std::unique_ptr<const FilterPolicy> policy =
        Policy(test::Version1(FilterOptions::Fpp(0.01)), options);
    std::unique_ptr<FilterBuilder> sizing = policy->NewSizingBuilder();
    std::unique_ptr<FilterBuilder> counted = policy->NewBuilder();
    std::string sized;
    std::string built;
    for (const std::string& key : Keys16(0, 0, 100)) {
      sizing->AddKey(key);
      counted->AddKey(key);
    }
    sizing->Finish(&sized);
    counted->Finish(&built);
    EXPECT_EQ(sized, built);  // the same filter
  }
  EXPECT_EQ(hybrid.counters->compact_builds.load(), 1u);
  EXPECT_EQ(hybrid.counters->native_builds.load(), 1u);
}

// A compact policy capped at the projected peak of n keys, and its counters.
struct Capped {
  std::unique_ptr<const FilterPolicy> policy;
  std::shared_ptr<HybridCounters> counters;
};

Capped CappedAt(const FilterOptions& options, size_t max_build_bytes) {
  HybridOptions hybrid;
  hybrid.max_build_bytes = max_build_bytes;
  hybrid.counters = std::make_shared<HybridCounters>();
  return Capped{Policy(options, hybrid), hybrid.counters};
}

TEST(HybridTest, FallsBackExactlyPastTheCap) {
  constexpr uint64_t kKeys = 5000;
  for (const FilterOptions& options :
       {test::Version1(FilterOptions::Fpp(0.01)),
        test::Version1(FilterOptions::BitsPerKey(10))}) {
    const burr_internal::BurrSizing sizing =
        options.fpp ? *burr_internal::SizeForFpp(*options.fpp)
                    : burr_internal::SizeForBitsPerKey(*options.bits_per_key);
    const size_t cap = burr_internal::BuildPeakBytes(kKeys, sizing);
    const std::vector<std::string> keys = Keys16(0, 0, kKeys + 1);
    const std::vector<std::string> first(keys.begin(), keys.end() - 1);

    // At the cap: compact.
    Capped at = CappedAt(options, cap);
    std::string filter = BuildFilter(*at.policy, first);
    EXPECT_EQ(Marker(filter), 0xB7);
    ExpectEveryKeyMatches(*at.policy, filter, first);
    // A key added again right away is kept once, and costs no memory.
    std::unique_ptr<FilterBuilder> builder = at.policy->NewBuilder();
    for (const std::string& key : first) {
      builder->AddKey(key);
      builder->AddKey(key);
    }
    filter.clear();
    builder->Finish(&filter);
    EXPECT_EQ(Marker(filter), 0xB7);
    EXPECT_EQ(at.counters->compact_builds.load(), 2u);
    EXPECT_EQ(at.counters->fallbacks.load(), 0u);

    // One key more: the native filter, and every key still matches.
    filter = BuildFilter(*at.policy, keys);
    EXPECT_EQ(Marker(filter), 0xB1);
    ExpectEveryKeyMatches(*at.policy, filter, keys);
    EXPECT_EQ(at.counters->compact_builds.load(), 2u);
    EXPECT_EQ(at.counters->native_builds.load(), 1u);
    EXPECT_EQ(at.counters->fallbacks.load(), 1u);

    // A byte below the cap: the same keys fall back.
    Capped below = CappedAt(options, cap - 1);
    filter = BuildFilter(*below.policy, first);
    EXPECT_EQ(Marker(filter), 0xB1);
    ExpectEveryKeyMatches(*below.policy, filter, first);
    EXPECT_EQ(below.counters->fallbacks.load(), 1u);
    EXPECT_EQ(below.counters->compact_builds.load(), 0u);
  }
}

TEST(HybridTest, FallbackKeepsTheCompactRate) {
  // BitsPerKey(10) gives the compact filter about 0.1%; the native filter
  // that replaces it is sized for that rate, not for 10 bits/key (0.96%).
  for (const FilterOptions& options :
       {test::Version1(FilterOptions::Fpp(0.01)),
        test::Version1(FilterOptions::BitsPerKey(10))}) {
    const std::vector<std::string> keys = Keys16(0, 0, 20000);
    const std::string compact =
        BuildFilter(*Policy(options, HybridOptions()), keys);
    const std::string native = BuildFilter(*CappedAt(options, 1).policy, keys);
    ASSERT_EQ(Marker(native), 0xB1);
    const FilterFormat& format = *FindFilterFormat(kHybridFormatName);
    const double compact_fpp = format.ExpectedFpp(compact);
    EXPECT_NEAR(format.ExpectedFpp(native), compact_fpp, 0.25 * compact_fpp);
  }
}

TEST(HybridTest, ProjectedPeakGrowsWithTheKeys) {
  const burr_internal::BurrSizing sizing = *burr_internal::SizeForFpp(0.01);
  uint64_t last = burr_internal::BuildPeakBytes(0, sizing);
  for (uint64_t n = 1; n < 3000; ++n) {
    const uint64_t peak = burr_internal::BuildPeakBytes(n, sizing);
    ASSERT_GT(peak, last) << n;
    last = peak;
  }
  for (uint64_t n : {uint64_t{0}, uint64_t{1}, uint64_t{999}, uint64_t{123456},
                     uint64_t{10000000}}) {
    const uint64_t peak = burr_internal::BuildPeakBytes(n, sizing);
    EXPECT_EQ(burr_internal::MaxKeysWithinBuildBytes(peak, sizing), n);
  }
  // The figures filter/hybrid/README.md states: at 10^7 keys 16 bytes per key
  // and a chunk (the hashes moving from their list to one array), at 10^5
  // the solver's part (at most 3 MB) dominates.
  EXPECT_EQ(burr_internal::BuildPeakBytes(10000000, sizing),
            160000000u + 32768u);
  EXPECT_LT(burr_internal::BuildPeakBytes(100000, sizing), 4000000u);
}

}  // namespace
}  // namespace sstfilter
