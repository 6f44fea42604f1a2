// Differential tests against LevelDB 1.23 itself (libleveldb): for random key
// sets the LevelDB-compatible policy must write the very bytes
// leveldb::NewBloomFilterPolicy writes, and both readers must give the same
// answer on every filter, including malformed ones and the ones sized from a
// false-positive rate (which LevelDB can only read). Every case derives from a
// printed seed, so a failure replays exactly.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "filter/filter_policy.h"
#include "filter/leveldb/leveldb_bloom.h"
#include "gtest/gtest.h"
#include "leveldb/filter_policy.h"
#include "leveldb/slice.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

constexpr int kKeySets = 1000;
constexpr uint64_t kBaseSeed = 0x1e7e1db;
constexpr int kAbsentKeysPerSet = 1000;
constexpr size_t kMaxKeyLength = 300;  // bytes

// LevelDB's policy for an integer bits/key, created once.
const leveldb::FilterPolicy& LevelDbPolicy(int bits_per_key) {
  static const auto* policies = [] {
    auto* p = new std::vector<std::unique_ptr<const leveldb::FilterPolicy>>();
    for (int b = 0; b <= 30; ++b)
      p->emplace_back(leveldb::NewBloomFilterPolicy(b));
    return p;
  }();
  return *(*policies)[bits_per_key];
}

std::unique_ptr<const FilterPolicy> OurPolicy(const FilterOptions& options) {
  auto policy = NewLevelDbFilterPolicy(options);
  EXPECT_TRUE(policy.ok()) << policy.status();
  return *std::move(policy);
}

std::string LevelDbFilter(const leveldb::FilterPolicy& policy,
                          const std::vector<std::string>& keys) {
  std::vector<leveldb::Slice> slices(keys.begin(), keys.end());
  std::string filter;
  policy.CreateFilter(slices.data(), static_cast<int>(slices.size()), &filter);
  return filter;
}

std::string OurFilter(const FilterPolicy& policy,
                      const std::vector<std::string>& keys) {
  const std::vector<absl::string_view> views(keys.begin(), keys.end());
  std::string filter;
  policy.CreateFilter(views, &filter);
  return filter;
}

// Where two filters first differ, for a readable failure message.
std::string FirstDifference(const std::string& ours,
                            const std::string& theirs) {
  size_t i = 0;
  while (i < ours.size() && i < theirs.size() && ours[i] == theirs[i]) ++i;
  return absl::StrCat("sizes ", ours.size(), " and ", theirs.size(),
                      "; first difference at byte ", i);
}

// A random key set: its size, key lengths and bits/key vary from set to set, so
// that tiny filters (the 64-bit minimum), every length class of the hash,
// duplicate keys and every probe count all occur.
struct KeySet {
  int bits_per_key;
  std::vector<std::string> keys;
};

KeySet RandomKeySet(test::Random* rng) {
  KeySet set;
  set.bits_per_key = static_cast<int>(rng->Range(1, 30));
  const size_t n = rng->OneIn(4) ? rng->Range(0, 64) : rng->Range(0, 5000);
  const size_t max_len = rng->OneIn(3) ? rng->Range(0, 16) : kMaxKeyLength;
  set.keys.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (i > 0 && rng->OneIn(50)) {
      set.keys.push_back(set.keys[rng->Uniform(i)]);  // a duplicate
    } else {
      set.keys.push_back(rng->Bytes(rng->Range(0, max_len)));
    }
  }
  return set;
}

class RandomKeySetTest : public testing::TestWithParam<int> {};

