// The contract of filter/filter_policy.h and filter/filter_format.h, held for
// every variant of every family the library registers
// (filter/format_registry.h), at a target rate and at a bits/key setting.
// What is specific to one family (its format's bytes, its sizing formula, its
// golden vectors) is tested beside that family; everything every policy
// promises is tested here, once. A family is in this suite by being
// registered; the pinned names below make a family registered without one, or
// pinned but not registered, fail a test.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/filter_format.h"
#include "filter/filter_policy.h"
#include "filter/filter_spec.h"
#include "filter/format_registry.h"
#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"
#include "tests/fuzz/fuzz_checks.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

using test::BuildFilter;
using test::CountMatches;
using test::Key16;
using test::Keys16;

// The format name each family variant's policies persist. A name changes only
// with the meaning of the bytes (and then the golden tests change too); a new
// family or variant gets a line here.
const std::map<std::string, std::string>& PinnedNames() {
  static const auto* const names = new std::map<std::string, std::string>{
      {"bloom", "sstfilter.LocalBloom2"},
      {"bloom:path=portable", "sstfilter.LocalBloom2"},
      {"burr", "sstfilter.BumpedRibbon2"},
      {"grafite", "sstfilter.Grafite2"},
      {"grafite:codes=table", "sstfilter.KeyedGrafiteByLength2"},
      {"hybrid:family=compact", "sstfilter.Hybrid2"},
      {"hybrid:family=native", "sstfilter.Hybrid2"},
      {"leveldb", "leveldb.BuiltinBloomFilter2"},
      {"rocksdb.fastbloom", "rocksdb.BuiltinBloomFilter"},
      {"rocksdb.legacybloom", "rocksdb.BuiltinBloomFilter"},
  };
  return *names;
}

// Key sets: set 0 holds the added keys; sets from kAbsentSet on are never
// added, so every match of theirs is a false positive.
constexpr uint64_t kAbsentSet = 1000;

struct PolicyCase {
  FamilyVariant factory;
  FilterOptions options;
  std::string label;  // for test names
};

std::vector<PolicyCase> AllCases() {
  std::vector<PolicyCase> cases;
  for (const FamilyVariant& factory : RegisteredFamilyVariants()) {
    cases.push_back(
        {factory, FilterOptions::Fpp(0.01),
         absl::StrCat(test::TestNameOf(factory.spec), "_Fpp1Percent")});
    cases.push_back(
        {factory, FilterOptions::BitsPerKey(10),
         absl::StrCat(test::TestNameOf(factory.spec), "_10BitsPerKey")});
    // Format version 1 of sstfilter's own families (no CRC32C); the
    // compatible formats write the same bytes either way.
    cases.push_back(
        {factory, test::Version1(FilterOptions::Fpp(0.01)),
         absl::StrCat(test::TestNameOf(factory.spec), "_Version1")});
  }
  return cases;
}

// The name a factory's policies persist under options: the pinned one, or for
// version 1 of sstfilter's own formats ("sstfilter.LocalBloom2" pinned), the
// same name ending in 1.
std::string ExpectedName(const std::string& pinned,
                         const FilterOptions& options) {
  const bool version1 =
      options.self_checksum.has_value() && !*options.self_checksum;
  if (version1 && absl::StartsWith(pinned, "sstfilter.") &&
      absl::EndsWith(pinned, "2")) {
    return pinned.substr(0, pinned.size() - 1) + "1";
  }
  return pinned;
}

class PolicyContractTest : public testing::TestWithParam<PolicyCase> {
 protected:
  void SetUp() override {
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
        GetParam().factory.factory(GetParam().options);
    ASSERT_TRUE(policy.ok()) << policy.status();
    policy_ = *std::move(policy);
  }

  const FilterPolicy& policy() const { return *policy_; }

  // Asserts that every key matches through every query path.
  void ExpectAllMatch(const std::string& filter,
                      const std::vector<std::string>& keys) const {
    const std::unique_ptr<FilterReader> reader = policy().NewReader(filter);
    std::vector<absl::string_view> views(keys.begin(), keys.end());
    std::unique_ptr<bool[]> batched(new bool[views.size() + 1]);
    reader->MayMatch(views, batched.get());
    for (size_t i = 0; i < keys.size(); ++i) {
      ASSERT_TRUE(reader->MayMatch(keys[i])) << "false negative, key " << i;
      ASSERT_TRUE(batched[i]) << "batched false negative, key " << i;
      ASSERT_TRUE(policy().KeyMayMatch(keys[i], filter))
          << "KeyMayMatch false negative, key " << i;
    }
  }

