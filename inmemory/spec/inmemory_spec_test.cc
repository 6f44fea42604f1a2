#include "inmemory/spec/inmemory_spec.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

// Each family's spec makes the filter its Create makes from the same options.
TEST(InMemorySpecTest, EachFamilyMakesItsFilter) {
  absl::StatusOr<MutableBloomFilter> from_spec =
      NewMutableBloomFilterFromString("mutable:fpp=0.01:keys=5000");
  ASSERT_TRUE(from_spec.ok()) << from_spec.status();
  absl::StatusOr<MutableBloomFilter> direct =
      MutableBloomFilter::Create(FilterOptions::Fpp(0.01), 5000);
  ASSERT_TRUE(direct.ok());
  EXPECT_EQ(from_spec->MemoryBytes(), direct->MemoryBytes());
  EXPECT_EQ(from_spec->ExpectedFpp(), direct->ExpectedFpp());

  absl::StatusOr<CountingBloomFilter> counting =
      NewCountingBloomFilterFromString("counting:12:keys=1000");
  ASSERT_TRUE(counting.ok()) << counting.status();
  absl::StatusOr<CountingBloomFilter> counting_direct =
      CountingBloomFilter::Create(FilterOptions::BitsPerKey(12), 1000);
  ASSERT_TRUE(counting_direct.ok());
  EXPECT_EQ(counting->MemoryBytes(), counting_direct->MemoryBytes());

  absl::StatusOr<std::unique_ptr<ScalableBloomFilter>> scalable =
      NewScalableBloomFilterFromString(
          "scalable:fpp=0.001:keys=100:growth=4:tightening=0.8");
  ASSERT_TRUE(scalable.ok()) << scalable.status();
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE((*scalable)->Add("key" + std::to_string(i)).ok());
  }
  for (int i = 0; i < 1000; ++i) {
    EXPECT_TRUE((*scalable)->MayContain("key" + std::to_string(i)));
  }
}

TEST(InMemorySpecTest, ToStringParsesBack) {
  for (const char* spec :
       {"mutable:fpp=0.01:keys=1000", "counting:bits_per_key=10",
        "scalable:fpp=0.001:keys=7:growth=2:tightening=0.5"}) {
    absl::StatusOr<InMemorySpec> parsed = ParseInMemorySpec(spec);
    ASSERT_TRUE(parsed.ok()) << spec << ": " << parsed.status();
    EXPECT_EQ(parsed->ToString(), spec);
    absl::StatusOr<InMemorySpec> again = ParseInMemorySpec(parsed->ToString());
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->ToString(), spec);
  }
  absl::StatusOr<InMemorySpec> bare = ParseInMemorySpec("counting:12");
  ASSERT_TRUE(bare.ok());
  EXPECT_EQ(bare->ToString(), "counting:bits_per_key=12");
  EXPECT_FALSE(bare->keys.has_value());
}

// Every fault is one line that names it.
TEST(InMemorySpecTest, BadSpecsNameTheirFault) {
  struct Case {
    const char* spec;
    std::vector<const char*> words;
  };
  const Case cases[] = {
      {"", {"empty filter spec"}},
      {"bloom:fpp=0.01",
       {"unknown in-memory filter family", "bloom",
        "counting, mutable, scalable"}},
      {"mutable:fpp=0.01:", {"trailing colon"}},
      {"mutable:fpp=0.01::keys=1", {"empty param"}},
      {"mutable:fpp=0.01:10", {"not name=value"}},
      {"mutable:fpp=0.01:fpp=0.1", {"fpp", "given twice"}},
      {"mutable:fpp=abc", {"fpp", "not a number"}},
      {"mutable:fpp=0.01:keys=-3", {"keys", "not an unsigned integer"}},
      {"mutable:fpp=0.01:keys=0", {"keys", "at least 1"}},
      {"mutable:keys=10", {"neither bits_per_key nor fpp"}},
      {"mutable:fpp=0.01:bits_per_key=10", {"both bits_per_key and fpp"}},
      {"mutable:fpp=1.5", {"fpp"}},
      {"mutable:fpp=0.01:growth=2",
       {"unknown param \"growth\"", "mutable", "bits_per_key, fpp, keys"}},
      {"scalable:bits_per_key=10",
       {"unknown param \"bits_per_key\"", "fpp, keys, growth, tightening"}},
      {"scalable:keys=10", {"neither fpp given; give fpp"}},
  };
  for (const Case& c : cases) {
    absl::StatusOr<InMemorySpec> parsed = ParseInMemorySpec(c.spec);
    ASSERT_FALSE(parsed.ok()) << c.spec;
    EXPECT_TRUE(absl::IsInvalidArgument(parsed.status())) << c.spec;
    const std::string message(parsed.status().message());
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    for (const char* word : c.words) {
      EXPECT_TRUE(absl::StrContains(message, word))
          << c.spec << ": '" << word << "' missing from: " << message;
    }
  }
}

// The factories take only their own family, with its keys, and pass
// Create's refusals on, naming the spec.
TEST(InMemorySpecTest, FactoriesCheckFamilyKeysAndCreate) {
  const absl::Status other =
      NewMutableBloomFilterFromString("counting:fpp=0.01:keys=10").status();
  EXPECT_TRUE(absl::StrContains(other.message(), "not a mutable filter's"))
      << other;
  const absl::Status no_keys =
      NewCountingBloomFilterFromString("counting:fpp=0.01").status();
  EXPECT_TRUE(absl::StrContains(no_keys.message(), "keys=N missing"))
      << no_keys;
  const absl::Status growth =
      NewScalableBloomFilterFromString("scalable:fpp=0.01:keys=10:growth=0.5")
          .status();
  EXPECT_TRUE(absl::IsInvalidArgument(growth)) << growth;
  EXPECT_TRUE(absl::StrContains(growth.message(), "scalable:fpp=0.01"))
      << growth;
}

}  // namespace
}  // namespace sstfilter
