#include "filter/filter_spec.h"

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "filter/bloom/bloom.h"
#include "filter/burr/burr.h"
#include "filter/filter_policy.h"
#include "filter/format_registry.h"
#include "filter/hybrid/hybrid.h"
#include "filter/leveldb/leveldb_bloom.h"
#include "filter/range/range_filter.h"
#include "filter/rocksdb/rocksdb_bloom.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

using test::NumberedKey;
using ::testing::HasSubstr;

std::vector<std::string> Keys(int n) {
  std::vector<std::string> keys;
  for (int i = 0; i < n; ++i) keys.push_back(NumberedKey("key", i));
  return keys;
}

std::string Build(const FilterPolicy& policy, int n) {
  const std::vector<std::string> keys = Keys(n);
  std::vector<absl::string_view> views(keys.begin(), keys.end());
  std::string filter;
  policy.CreateFilter(views, &filter);
  return filter;
}

std::unique_ptr<const FilterPolicy> FromString(absl::string_view spec) {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      NewFilterPolicyFromString(spec);
  EXPECT_TRUE(policy.ok()) << spec << ": " << policy.status();
  return policy.ok() ? *std::move(policy) : nullptr;
}

// policy's ToString() parses back to a policy that is the same in every
// observable way: name, sizing, spec, and the bytes of a filter.
void ExpectRoundTrip(const FilterPolicy& policy) {
  SCOPED_TRACE(policy.ToString());
  std::unique_ptr<const FilterPolicy> again = FromString(policy.ToString());
  ASSERT_NE(again, nullptr);
  EXPECT_STREQ(again->Name(), policy.Name());
  EXPECT_EQ(again->BitsPerKey(), policy.BitsPerKey());
  EXPECT_EQ(again->ToString(), policy.ToString());
  for (int n : {0, 1, 100, 3000}) {
    EXPECT_EQ(Build(*again, n), Build(policy, n)) << n << " keys";
  }
}

// The examples the header and the tools' documents give, with the typed
// factory call each stands for.
TEST(FilterSpecTest, Examples) {
  struct Example {
    const char* spec;
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> typed;
    const char* canonical;
  };
  FilterOptions range_fpp = FilterOptions::RangeFpp(0.001, 64);
  HybridOptions native;
  native.family = FilterFamily::kNative;
  FilterOptions fpp_no_checksum = FilterOptions::Fpp(0.01);
  fpp_no_checksum.self_checksum = false;
  Example examples[] = {
      {"bloom:10", NewBloomFilterPolicy(FilterOptions::BitsPerKey(10)),
       "bloom:bits_per_key=10"},
      {"bloom:bits_per_key=10",
       NewBloomFilterPolicy(FilterOptions::BitsPerKey(10)),
       "bloom:bits_per_key=10"},
      {"burr:fpp=0.001", NewBurrFilterPolicy(FilterOptions::Fpp(0.001)),
       "burr:fpp=0.001"},
      {"leveldb:10", NewLevelDbFilterPolicy(FilterOptions::BitsPerKey(10)),
       "leveldb:bits_per_key=10"},
      {"rocksdb.fastbloom:10",
       NewRocksDbFastBloomFilterPolicy(FilterOptions::BitsPerKey(10)),
       "rocksdb.fastbloom:bits_per_key=10"},
      {"rocksdb.legacybloom:fpp=0.02",
       NewRocksDbLegacyBloomFilterPolicy(FilterOptions::Fpp(0.02)),
       "rocksdb.legacybloom:fpp=0.02"},
      {"hybrid:fpp=0.01:family=native",
       NewHybridFilterPolicy(FilterOptions::Fpp(0.01), native),
       "hybrid:fpp=0.01:family=native"},
      {"grafite:16", NewGrafiteFilterPolicy(FilterOptions::BitsPerKey(16)),
       "grafite:bits_per_key=16"},
      {"grafite:fpp=0.001:max_range_length=64",
       NewGrafiteFilterPolicy(range_fpp),
       "grafite:fpp=0.001:max_range_length=64"},
      {"bloom:fpp=0.01:checksum=off", NewBloomFilterPolicy(fpp_no_checksum),
       "bloom:fpp=0.01:checksum=off"},
  };
  for (Example& example : examples) {
    SCOPED_TRACE(example.spec);
    ASSERT_TRUE(example.typed.ok()) << example.typed.status();
    std::unique_ptr<const FilterPolicy> parsed = FromString(example.spec);
    ASSERT_NE(parsed, nullptr);
    EXPECT_EQ(parsed->ToString(), example.canonical);
    EXPECT_EQ((*example.typed)->ToString(), example.canonical);
    EXPECT_STREQ(parsed->Name(), (*example.typed)->Name());
    EXPECT_EQ(parsed->BitsPerKey(), (*example.typed)->BitsPerKey());
    EXPECT_EQ(Build(*parsed, 1000), Build(**example.typed, 1000));
    ExpectRoundTrip(*parsed);
  }
}