 private:
  std::unique_ptr<const FilterPolicy> policy_;
};

TEST_P(PolicyContractTest, NameIsPinnedAndRegistered) {
  const auto pinned = PinnedNames().find(GetParam().factory.spec);
  ASSERT_NE(pinned, PinnedNames().end())
      << GetParam().factory.spec << " has no pinned name in this suite";
  EXPECT_EQ(policy().Name(), ExpectedName(pinned->second, GetParam().options));
  EXPECT_STREQ(policy().Name(), policy().Format().Name());
  // Other sizes write the same format.
  for (FilterOptions options :
       {FilterOptions::BitsPerKey(4), FilterOptions::Fpp(0.05)}) {
    options.self_checksum = GetParam().options.self_checksum;
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> other =
        GetParam().factory.factory(options);
    ASSERT_TRUE(other.ok()) << other.status();
    EXPECT_STREQ((*other)->Name(), policy().Name());
  }
  EXPECT_NE(FindFilterFormat(policy().Name()), nullptr)
      << policy().Name() << " is not registered: tables of it are unreadable";
}

TEST_P(PolicyContractTest, RegisteredFormatReadsWhatThePolicyBuilds) {
  const FilterFormat* format = FindFilterFormat(policy().Name());
  ASSERT_NE(format, nullptr);
  for (uint64_t n : {uint64_t{0}, uint64_t{1}, uint64_t{300}, uint64_t{5000}}) {
    const std::string filter = BuildFilter(policy(), Keys16(0, 0, n));
    const std::unique_ptr<FilterReader> mine = policy().NewReader(filter);
    const std::unique_ptr<FilterReader> registered = format->NewReader(filter);
    for (uint64_t i = 0; i < 2000; ++i) {
      const std::string key = Key16(i < n ? 0 : kAbsentSet, i);
      ASSERT_EQ(registered->MayMatch(key), mine->MayMatch(key))
          << n << " " << i;
    }
    EXPECT_EQ(format->ExpectedFpp(filter), mine->ExpectedFpp());
  }
}

TEST_P(PolicyContractTest, BitsPerKeyIsASize) {
  EXPECT_GT(policy().BitsPerKey(), 0);
  EXPECT_LE(policy().BitsPerKey(), kMaxBitsPerKey);
}

// The policy's spec string (filter/filter_spec.h) builds it again: the same
// name, size, spec and filter bytes.
TEST_P(PolicyContractTest, SpecStringRebuildsThePolicy) {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> again =
      NewFilterPolicyFromString(policy().ToString());
  ASSERT_TRUE(again.ok()) << policy().ToString() << ": " << again.status();
  EXPECT_STREQ((*again)->Name(), policy().Name());
  EXPECT_EQ((*again)->BitsPerKey(), policy().BitsPerKey());
  EXPECT_EQ((*again)->ToString(), policy().ToString());
  const std::vector<std::string> keys = Keys16(0, 0, 1000);
  EXPECT_EQ(BuildFilter(**again, keys), BuildFilter(policy(), keys));
}

TEST_P(PolicyContractTest, FormatDescribesItsFilters) {
  const std::string filter = BuildFilter(policy(), Keys16(0, 0, 10000));
  const FilterFacts facts = policy().Format().Describe(filter);
  EXPECT_FALSE(facts.kind.empty());
  ASSERT_TRUE(facts.body_bits.has_value());
  EXPECT_LE(*facts.body_bits, 8 * filter.size());
  if (facts.num_keys.has_value()) {
    // Stored exactly, or estimated from the fill within a few percent.
    EXPECT_NEAR(*facts.num_keys, 10000, facts.keys_estimated ? 500 : 0);
  }
}

TEST_P(PolicyContractTest, EmptyFilterMatchesNothing) {
  const std::string filter = BuildFilter(policy(), {});
  const std::unique_ptr<FilterReader> reader = policy().NewReader(filter);
  EXPECT_EQ(CountMatches(*reader, kAbsentSet, 0, 10000), 0u);
  EXPECT_EQ(reader->ExpectedFpp(), 0);
  EXPECT_FALSE(policy().KeyMayMatch("", filter));
  EXPECT_FALSE(policy().KeyMayMatch("hello", filter));
}

TEST_P(PolicyContractTest, NoFalseNegativeAtAnySize) {
  for (uint64_t n :
       {1,  2,  3,   4,   7,   8,   9,    15,   16,    17,    63,
        64, 65, 100, 511, 512, 513, 1000, 4095, 10000, 65536, 200000}) {
    SCOPED_TRACE(n);
    const std::vector<std::string> keys = Keys16(0, n * 1000000, n);
    ASSERT_NO_FATAL_FAILURE(ExpectAllMatch(BuildFilter(policy(), keys), keys));
  }
}

