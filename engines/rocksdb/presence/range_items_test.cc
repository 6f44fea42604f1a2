// The range items (range_items.h) against the exact set of keys: no range
// that holds a key is ever ruled out, on keys of one length and of many,
// with bytes of any value; and on keys shaped as stores shape them, empty
// ranges up to 64 possible keys wide match about as often as the items'
// probes predict.

#include "engines/rocksdb/presence/range_items.h"

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "inmemory/mutable/mutable_bloom.h"
#include "util/hash.h"
#include "util/key_shapes.h"

namespace sstfilter {
namespace presence_internal {
namespace {

constexpr int kKeys = 20000;
constexpr int kRanges = 20000;
// Hash64 of the filter ItemsSetTheSameBitsInEveryRelease fills.
constexpr uint64_t kItemsDigest = 8758437618398574919ULL;

using key_shapes::KeyNumber;
using key_shapes::KeyShape;
using key_shapes::NumberDraws;

// Numbers without leading zeros: keys of several lengths interleave, and a
// range of 7-byte keys spans hundreds of 8-byte ones, beyond the items' two
// levels, so only their keeping is checked.
std::string Unpadded(KeyNumber n) {
  return absl::StrFormat("k%u", static_cast<uint64_t>(n));
}
constexpr KeyShape kUnpadded = {"unpadded", Unpadded, 10000000, 1};

// Sized and filled as a presence filter at 1% with range items is: each key
// added, and its range items.
struct Filter {
  Filter() {
    const absl::StatusOr<double> range_items = RangeItemsPerKey(0.01);
    EXPECT_TRUE(range_items.ok()) << range_items.status();
    absl::StatusOr<MutableBloomFilter> made = MutableBloomFilter::Create(
        FilterOptions::Fpp(0.01),
        static_cast<uint64_t>(kKeys * (1 + range_items.value_or(0))));
    EXPECT_TRUE(made.ok()) << made.status();
    bits = std::make_unique<MutableBloomFilter>(*std::move(made));
  }
  void Add(const std::string& key) {
    bits->AddSingleWriter(key);
    AddRangeItemsSingleWriter(key, &alphabets, bits.get());
    keys.insert(key);
  }
  bool Holds(const std::string& lo, const std::string& hi,
             bool inclusive) const {
    auto it = keys.lower_bound(lo);
    return it != keys.end() && (inclusive ? *it <= hi : *it < hi);
  }
  bool MayHold(const std::string& lo, const std::string& hi,
               bool inclusive) const {
    return RangeMayHoldKey(alphabets, *bits, lo, hi, inclusive);
  }