TEST(FilterSpecTest, ChecksumSelectsTheFormatVersion) {
  std::unique_ptr<const FilterPolicy> on = FromString("bloom:10:checksum=on");
  std::unique_ptr<const FilterPolicy> off = FromString("bloom:10:checksum=off");
  std::unique_ptr<const FilterPolicy> unset = FromString("bloom:10");
  ASSERT_TRUE(on && off && unset);
  EXPECT_STREQ(on->Name(), unset->Name());
  EXPECT_STRNE(on->Name(), off->Name());
  EXPECT_EQ(on->ToString(), "bloom:bits_per_key=10:checksum=on");
}

TEST(FilterSpecTest, NumbersPrintSoTheyParseBack) {
  for (double v : {10.0, 0.001, 1e-6, 0.1 + 0.2, 7.5, 1.0 / 3, 99.99999}) {
    const std::string text = FormatSpecNumber(v);
    double back = 0;
    ASSERT_TRUE(absl::SimpleAtod(text, &back)) << text;
    EXPECT_EQ(back, v) << text;
  }
  EXPECT_EQ(FormatSpecNumber(10), "10");
  EXPECT_EQ(FormatSpecNumber(0.001), "0.001");
  EXPECT_EQ(FormatSpecNumber(0.1 + 0.2), "0.30000000000000004");
}

// Every registered spec family at several options, spec-made and typed.
TEST(FilterSpecTest, EveryFamilyRoundTrips) {
  const std::vector<FilterFamilyRecord> families = RegisteredFilterFamilies();
  ASSERT_GE(families.size(), 7u);
  for (const FilterFamilyRecord& family : families) {
    for (const char* options :
         {"10", "bits_per_key=7.5", "fpp=0.01", "fpp=0.003:checksum=off",
          "bits_per_key=16:checksum=on"}) {
      const std::string spec = absl::StrCat(family.name, ":", options);
      absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
          NewFilterPolicyFromString(spec);
      if (!policy.ok()) {
        // The engines' formats have no checksum; their factories say so.
        EXPECT_THAT(policy.status().message(), HasSubstr("checksum")) << spec;
        continue;
      }
      ExpectRoundTrip(**policy);
    }
  }
  for (const char* spec :
       {"bloom:10:path=portable", "hybrid:10:family=native",
        "hybrid:fpp=0.001:max_build_bytes=65536",
        "hybrid:12:family=compact:max_build_bytes=1", "grafite:20",
        "grafite:fpp=0.01:max_range_length=1000:checksum=off"}) {
    std::unique_ptr<const FilterPolicy> policy = FromString(spec);
    ASSERT_NE(policy, nullptr);
    ExpectRoundTrip(*policy);
  }
}

// What the typed factories the registry lists build prints a spec that
// builds the same policy, and every registered format is what some spec
// family writes.
TEST(FilterSpecTest, EveryRegisteredFactoryAndFormatHasASpec) {
  for (const FamilyVariant& factory : RegisteredFamilyVariants()) {
    SCOPED_TRACE(factory.spec);
    for (FilterOptions options :
         {FilterOptions::Fpp(0.01), FilterOptions::BitsPerKey(10)}) {
      for (std::optional<bool> checksum :
           {std::optional<bool>(), std::optional<bool>(false)}) {
        options.self_checksum = checksum;
        absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
            factory.factory(options);
        ASSERT_TRUE(policy.ok()) << policy.status();
        EXPECT_NE((*policy)->ToString(), (*policy)->Name());
        ExpectRoundTrip(**policy);
      }
    }
  }
  std::set<std::string> written;
  for (const FamilyVariant& variant : RegisteredFamilyVariants()) {
    for (const char* checksum : {"", ":checksum=off"}) {
      absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
          NewFilterPolicyFromString(
              absl::StrCat(variant.spec, ":fpp=0.01", checksum));
      if (policy.ok()) written.insert((*policy)->Name());
    }
  }
  // Or is an earlier layout a family still reads.
  for (const FilterFamilyRecord& family : RegisteredFilterFamilies()) {
    for (const FilterFormat* format : family.read_formats) {
      EXPECT_FALSE(written.count(format->Name())) << format->Name();
      written.insert(format->Name());
    }
  }
  for (const FilterFormat* format : RegisteredFilterFormats()) {
    EXPECT_TRUE(written.count(format->Name()))
        << format->Name() << " is written by no spec family";
  }
}