TEST_P(PolicyContractTest, NoFalseNegativeForAnyKeyLength) {
  // Lengths around every hash's internal boundaries (0, 1-3, 4-8, 9-16,
  // 17-128, 129-240, longer), the empty key and keys that differ in one byte.
  test::Random rng(7);
  std::vector<std::string> keys = {"", std::string(1, '\0'),
                                   std::string(2, '\0')};
  for (size_t length = 1; length <= 300; ++length) {
    keys.push_back(rng.Bytes(length));
    std::string neighbour = keys.back();
    neighbour.back() = static_cast<char>(neighbour.back() ^ 1);
    keys.push_back(neighbour);
  }
  keys.push_back(rng.Bytes(5000));
  ExpectAllMatch(BuildFilter(policy(), keys), keys);
}

TEST_P(PolicyContractTest, BuilderIsReusableAndFinishAppends) {
  std::unique_ptr<FilterBuilder> builder = policy().NewBuilder();
  const std::vector<std::string> first = Keys16(1, 0, 3000);
  const std::vector<std::string> second = Keys16(2, 0, 500);
  std::string bytes = "prefix";
  for (const std::string& key : first) builder->AddKey(key);
  EXPECT_EQ(builder->NumAdded(), first.size());
  builder->Finish(&bytes);
  EXPECT_EQ(builder->NumAdded(), 0u);
  const size_t first_end = bytes.size();
  for (const std::string& key : second) builder->AddKey(key);
  EXPECT_EQ(builder->NumAdded(), second.size());
  builder->Finish(&bytes);

  ASSERT_EQ(bytes.substr(0, 6), "prefix");
  const std::string filter1 = bytes.substr(6, first_end - 6);
  const std::string filter2 = bytes.substr(first_end);
  // Each equals what a fresh builder makes, so nothing carried over.
  EXPECT_EQ(filter1, BuildFilter(policy(), first));
  EXPECT_EQ(filter2, BuildFilter(policy(), second));
  ExpectAllMatch(filter1, first);
  ExpectAllMatch(filter2, second);

  // CreateFilter appends the same bytes.
  const std::vector<absl::string_view> views(first.begin(), first.end());
  std::string created = "prefix";
  policy().CreateFilter(views, &created);
  EXPECT_EQ(created, "prefix" + filter1);
}

TEST_P(PolicyContractTest, SizingBuilderBuildsTheSameFilters) {
  // A host measures filters with NewSizingBuilder (the RocksDB adapter sizing
  // partitions): its sizes are those of the filters NewBuilder makes.
  for (uint64_t n : {uint64_t{0}, uint64_t{1}, uint64_t{3000}}) {
    const std::vector<std::string> keys = Keys16(0, 0, n);
    std::unique_ptr<FilterBuilder> sizing = policy().NewSizingBuilder();
    for (const std::string& key : keys) sizing->AddKey(key);
    std::string sized;
    sizing->Finish(&sized);
    EXPECT_EQ(sized, BuildFilter(policy(), keys)) << n;
  }
}

TEST_P(PolicyContractTest, DuplicatesDoNotCostAccuracy) {
  const std::vector<std::string> keys = Keys16(0, 0, 20000);
  std::vector<std::string> repeated;
  for (const std::string& key : keys) {
    repeated.push_back(key);
    repeated.push_back(key);  // consecutive duplicates
  }
  repeated.insert(repeated.end(), keys.begin(), keys.end());  // and later ones
  const std::string once = BuildFilter(policy(), keys);
  const std::string thrice = BuildFilter(policy(), repeated);
  ExpectAllMatch(thrice, keys);
  const std::unique_ptr<FilterReader> reader_once = policy().NewReader(once);
  const std::unique_ptr<FilterReader> reader_thrice =
      policy().NewReader(thrice);
  const uint64_t queries = 200000;
  const double fp_once =
      CountMatches(*reader_once, kAbsentSet, 0, queries) / double(queries);
  const double fp_thrice =
      CountMatches(*reader_thrice, kAbsentSet, 0, queries) / double(queries);
  // A filter sized for the distinct keys has their rate. Sized for every
  // AddKey call it could only be more accurate, so this bounds from above:
  // five standard deviations of the measured rate, plus 10% for the formats
  // whose size depends on the count they were given (LevelDB's grows).
  const double sigma = std::sqrt(fp_once / queries);
  EXPECT_LE(fp_thrice, fp_once * 1.1 + 5 * sigma)
      << "once " << fp_once << ", with duplicates " << fp_thrice;
}