TEST_P(RandomKeySetTest, SameBytesAndAnswersAsLevelDb) {
  const uint64_t seed = kBaseSeed + static_cast<uint64_t>(GetParam());
  test::Random rng(seed);
  const KeySet set = RandomKeySet(&rng);
  SCOPED_TRACE(testing::Message()
               << "seed " << seed << ": " << set.keys.size() << " keys at "
               << set.bits_per_key << " bits/key");

  const leveldb::FilterPolicy& leveldb_policy = LevelDbPolicy(set.bits_per_key);
  const std::unique_ptr<const FilterPolicy> policy =
      OurPolicy(FilterOptions::BitsPerKey(set.bits_per_key));
  const std::string ours = OurFilter(*policy, set.keys);
  const std::string theirs = LevelDbFilter(leveldb_policy, set.keys);
  ASSERT_EQ(ours, theirs) << FirstDifference(ours, theirs);

  const std::unique_ptr<FilterReader> reader = policy->NewReader(ours);
  for (const std::string& key : set.keys) {
    ASSERT_TRUE(reader->MayMatch(key)) << absl::CEscape(key);
    ASSERT_TRUE(leveldb_policy.KeyMayMatch(key, ours)) << absl::CEscape(key);
  }
  const std::unordered_set<std::string> added(set.keys.begin(), set.keys.end());
  int absent = 0;
  while (absent < kAbsentKeysPerSet) {
    std::string key = rng.Bytes(rng.Range(0, kMaxKeyLength));
    if (added.count(key) > 0) continue;
    ++absent;
    ASSERT_EQ(reader->MayMatch(key), leveldb_policy.KeyMayMatch(key, ours))
        << absl::CEscape(key);
  }
}

INSTANTIATE_TEST_SUITE_P(KeySets, RandomKeySetTest,
                         testing::Range(0, kKeySets));

// Every byte value in every position of the hash's 4-byte body and 1-3 byte
// tail, where a signed-char reading would differ from LevelDB's.
TEST(LevelDbDifferentialTest, EveryByteValueInEveryPosition) {
  std::vector<std::string> keys;
  for (int b = 0; b < 256; ++b) {
    for (size_t len = 1; len <= 7; ++len) {
      for (size_t pos = 0; pos < len; ++pos) {
        std::string key(len, 'k');
        key[pos] = static_cast<char>(b);
        keys.push_back(key);
      }
    }
  }
  for (int bits_per_key : {1, 10, 23}) {
    const std::string ours =
        OurFilter(*OurPolicy(FilterOptions::BitsPerKey(bits_per_key)), keys);
    const std::string theirs = LevelDbFilter(LevelDbPolicy(bits_per_key), keys);
    EXPECT_EQ(ours, theirs)
        << bits_per_key << " bits/key: " << FirstDifference(ours, theirs);
    // One key per filter: any hash difference shows in the bits.
    for (size_t i = 0; i < keys.size(); i += 7) {
      ASSERT_EQ(OurFilter(*OurPolicy(FilterOptions::BitsPerKey(bits_per_key)),
                          {keys[i]}),
                LevelDbFilter(LevelDbPolicy(bits_per_key), {keys[i]}))
          << absl::CEscape(keys[i]);
    }
  }
}

// The key sets whose filter hashes filter/leveldb/leveldb_bloom_test.cc
// freezes: LevelDB writes the same bytes, so those goldens are LevelDB's too.
TEST(LevelDbDifferentialTest, GoldenKeySets) {
  std::vector<std::string> keys;
  for (int i = 0; i < 1000; ++i) keys.push_back(test::NumberedKey("key", i));
  for (int bits_per_key : {1, 2, 5, 10, 20, 30}) {
    const std::string ours =
        OurFilter(*OurPolicy(FilterOptions::BitsPerKey(bits_per_key)), keys);
    const std::string theirs = LevelDbFilter(LevelDbPolicy(bits_per_key), keys);
    EXPECT_EQ(ours, theirs)
        << bits_per_key << " bits/key: " << FirstDifference(ours, theirs);
  }
  const std::vector<std::string> hello_world = {"hello", "world"};
  EXPECT_EQ(LevelDbFilter(LevelDbPolicy(10), hello_world),
            absl::HexStringToBytes("114000414410401006"));
}

