// Behaviour of the native Bloom filter policy through its public API: options,
// LevelDB's VaryingLengths criteria, space, the probe paths at every size, and
// ExpectedFpp against its formula and the measured rate. What every policy
// promises (empty filters, no false negatives, builder reuse, batched queries)
// is checked for this one by tests/testing/policy_contract_test.cc.

#include "filter/bloom/bloom.h"

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "filter/bloom/bloom_format.h"
#include "filter/bloom/bloom_impl.h"
#include "filter/bloom_like_policy.h"
#include "filter/testing/filter_test_util.h"
#include "filter/testing/fpp_check.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "util/bloom_math.h"

namespace sstfilter {
namespace {

using ::sstfilter::bloom_internal::NewBloomFilterPolicyWithPath;
using ::sstfilter::bloom_internal::ProbePath;
using ::sstfilter::bloom_internal::ProbePathAvailable;
using ::sstfilter::test::BuildFilter;
using ::sstfilter::test::CountMatches;
using ::sstfilter::test::Key16;
using ::sstfilter::test::Keys16;
using ::testing::HasSubstr;

std::unique_ptr<const FilterPolicy> Policy(const FilterOptions& options) {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      NewBloomFilterPolicy(options);
  EXPECT_TRUE(policy.ok()) << policy.status();
  return policy.ok() ? std::move(*policy) : nullptr;
}

TEST(BloomOptionsTest, InvalidOptionsNameTheValue) {
  struct Case {
    FilterOptions options;
    std::string value;  // must appear in the error message
  };
  const std::vector<Case> cases = {
      {FilterOptions::Fpp(0.0), "got 0"},
      {FilterOptions::Fpp(1.0), "got 1"},
      {FilterOptions::Fpp(-0.25), "got -0.25"},
      {FilterOptions::Fpp(1.5), "got 1.5"},
      {FilterOptions::Fpp(std::nan("")), "got nan"},
      // Valid for the generic check, but beyond 100 bits/key for this layout.
      {FilterOptions::Fpp(1e-30), "fpp 1e-30"},
      {FilterOptions::BitsPerKey(0.5), "got 0.5"},
      {FilterOptions::BitsPerKey(101), "got 101"},
      {FilterOptions::BitsPerKey(-3), "got -3"},
      {FilterOptions::BitsPerKey(std::numeric_limits<double>::infinity()),
       "got inf"},
      {FilterOptions(), "exactly one"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
        NewBloomFilterPolicy(c.options);
    ASSERT_FALSE(policy.ok()) << c.value;
    EXPECT_EQ(policy.status().code(), absl::StatusCode::kInvalidArgument)
        << c.value;
    EXPECT_THAT(std::string(policy.status().message()), HasSubstr(c.value));
  }
  FilterOptions both = FilterOptions::Fpp(0.01);
  both.bits_per_key = 10;
  EXPECT_EQ(NewBloomFilterPolicy(both).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(BloomOptionsTest, ValidExtremes) {
  for (const FilterOptions& options :
       {FilterOptions::Fpp(0.999), FilterOptions::Fpp(1e-9),
        FilterOptions::BitsPerKey(1), FilterOptions::BitsPerKey(100),
        FilterOptions::BitsPerKey(10)}) {
    std::unique_ptr<const FilterPolicy> policy = Policy(options);
    ASSERT_NE(policy, nullptr);
    EXPECT_GE(policy->BitsPerKey(), kMinBitsPerKey);
    EXPECT_LE(policy->BitsPerKey(), kMaxBitsPerKey);
    EXPECT_GE(AsBloomLike(*policy)->NumProbes(), kMinProbes);
    EXPECT_LE(AsBloomLike(*policy)->NumProbes(), kMaxProbes);
    const std::string filter = BuildFilter(*policy, Keys16(0, 0, 1000));
    std::unique_ptr<FilterReader> reader = policy->NewReader(filter);
    EXPECT_EQ(CountMatches(*reader, 0, 0, 1000), 1000u);
  }
}

TEST(BloomPolicyTest, NameAndParameters) {
  std::unique_ptr<const FilterPolicy> policy =
      Policy(FilterOptions::BitsPerKey(10));
  EXPECT_STREQ(policy->Name(), "sstfilter.LocalBloom2");
  EXPECT_EQ(policy->BitsPerKey(), 10.0);
  EXPECT_EQ(AsBloomLike(*policy)->NumProbes(),
            6);  // the layout's optimum at 10 bits/key

  // From fpp: the format's formula at the chosen size reaches the target, and a
  // slightly smaller size would not.
  for (double fpp : {0.1, 0.01, 0.001, 0.0001}) {
    std::unique_ptr<const FilterPolicy> p = Policy(FilterOptions::Fpp(fpp));
    const double c = p->BitsPerKey();
    EXPECT_LE(LocalBloomFpp(c, AsBloomLike(*p)->NumProbes(), 512), fpp);
    for (int k = kMinProbes; k <= kMaxProbes; ++k) {
      EXPECT_GT(LocalBloomFpp(c * 0.999, k, 512), fpp) << fpp << " k=" << k;
    }
  }
}

// LevelDB's criteria at 10 bits/key, which this format keeps where it stands in
// for LevelDB's (its tighter space bound is SpaceBound's).
TEST(BloomTest, VaryingLengths) {
  test::ExpectLevelDbVaryingLengths(*Policy(FilterOptions::BitsPerKey(10)));
}

TEST(BloomTest, SpaceBound) {
  for (double bits : {1.0, 2.5, 7.0, 10.0, 15.5, 23.0, 64.0, 100.0}) {
    std::unique_ptr<const FilterPolicy> policy =
        Policy(FilterOptions::BitsPerKey(bits));
    for (uint64_t n = 32; n <= 20000; n = n * 9 / 8 + 1) {
      const std::string filter = BuildFilter(*policy, Keys16(0, 0, n));
      EXPECT_LE(filter.size(), bits * n / 8 + 16) << bits << " " << n;
      // And not below what was configured either.
      EXPECT_GE(filter.size(), bits * n / 8) << bits << " " << n;
    }
  }
  for (double fpp : {0.1, 0.01, 0.0001}) {
    std::unique_ptr<const FilterPolicy> policy =
        Policy(FilterOptions::Fpp(fpp));
    for (uint64_t n : {32, 100, 1000, 12345}) {
      const std::string filter = BuildFilter(*policy, Keys16(0, 0, n));
      EXPECT_LE(filter.size(), policy->BitsPerKey() * n / 8 + 16)
          << fpp << " " << n;
    }
  }
}

// Every probe path finds every added key and gives the same expected rate, for
// bodies of one short block up to many blocks, with a last block that is
// regular (body a multiple of 64 bytes) or not, and n whose varint takes 1 to 3
// bytes. The AVX2 reader keeps only the body and its size (bloom_reader.h,
// PackedFilter), so this checks what it derives against the parsed filter.
TEST(BloomTest, ProbePathsAgreeAtEverySize) {
  std::vector<uint64_t> sizes;
  for (uint64_t n = 1; n <= 300; ++n) sizes.push_back(n);
  for (uint64_t n : {1000, 4096, 20000, 70000}) sizes.push_back(n);
  for (double bits : {6.4, 10.0, 12.8, 25.6}) {
    const auto scalar_policy = std::move(*NewBloomFilterPolicyWithPath(
        FilterOptions::BitsPerKey(bits), ProbePath::kScalar));
    for (uint64_t n : sizes) {
      const std::vector<std::string> keys = Keys16(0, 0, n);
      const std::string filter = BuildFilter(*scalar_policy, keys);
      const std::unique_ptr<FilterReader> reference =
          scalar_policy->NewReader(filter);
      for (const std::string& key : keys) {
        ASSERT_TRUE(reference->MayMatch(key)) << bits << " " << n;
      }
      if (!ProbePathAvailable(ProbePath::kAvx2)) continue;
      const std::unique_ptr<FilterReader> reader =
          (*NewBloomFilterPolicyWithPath(FilterOptions::BitsPerKey(bits),
                                         ProbePath::kAvx2))
              ->NewReader(filter);
      EXPECT_EQ(reader->ExpectedFpp(), reference->ExpectedFpp())
          << bits << " " << n;
      for (const std::string& key : keys) {
        ASSERT_TRUE(reader->MayMatch(key)) << bits << " " << n;
      }
      for (uint64_t i = 0; i < 200; ++i) {
        const std::string absent = Key16(1, i);
        ASSERT_EQ(reader->MayMatch(absent), reference->MayMatch(absent))
            << bits << " " << n << " " << i;
      }
    }
  }
}

TEST(BloomTest, ExpectedFppTracksTheFormula) {
  // Version 1: the body size below is the filter's size less its trailer.
  std::unique_ptr<const FilterPolicy> policy =
      Policy(test::Version1(FilterOptions::BitsPerKey(10)));
  // A large filter: all blocks but one regular, so the asymptotic formula
  // applies.
  const std::string filter = BuildFilter(*policy, Keys16(0, 0, 200000));
  std::unique_ptr<FilterReader> reader = policy->NewReader(filter);
  const double formula = LocalBloomFpp(10.0, 6, 512);
  EXPECT_NEAR(reader->ExpectedFpp(), formula, 0.01 * formula);

  // A one-block filter: exact count of keys in the block.
  const std::string tiny = BuildFilter(*policy, Keys16(0, 0, 3));
  EXPECT_DOUBLE_EQ(policy->NewReader(tiny)->ExpectedFpp(),
                   LocalBloomFppWithKeys(3, 6, 8 * (tiny.size() - 4)));

  // Unreadable bytes match everything.
  EXPECT_EQ(policy->NewReader(std::string(20, '\x7f'))->ExpectedFpp(), 1.0);
}

// The measured rate of individual filters agrees with ExpectedFpp (10^6 probes
// each: a relative standard error of about 1% at 1%, 3% at 0.1%).
TEST(BloomTest, MeasuredRateMatchesExpectedFpp) {
  for (double fpp : {0.05, 0.01, 0.001}) {
    std::unique_ptr<const FilterPolicy> policy =
        Policy(FilterOptions::Fpp(fpp));
    for (uint64_t n : {100, 3000, 100000}) {
      const test::FppMeasurement m =
          test::MeasureFpp(*policy, n, n >= 100000 ? 1 : 100000 / n, 1000000);
      EXPECT_NEAR(m.Measured(), m.expected,
                  4 * m.Sigma(m.expected) + 0.02 * m.expected)
          << "fpp=" << fpp << " n=" << n;
    }
  }
}

}  // namespace
}  // namespace sstfilter