TEST_P(PolicyContractTest, BatchedEqualsSingle) {
  const std::vector<std::string> keys = Keys16(0, 0, 3000);
  const std::string filter = BuildFilter(policy(), keys);
  const std::unique_ptr<FilterReader> reader = policy().NewReader(filter);
  // Present and absent keys mixed, in batches of every size up to 257.
  std::vector<std::string> queries;
  for (uint64_t i = 0; i < 6000; ++i)
    queries.push_back(Key16(i % 2 == 0 ? 0 : kAbsentSet, i / 2));
  size_t start = 0;
  for (size_t batch = 0; start + batch <= queries.size() && batch <= 257;
       start += batch, ++batch) {
    std::vector<absl::string_view> views(queries.begin() + start,
                                         queries.begin() + start + batch);
    std::unique_ptr<bool[]> results(new bool[batch + 1]);
    reader->MayMatch(views, results.get());
    for (size_t i = 0; i < batch; ++i) {
      const bool single = reader->MayMatch(views[i]);
      ASSERT_EQ(results[i], single) << "batch " << batch << " index " << i;
      ASSERT_EQ(policy().KeyMayMatch(views[i], filter), single);
      ASSERT_EQ(policy().Format().KeyMayMatch(views[i], filter), single);
    }
  }
}

TEST_P(PolicyContractTest, AnyBytesGiveATotalReader) {
  // fuzz::CheckReaderIsTotal copies each input into a buffer of exactly its
  // size (so the sanitizers see any read past it) and checks that every query
  // path agrees and ExpectedFpp is a probability.
  const std::string real = BuildFilter(policy(), Keys16(0, 0, 2000));
  std::vector<std::string> inputs = {"", std::string(1, '\0'), real};
  for (size_t cut = 0; cut < real.size(); cut += 1 + cut / 8)
    inputs.push_back(real.substr(0, cut));  // truncated
  for (size_t cut = 1; cut < 64 && cut < real.size(); ++cut)
    inputs.push_back(real.substr(cut));  // leading bytes lost
  // Every value of each of the last 16 bytes, where the trailers are.
  for (size_t pos = real.size() - 16; pos < real.size(); ++pos) {
    for (int value = 0; value < 256; ++value) {
      std::string changed = real;
      changed[pos] = static_cast<char>(value);
      inputs.push_back(changed);
    }
  }
  test::Random rng(11);
  for (int i = 0; i < 400; ++i) {
    std::string flipped = real;
    const int flips = 1 + static_cast<int>(rng.Uniform(4));
    for (int f = 0; f < flips; ++f) {
      // Mostly in the trailer, where the metadata lives.
      const size_t pos =
          rng.OneIn(2)
              ? real.size() - 1 - rng.Uniform(std::min<size_t>(real.size(), 32))
              : rng.Uniform(real.size());
      flipped[pos] = static_cast<char>(flipped[pos] ^ (1 << rng.Uniform(8)));
    }
    inputs.push_back(flipped);
    inputs.push_back(rng.Bytes(rng.Uniform(300)));
  }
  for (const std::string& input : inputs) {
    const absl::Status status = fuzz::CheckReaderIsTotal(
        policy().Format(), reinterpret_cast<const uint8_t*>(input.data()),
        input.size());
    ASSERT_TRUE(status.ok()) << status << " on " << input.size() << " bytes";
  }
}

TEST_P(PolicyContractTest, ExpectedFppIsTheMeasuredRate) {
  for (uint64_t n : {uint64_t{2000}, uint64_t{50000}}) {
    SCOPED_TRACE(n);
    const std::string filter = BuildFilter(policy(), Keys16(0, 0, n));
    const std::unique_ptr<FilterReader> reader = policy().NewReader(filter);
    const double expected = reader->ExpectedFpp();
    ASSERT_GT(expected, 0);
    ASSERT_LT(expected, 1);
    const uint64_t queries = 400000;
    // Absent keys drawn as the added ones were (set 0, past them): a keyed
    // range filter answers no for free to keys holding a byte no added key
    // holds at that position, as another set's keys do.
    const double matches =
        static_cast<double>(CountMatches(*reader, /*set=*/0, n, queries));
    // Within five standard deviations of the binomial count, and 15% of the
    // rate for the estimates that model or sample rather than count (a
    // cache-local layout's Poisson average; the rate LevelDB's and legacy
    // Bloom's readers sample from 2^16 hashes, about 4% at 1%).
    const double mean = expected * queries;
    EXPECT_NEAR(matches, mean, 5 * std::sqrt(mean) + 0.15 * mean)
        << "measured " << matches / queries << ", ExpectedFpp " << expected;
  }
}

