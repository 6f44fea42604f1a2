// AsLevelDbFilterPolicy on its own: what LevelDB's FilterPolicy contract asks
// of it, checked without a database (tests/integration/leveldb_db_test.cc
// runs it inside one).

#include "engines/leveldb/leveldb_adapter.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "filter/bloom/bloom.h"
#include "filter/filter_policy.h"
#include "filter/filter_spec.h"
#include "filter/leveldb/leveldb_bloom.h"
#include "gtest/gtest.h"
#include "leveldb/filter_policy.h"
#include "leveldb/slice.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

std::shared_ptr<const FilterPolicy> Native() {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      NewBloomFilterPolicy(FilterOptions::BitsPerKey(10));
  EXPECT_TRUE(policy.ok()) << policy.status();
  return *std::move(policy);
}

std::shared_ptr<const FilterPolicy> LevelDbCompatible() {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      NewLevelDbFilterPolicy(FilterOptions::BitsPerKey(10));
  EXPECT_TRUE(policy.ok()) << policy.status();
  return *std::move(policy);
}

std::vector<leveldb::Slice> Slices(const std::vector<std::string>& keys) {
  return std::vector<leveldb::Slice>(keys.begin(), keys.end());
}

// Random bytes, NULs included: LevelDB keys are byte strings, and the adapter
// must pass their lengths, not stop at a NUL.
std::vector<std::string> Keys(size_t n, uint64_t seed) {
  test::Random rng(seed);
  return test::RandomKeys(&rng, n, 8, 24);  // long enough not to repeat
}

TEST(LevelDbAdapterTest, KeepsTheName) {
  EXPECT_STREQ(AsLevelDbFilterPolicy(Native())->Name(),
               "sstfilter.LocalBloom2");
  EXPECT_STREQ(AsLevelDbFilterPolicy(LevelDbCompatible())->Name(),
               kLevelDbBloomName);
}

// LevelDB appends each filter of a table to one string: the bytes before must
// stay as they are, and the filter appended must be the policy's own.
TEST(LevelDbAdapterTest, AppendsThePolicysFilter) {
  const std::shared_ptr<const FilterPolicy> policy = Native();
  const std::unique_ptr<leveldb::FilterPolicy> adapted =
      AsLevelDbFilterPolicy(policy);
  const std::vector<std::string> keys = Keys(500, 1);
  const std::vector<leveldb::Slice> slices = Slices(keys);

  std::string expected = "earlier filters";
  std::unique_ptr<FilterBuilder> builder = policy->NewBuilder();
  for (const std::string& key : keys) builder->AddKey(key);
  builder->Finish(&expected);

  std::string dst = "earlier filters";
  adapted->CreateFilter(slices.data(), static_cast<int>(slices.size()), &dst);
  EXPECT_EQ(dst, expected);
}

TEST(LevelDbAdapterTest, EveryAddedKeyMatches) {
  for (const std::shared_ptr<const FilterPolicy>& policy :
       {Native(), LevelDbCompatible()}) {
    SCOPED_TRACE(policy->Name());
    const std::unique_ptr<leveldb::FilterPolicy> adapted =
        AsLevelDbFilterPolicy(policy);
    const std::vector<std::string> keys = Keys(2000, 2);
    const std::vector<leveldb::Slice> slices = Slices(keys);
    std::string filter;
    adapted->CreateFilter(slices.data(), static_cast<int>(slices.size()),
                          &filter);
    for (const leveldb::Slice& key : slices) {
      ASSERT_TRUE(adapted->KeyMayMatch(key, filter)) << key.ToString();
    }
    // At 10 bits/key about 1% of other keys match; all of them would mean the
    // filter is not consulted.
    int matches = 0;
    for (const std::string& key : Keys(2000, 3)) {
      matches += adapted->KeyMayMatch(key, filter);
    }
    EXPECT_LT(matches, 100);
  }
}

// Through the adapter, the LevelDB-compatible policy writes LevelDB's bytes,
// so LevelDB's own policy reads its filters and the reverse.
TEST(LevelDbAdapterTest, CompatiblePolicyMatchesLevelDbsOwn) {
  const std::unique_ptr<leveldb::FilterPolicy> ours =
      AsLevelDbFilterPolicy(LevelDbCompatible());
  const std::unique_ptr<const leveldb::FilterPolicy> theirs(
      leveldb::NewBloomFilterPolicy(10));
  const std::vector<std::string> keys = Keys(300, 4);
  const std::vector<leveldb::Slice> slices = Slices(keys);
  std::string our_filter;
  std::string their_filter;
  ours->CreateFilter(slices.data(), static_cast<int>(slices.size()),
                     &our_filter);
  theirs->CreateFilter(slices.data(), static_cast<int>(slices.size()),
                       &their_filter);
  EXPECT_EQ(our_filter, their_filter);
  for (const std::string& key : Keys(2000, 5)) {
    ASSERT_EQ(ours->KeyMayMatch(key, their_filter),
              theirs->KeyMayMatch(key, their_filter))
        << key;
  }
}

// A spec string gives the policy it names, adapted: LevelDB's calls make
// that policy's filters and find every added key in them.
TEST(LevelDbAdapterTest, TakesASpecString) {
  for (const char* spec : {"leveldb:10", "bloom:fpp=0.01", "burr:12"}) {
    SCOPED_TRACE(spec);
    absl::StatusOr<std::unique_ptr<leveldb::FilterPolicy>> adapted =
        AsLevelDbFilterPolicy(spec);
    ASSERT_TRUE(adapted.ok()) << adapted.status();
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
        NewFilterPolicyFromString(spec);
    ASSERT_TRUE(policy.ok()) << policy.status();
    EXPECT_STREQ((*adapted)->Name(), (*policy)->Name());
    const std::vector<std::string> keys = Keys(1000, 6);
    const std::vector<leveldb::Slice> slices = Slices(keys);
    std::string filter;
    (*adapted)->CreateFilter(slices.data(), static_cast<int>(slices.size()),
                             &filter);
    std::vector<absl::string_view> views(keys.begin(), keys.end());
    std::string expected;
    (*policy)->CreateFilter(views, &expected);
    EXPECT_EQ(filter, expected);
    for (const leveldb::Slice& key : slices) {
      ASSERT_TRUE((*adapted)->KeyMayMatch(key, filter));
    }
  }
}

TEST(LevelDbAdapterTest, MalformedSpecIsAnInvalidArgument) {
  for (const char* spec : {"", "leveldb", "leveldb:10:probes=6", "lvldb:10"}) {
    absl::StatusOr<std::unique_ptr<leveldb::FilterPolicy>> adapted =
        AsLevelDbFilterPolicy(spec);
    EXPECT_EQ(adapted.status().code(), absl::StatusCode::kInvalidArgument)
        << spec;
  }
}

// The adapter shares ownership: it keeps working after every other owner of
// the policy is gone (AddressSanitizer would report a use after free).
TEST(LevelDbAdapterTest, OwnsThePolicy) {
  std::shared_ptr<const FilterPolicy> policy = Native();
  const std::unique_ptr<leveldb::FilterPolicy> adapted =
      AsLevelDbFilterPolicy(policy);
  policy.reset();
  const leveldb::Slice key("apple");
  std::string filter;
  adapted->CreateFilter(&key, 1, &filter);
  EXPECT_TRUE(adapted->KeyMayMatch(key, filter));
  EXPECT_STREQ(adapted->Name(), "sstfilter.LocalBloom2");
}

}  // namespace
}  // namespace sstfilter