// The registry says which formats answer ranges: those the range filter's
// family writes, whichever version, and no other.
TEST(FilterSpecTest, RangeFormatsAreTheRegisteredOnesThatAnswerRanges) {
  std::set<std::string> range_formats;
  for (const char* spec :
       {"grafite:16", "grafite:16:checksum=off", "grafite:16:codes=table",
        "grafite:16:codes=table:checksum=off"}) {
    std::unique_ptr<const FilterPolicy> policy = FromString(spec);
    ASSERT_NE(policy, nullptr);
    EXPECT_TRUE(policy->Format().AnswersRanges()) << spec;
    range_formats.insert(policy->Name());
  }
  EXPECT_EQ(range_formats.size(), 4u);
  // The one-coder keyed layout, which they wrote before.
  range_formats.insert("sstfilter.KeyedGrafite1");
  range_formats.insert("sstfilter.KeyedGrafite2");
  for (const FilterFormat* format : RegisteredFilterFormats()) {
    EXPECT_EQ(format->AnswersRanges(), range_formats.count(format->Name()) > 0)
        << format->Name();
    EXPECT_EQ(IsRangeFilterFormat(format->Name()), format->AnswersRanges())
        << format->Name();
    // Asked again: the answer a thread keeps for a name is the same.
    EXPECT_EQ(IsRangeFilterFormat(format->Name()), format->AnswersRanges())
        << format->Name();
  }
  EXPECT_FALSE(IsRangeFilterFormat(""));
  EXPECT_FALSE(IsRangeFilterFormat("sstfilter.NoSuchFormat1"));
}

TEST(FilterSpecTest, MalformedSpecsSayWhatIsWrong) {
  struct Case {
    const char* spec;
    const char* message;  // a fragment of the error's one line
  };
  const Case cases[] = {
      {"", "empty filter spec"},
      {"blom:10", "unknown filter family \"blom\" (known: bloom, burr,"},
      {":10", "unknown filter family \"\""},
      {"Bloom:10", "unknown filter family \"Bloom\""},
      {"bloom:10:", "trailing colon"},
      {"bloom::10", "empty param"},
      {"bloom", "neither bits_per_key nor fpp"},
      {"bloom:checksum=on", "neither bits_per_key nor fpp"},
      {"bloom:10:fpp=0.01", "both bits_per_key and fpp"},
      {"bloom:10:bits_per_key=10", "param \"bits_per_key\" given twice"},
      {"bloom:fpp=0.01:fpp=0.02", "param \"fpp\" given twice"},
      {"bloom:ten", "bits_per_key: \"ten\" is not a number"},
      {"bloom:fpp=1%", "fpp: \"1%\" is not a number"},
      {"bloom:fpp=", "fpp: \"\" is not a number"},
      {"bloom:10:family=native",
       "unknown param \"family\" for filter family \"bloom\" (known: "
       "bits_per_key, fpp, checksum, path, levels)"},
      {"bloom:10:path=fast", "path: \"fast\" is not one of best, portable"},
      {"bloom:10:probes=6", "unknown param \"probes\""},
      {"bloom:fpp=0.01:10", "param \"10\" is not name=value"},
      {"bloom:10:checksum=yes", "checksum: \"yes\" is not on or off"},
      {"bloom:0.5", "bits_per_key must be in [1, 100], got 0.5"},
      {"bloom:bits_per_key=1000", "bits_per_key must be in [1, 100], got 1000"},
      {"bloom:fpp=1", "fpp must be in (0, 1), got 1"},
      {"bloom:fpp=0", "fpp must be in (0, 1), got 0"},
      {"bloom:fpp=nan", "fpp must be in (0, 1)"},
      {"hybrid:10:family=ribbon",
       "family: \"ribbon\" is not one of native, compact"},
      {"hybrid:10:max_build_bytes=-1",
       "max_build_bytes: \"-1\" is not an unsigned integer"},
      {"hybrid:10:max_build_bytes=1e6",
       "max_build_bytes: \"1e6\" is not an unsigned integer"},
      {"grafite:2", "grafite:2"},
      {"grafite:16:max_range_length=0", "max_range_length"},
      {"grafite:16:family=native", "unknown param \"family\""},
      {"bloom:10:levels=tree", "levels=tree: a tree's policy needs the tree's"},
      {"hybrid:10:levels=tree", "build it with NewRocksDbTreeFilterPolicy"},
      {"burr:10:levels=tree", "unknown param \"levels\""},
      {"leveldb:10:checksum=on", "no checksum field"},
      {"rocksdb.legacybloom:fpp=1e-5", "1e-05"},
      {"bloom:10,burr:10", "bits_per_key: \"10,burr\" is not a number"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.spec);
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
        NewFilterPolicyFromString(c.spec);
    ASSERT_FALSE(policy.ok());
    EXPECT_EQ(policy.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(policy.status().message(), HasSubstr(c.message));
    EXPECT_EQ(policy.status().message().find('\n'), absl::string_view::npos);
  }
}

TEST(FilterSpecTest, ParseGivesTheCanonicalSpec) {
  absl::StatusOr<PolicySpec> spec =
      ParsePolicySpec("hybrid:max_build_bytes=0064:fpp=1e-3:family=native");
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->family, "hybrid");
  EXPECT_EQ(spec->options.fpp, 0.001);
  EXPECT_EQ(spec->ToString(),
            "hybrid:fpp=0.001:family=native:max_build_bytes=64");
}