TEST_P(PolicyContractTest, ReadersAreSharedByThreads) {
  // Run under ThreadSanitizer by :policy_contract_threads_test.
  const std::vector<std::string> keys = Keys16(0, 0, 5000);
  const std::string filter = BuildFilter(policy(), keys);
  std::vector<std::string> queries = Keys16(kAbsentSet, 0, 5000);
  queries.insert(queries.end(), keys.begin(), keys.end());
  EXPECT_EQ(test::SharedReaderMismatches(policy(), filter, queries,
                                         /*threads=*/4),
            0u);
}

INSTANTIATE_TEST_SUITE_P(EveryPolicy, PolicyContractTest,
                         testing::ValuesIn(AllCases()),
                         [](const testing::TestParamInfo<PolicyCase>& param) {
                           return param.param.label;
                         });

// The registry holds exactly the pinned variants: a family registered without
// a pinned name fails here, as does a pinned one nobody registered.
TEST(PolicyRegistryTest, TheRegisteredVariantsAreThePinnedOnes) {
  std::set<std::string> registered;
  for (const FamilyVariant& variant : RegisteredFamilyVariants()) {
    EXPECT_TRUE(registered.insert(variant.spec).second)
        << variant.spec << " is registered twice";
  }
  std::set<std::string> pinned;
  for (const auto& [spec, name] : PinnedNames()) pinned.insert(spec);
  EXPECT_EQ(registered, pinned);
}

// Each family's record lists what its policies write, at every version, and
// each variant's spec builds the policy the variant's factory builds.
TEST(PolicyRegistryTest, EachFamilyListsTheFormatsItWrites) {
  for (const FilterFamilyRecord& family : RegisteredFilterFamilies()) {
    std::set<std::string> listed;
    for (const FilterFormat* format : family.formats) {
      listed.insert(format->Name());
      EXPECT_EQ(FindFilterFormat(format->Name()), format) << family.name;
    }
    std::set<std::string> written;
    for (const FamilyVariant& variant : RegisteredFamilyVariants()) {
      if (variant.spec != family.name &&
          !absl::StartsWith(variant.spec, family.name + ":")) {
        continue;
      }
      for (const FilterOptions& options :
           {FilterOptions::Fpp(0.01),
            test::Version1(FilterOptions::Fpp(0.01))}) {
        absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
            variant.factory(options);
        ASSERT_TRUE(policy.ok()) << variant.spec << " " << policy.status();
        written.insert((*policy)->Name());
        // The variant's own spec, sized, builds the same policy.
        const std::string sized =
            absl::StrCat(variant.spec, ":fpp=0.01",
                         options.self_checksum == false ? ":checksum=off" : "");
        absl::StatusOr<std::unique_ptr<const FilterPolicy>> from_spec =
            NewFilterPolicyFromString(sized);
        ASSERT_TRUE(from_spec.ok()) << sized << " " << from_spec.status();
        EXPECT_EQ((*from_spec)->ToString(), (*policy)->ToString()) << sized;
      }
    }
    EXPECT_EQ(written, listed) << family.name;
  }
}

// A table's format names the family that wrote it: each listed format leads
// back to its family, and a format no family lists to none.
TEST(PolicyRegistryTest, EachFormatNamesTheFamiliesThatWriteIt) {
  for (const FilterFamilyRecord& family : RegisteredFilterFamilies()) {
    for (const FilterFormat* format : family.formats) {
      const std::vector<std::string> writers = FamiliesWritingFormat(format);
      EXPECT_NE(std::find(writers.begin(), writers.end(), family.name),
                writers.end())
          << format->Name() << " does not name " << family.name;
      for (const std::string& writer : writers) {
        const std::optional<FilterFamilyRecord> other =
            FindFilterFamily(writer);
        ASSERT_TRUE(other.has_value()) << writer;
        EXPECT_NE(
            std::find(other->formats.begin(), other->formats.end(), format),
            other->formats.end())
            << format->Name() << " names " << writer << ", which lists it not";
      }
    }
  }
  EXPECT_TRUE(FamiliesWritingFormat(nullptr).empty());
  EXPECT_EQ(FamiliesWritingFormat(FindFilterFormat("sstfilter.LocalBloom2")),
            std::vector<std::string>{"bloom"});
}

}  // namespace
}  // namespace sstfilter