// Filters sized from a rate have fractional bits/key and the standard k, which
// LevelDB cannot write, but must read: it finds every key, and agrees with us
// on absent ones.
TEST(LevelDbDifferentialTest, LevelDbReadsFppSizedFilters) {
  test::Random rng(0xf99);
  for (double fpp : {0.9, 0.5, 0.1, 0.03, 0.01, 0.001, 1e-6}) {
    SCOPED_TRACE(testing::Message() << "fpp " << fpp);
    const std::unique_ptr<const FilterPolicy> policy =
        OurPolicy(FilterOptions::Fpp(fpp));
    const std::vector<std::string> keys = test::RandomKeys(&rng, 2000, 0, 40);
    const std::string filter = OurFilter(*policy, keys);
    const leveldb::FilterPolicy& leveldb_policy =
        LevelDbPolicy(10);  // k comes from the filter
    for (const std::string& key : keys) {
      ASSERT_TRUE(leveldb_policy.KeyMayMatch(key, filter))
          << absl::CEscape(key);
    }
    const std::unique_ptr<FilterReader> reader = policy->NewReader(filter);
    for (const std::string& key : test::RandomKeys(&rng, 5000, 41, 60)) {
      ASSERT_EQ(reader->MayMatch(key), leveldb_policy.KeyMayMatch(key, filter));
    }
  }
}

// Malformed filters: truncated, with a different or reserved probe byte, with
// flipped bits, or plain garbage. Both readers must give the same answer to
// every key.
class MalformedFilterTest : public testing::TestWithParam<int> {};

TEST_P(MalformedFilterTest, SameAnswersAsLevelDb) {
  const uint64_t seed =
      kBaseSeed ^ (0xbad0000 + static_cast<uint64_t>(GetParam()));
  SCOPED_TRACE(testing::Message() << "seed " << seed);
  test::Random rng(seed);
  const int bits_per_key = static_cast<int>(rng.Range(1, 30));
  const std::vector<std::string> keys =
      test::RandomKeys(&rng, rng.Range(0, 300), 0, 24);
  std::string filter =
      OurFilter(*OurPolicy(FilterOptions::BitsPerKey(bits_per_key)), keys);
  switch (rng.Uniform(4)) {
    case 0:  // body cut short, probe byte kept
      filter = filter.substr(0, rng.Uniform(filter.size())) + filter.back();
      break;
    case 1:  // any probe byte, including 0 and the reserved values
      filter.back() = static_cast<char>(rng.Uniform(256));
      break;
    case 2:  // flipped bits anywhere
      for (int i = 0, flips = static_cast<int>(rng.Range(1, 8)); i < flips;
           ++i) {
        filter[rng.Uniform(filter.size())] ^=
            static_cast<char>(1 << rng.Uniform(8));
      }
      break;
    default:  // garbage of any length
      filter = rng.Bytes(rng.Range(0, 40));
      break;
  }
  SCOPED_TRACE(absl::BytesToHexString(filter.substr(0, 40)));
  // A private copy, so that a read past the end is an ASan error, not a
  // neighbour.
  const std::unique_ptr<char[]> bytes(new char[filter.size() + 1]);
  std::copy(filter.begin(), filter.end(), bytes.get());
  const absl::string_view view(bytes.get(), filter.size());

  const std::unique_ptr<const FilterPolicy> policy =
      OurPolicy(FilterOptions::BitsPerKey(bits_per_key));
  const std::unique_ptr<FilterReader> reader = policy->NewReader(view);
  const leveldb::FilterPolicy& leveldb_policy = LevelDbPolicy(bits_per_key);
  const leveldb::Slice leveldb_view(view.data(), view.size());
  std::vector<std::string> queries = test::RandomKeys(&rng, 200, 0, 24);
  queries.insert(queries.end(), keys.begin(), keys.end());
  for (const std::string& key : queries) {
    ASSERT_EQ(reader->MayMatch(key),
              leveldb_policy.KeyMayMatch(key, leveldb_view))
        << absl::CEscape(key);
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, MalformedFilterTest, testing::Range(0, 400));

}  // namespace
}  // namespace sstfilter