TEST(FilterSpecTest, WrappersDescribeThemselvesByDefault) {
  class Wrapper final : public FilterPolicy {
   public:
    explicit Wrapper(std::unique_ptr<const FilterPolicy> inner)
        : inner_(std::move(inner)) {}
    const FilterFormat& Format() const override { return inner_->Format(); }
    double BitsPerKey() const override { return inner_->BitsPerKey(); }
    std::unique_ptr<FilterBuilder> NewBuilder() const override {
      return inner_->NewBuilder();
    }

   private:
    std::unique_ptr<const FilterPolicy> inner_;
  };
  Wrapper wrapper(FromString("bloom:10"));
  EXPECT_EQ(wrapper.ToString(), wrapper.Name());
}

// A tool sizes unsized specs itself: the parse leaves the size unset, and the
// policy is built once the tool has set it.
TEST(FilterSpecTest, UnsizedSpecsAreSizedByTheirUser) {
  EXPECT_THAT(ParsePolicySpec("hybrid:family=native").status().message(),
              HasSubstr("neither bits_per_key nor fpp"));
  absl::StatusOr<PolicySpec> unsized =
      ParsePolicySpec("hybrid:family=native", SpecSize::kOptional);
  ASSERT_TRUE(unsized.ok()) << unsized.status();
  EXPECT_FALSE(unsized->options.bits_per_key.has_value());
  EXPECT_FALSE(unsized->options.fpp.has_value());
  EXPECT_EQ(NewFilterPolicyFromSpec(*unsized).status().code(),
            absl::StatusCode::kInvalidArgument);

  PolicySpec sized = *unsized;
  sized.options.bits_per_key = 10;
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      NewFilterPolicyFromSpec(sized);
  ASSERT_TRUE(policy.ok()) << policy.status();
  EXPECT_EQ((*policy)->ToString(), "hybrid:bits_per_key=10:family=native");

  // A sized spec parses the same either way; a malformed one fails either way.
  EXPECT_TRUE(ParsePolicySpec("bloom:10", SpecSize::kOptional).ok());
  EXPECT_THAT(ParsePolicySpec("blom", SpecSize::kOptional).status().message(),
              HasSubstr("unknown filter family \"blom\""));
  EXPECT_THAT(ParsePolicySpec("bloom:path=fast", SpecSize::kOptional)
                  .status()
                  .message(),
              HasSubstr("is not one of"));
}

}  // namespace
}  // namespace sstfilter