  KeyAlphabets alphabets;
  std::unique_ptr<MutableBloomFilter> bits;
  std::set<std::string> keys;
};

struct Counts {
  int holding = 0;
  int empty = 0;
  int empty_matched = 0;
};

// Ranges of up to 64 numbers: starting just after a present key's number
// (correlated) or anywhere.
Counts RangesOfShape(const KeyShape& shape, const Filter& filter,
                     const std::vector<KeyNumber>& present, bool correlated,
                     NumberDraws* draws) {
  Counts counts;
  for (int i = 0; i < kRanges; ++i) {
    const KeyNumber start = correlated
                                ? present[draws->Below(present.size())] + 1
                                : draws->Below(shape.max_number - 64);
    const KeyNumber width = 1 + draws->Below(64);
    const std::string lo = shape.key(start), hi = shape.key(start + width - 1);
    if (lo > hi) continue;  // the numbers cross a change of length
    const bool holds = filter.Holds(lo, hi, /*inclusive=*/true);
    const bool may_hold = filter.MayHold(lo, hi, /*inclusive=*/true);
    if (holds) {
      ++counts.holding;
      EXPECT_TRUE(may_hold) << shape.name << ": [" << lo << ", " << hi << "]";
    } else {
      ++counts.empty;
      counts.empty_matched += may_hold;
    }
  }
  return counts;
}

TEST(RangeItemsTest, EveryShapeKeepsItsKeysAndFiltersEmptyRanges) {
  std::vector<KeyShape> shapes(key_shapes::KeyShapes().begin(),
                               key_shapes::KeyShapes().end());
  shapes.push_back(kUnpadded);
  for (const KeyShape& shape : shapes) {
    const bool of_one_format = shape.key != Unpadded;
    NumberDraws draws(42);
    Filter filter;
    const std::vector<KeyNumber> present =
        key_shapes::DrawKeyNumbers(shape, kKeys, &draws);
    for (KeyNumber number : present) filter.Add(shape.key(number));
    for (bool correlated : {true, false}) {
      const Counts counts =
          RangesOfShape(shape, filter, present, correlated, &draws);
      const double rate =
          static_cast<double>(counts.empty_matched) / counts.empty;
      std::printf("%-16s %-10s %5d holding, %5d empty, %.3f%% matched\n",
                  shape.name, correlated ? "correlated" : "uniform",
                  counts.holding, counts.empty, 100 * rate);
      EXPECT_GT(counts.empty, kRanges / 10) << shape.name;
      if (!of_one_format) continue;
      // Up to 64 candidates of a random byte, at about 0.5^13 each; a
      // decimal range's about 25, in four runs.
      EXPECT_LT(rate, 0.01)
          << shape.name << (correlated ? " correlated" : " uniform");
    }
  }
}

// Any bytes, any lengths: ranges between random strings near the keys,
// both ends inclusive or the upper exclusive; none holding a key is ruled
// out.
TEST(RangeItemsTest, NoRangeHoldingAKeyIsRuledOut) {
  std::mt19937_64 random(7);
  Filter filter;
  const auto random_string = [&random](size_t max_length) {
    std::string s(random() % (max_length + 1), '\0');
    for (char& c : s) {
      const uint64_t pick = random() % 4;
      c = static_cast<char>(pick == 0   ? 0x00
                            : pick == 1 ? 0xff
                                        : 'a' + random() % 3);
    }
    return s;
  };
  for (int i = 0; i < 3000; ++i) filter.Add(random_string(6));
  std::vector<std::string> keys(filter.keys.begin(), filter.keys.end());
  int holding = 0;
  for (int i = 0; i < 200000; ++i) {
    // Near a key: the key, a prefix of it, or it with bytes appended or
    // changed.
    const auto near = [&]() {
      std::string s = keys[random() % keys.size()];
      switch (random() % 4) {
        case 0:
          s.resize(random() % (s.size() + 1));
          break;
        case 1:
          s += random_string(2);
          break;
        case 2:
          if (!s.empty()) s[random() % s.size()] = random_string(1).c_str()[0];
          break;
        default:
          break;
      }
      return s;
    };
    std::string lo = near(), hi = near();
    if (lo > hi) std::swap(lo, hi);
    const bool inclusive = random() % 2;
    if (filter.Holds(lo, hi, inclusive)) {
      ++holding;
      ASSERT_TRUE(filter.MayHold(lo, hi, inclusive))
          << "[" << absl::CHexEscape(lo) << ", " << absl::CHexEscape(hi)
          << (inclusive ? "]" : ")");
    }
  }
  EXPECT_GT(holding, 10000);
}

TEST(RangeItemsTest, TheEmptyKeyAndLongKeysAreKept) {
  Filter filter;
  filter.Add("");
  EXPECT_TRUE(filter.MayHold("", "a", /*inclusive=*/false));
  EXPECT_FALSE(filter.MayHold("a", "b", /*inclusive=*/false));
  filter.Add(std::string(300, 'x'));
  EXPECT_TRUE(filter.MayHold("x", "y", /*inclusive=*/false));
}

TEST(RangeItemsTest, AlphabetsSurviveASave) {
  Filter filter;
  for (int i = 0; i < 1000; ++i)
    filter.Add(absl::StrFormat("user%019d", i * 1000));
  KeyAlphabets restored;
  ASSERT_TRUE(restored.Restore(filter.alphabets.Save()).ok());
  EXPECT_EQ(restored.Save(), filter.alphabets.Save());
  for (int i = 0; i < 1000; ++i) {
    const std::string key = absl::StrFormat("user%019d", i * 1000);
    EXPECT_TRUE(RangeMayHoldKey(restored, *filter.bits, key, key, true));
  }
  // Damage is refused, and leaves the sets as they were.
  std::string saved = filter.alphabets.Save();
  KeyAlphabets other;
  EXPECT_FALSE(other.Restore(saved.substr(0, saved.size() - 1)).ok());
  EXPECT_FALSE(other.Restore("").ok());
  std::string empty_set = saved;
  for (size_t i = 3; i < 3 + 32; ++i) empty_set[i] = '\0';
  EXPECT_FALSE(other.Restore(empty_set).ok());
  EXPECT_EQ(other.Of(23), nullptr);
}

// The bits a key's range items set are part of the saved filter's format: a
// filter saved by one release is restored by the next, so the same keys must
// set the same bits. Keys of 1 to 120 bytes reach every way a run's name is
// hashed; the digest of the filter's words is pinned.
TEST(RangeItemsTest, ItemsSetTheSameBitsInEveryRelease) {
  absl::StatusOr<MutableBloomFilter> made =
      MutableBloomFilter::Create(FilterOptions::Fpp(0.01), 4096);
  ASSERT_TRUE(made.ok()) << made.status();
  KeyAlphabets alphabets;
  std::mt19937_64 random(5);
  for (size_t length = 1; length <= 120; ++length) {
    std::string key(length, '\0');
    for (char& c : key) c = static_cast<char>(random());
    AddRangeItemsSingleWriter(key, &alphabets, &*made);
  }
  EXPECT_EQ(Hash64(made->Save()), kItemsDigest);
}

// A filter is sized for its keys and their range items: two run members of
// kRangeProbes bits each, counted in keys of the probes fpp sets.
TEST(RangeItemsTest, ItemsPerKeyCountTwoRunMembersInKeys) {
  for (const double fpp : {0.1, 0.01, 0.001}) {
    const absl::StatusOr<MutableBloomFilter> shape =
        MutableBloomFilter::Create(FilterOptions::Fpp(fpp), 1);
    ASSERT_TRUE(shape.ok()) << shape.status();
    const absl::StatusOr<double> items = RangeItemsPerKey(fpp);
    ASSERT_TRUE(items.ok()) << items.status();
    EXPECT_DOUBLE_EQ(*items, 2.0 * kRangeProbes / shape->NumProbes()) << fpp;
  }
  EXPECT_EQ(RangeItemsPerKey(1.5).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace presence_internal
}  // namespace sstfilter
