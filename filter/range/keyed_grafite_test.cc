// The keyed range filter (grafite:codes=table): no false negative for any
// range or key of keys of the shapes stores use, the measured rate of empty
// ranges at the keys' last position within the proven bound where the plain
// format matches nearly all of them, damaged bytes read safely, and golden
// vectors that pin the format.

#include "filter/range/keyed_grafite.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_format.h"
#include "filter/internal/checked_filter.h"
#include "filter/range/grafite_sizing.h"
#include "filter/range/range_filter.h"
#include "gtest/gtest.h"
#include "util/coding.h"
#include "util/hash.h"
#include "util/testing/golden.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

constexpr bool kRegenerate = false;

std::string Build(const std::vector<std::string>& keys, double bits,
                  RangeKeyCoding codes, bool checksum = true) {
  FilterOptions options = FilterOptions::BitsPerKey(bits);
  options.self_checksum = checksum;
  std::unique_ptr<FilterBuilder> builder =
      (*NewGrafiteFilterPolicy(options, codes))->NewBuilder();
  for (const std::string& key : keys) builder->AddKey(key);
  std::string filter;
  builder->Finish(&filter);
  return filter;
}

// A key shape: the key of number i, numbers spaced so that each key's
// neighbourhood at its last position holds empty ranges.
struct Shape {
  const char* name;
  std::string (*key)(uint64_t number);
  uint64_t max_number;  // numbers are drawn below it
};

std::string Ycsb(uint64_t number) {
  return absl::StrFormat("user%019u", static_cast<unsigned long long>(number));
}
std::string Tenant(uint64_t number) {
  return absl::StrFormat("tenant000042/%016u",
                         static_cast<unsigned long long>(number));
}
std::string Timestamped(uint64_t number) {
  // Milliseconds of one day, under a shared date.
  return absl::StrFormat("event/2026-11-28T%02u:%02u:%02u.%03u",
                         static_cast<unsigned>(number / 3'600'000 % 24),
                         static_cast<unsigned>(number / 60'000 % 60),
                         static_cast<unsigned>(number / 1000 % 60),
                         static_cast<unsigned>(number % 1000));
}

// 24 to 40 bytes: a tenant, one of 40 collections named by 2 to 18 letters
// (letters sort after '/', so the keys keep the numbers' order), an 8-digit id.
constexpr uint64_t kIdsPerCollection = 100'000'000;
std::string Collection(uint64_t number) {
  static const std::vector<std::string>* const names = [] {
    auto* sorted = new std::vector<std::string>;
    test::Random rng(40);
    while (sorted->size() < 40) {
      std::string name(2 + rng.Uniform(17), 'a');
      for (char& c : name) c = static_cast<char>('a' + rng.Uniform(26));
      if (std::find(sorted->begin(), sorted->end(), name) == sorted->end()) {
        sorted->push_back(name);
      }
    }
    std::sort(sorted->begin(), sorted->end());
    return sorted;
  }();
  return absl::StrFormat("tenant000042/%s/%08u",
                         (*names)[number / kIdsPerCollection],
                         static_cast<unsigned>(number % kIdsPerCollection));
}

const Shape kShapes[] = {
    {"ycsb", &Ycsb, 10'000'000'000'000'000'000ull},
    {"tenant", &Tenant, 10'000'000'000'000'000ull},
    {"timestamped", &Timestamped, 86'400'000},
    {"collections", &Collection, 40 * kIdsPerCollection},
};

std::vector<uint64_t> Numbers(test::Random* rng, const Shape& shape, size_t n) {
  std::vector<uint64_t> numbers;
  for (size_t i = 0; i < n; ++i) {
    numbers.push_back(rng->Uniform(shape.max_number));
  }
  std::sort(numbers.begin(), numbers.end());
  numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
  return numbers;
}

bool AnyIn(const std::vector<uint64_t>& sorted, uint64_t lo, uint64_t hi) {
  auto it = std::lower_bound(sorted.begin(), sorted.end(), lo);
  return it != sorted.end() && *it <= hi;
}

TEST(KeyedGrafiteTest, EveryRangeHoldingAKeyMatches) {
  test::Random rng(1);
  for (const Shape& shape : kShapes) {
    for (const bool checksum : {true, false}) {
      const std::vector<uint64_t> numbers = Numbers(&rng, shape, 3000);
      std::vector<std::string> keys;
      for (uint64_t number : numbers) keys.push_back(shape.key(number));
      const std::string filter =
          Build(keys, 12, RangeKeyCoding::kPerTable, checksum);
      const std::unique_ptr<RangeFilterReader> reader =
          NewRangeFilterReader(filter);
      for (const std::string& key : keys) {
        ASSERT_TRUE(reader->MayMatch(key)) << shape.name << " " << key;
        ASSERT_TRUE(reader->RangeMayMatch(key, key)) << shape.name;
        ASSERT_TRUE(reader->RangeMayMatchBefore(key, key + '\0')) << shape.name;
      }
      for (int i = 0; i < 20000; ++i) {
        const size_t at = rng.Uniform(numbers.size());
        const uint64_t lo =
            numbers[at] - std::min(numbers[at], rng.Uniform(64));
        const uint64_t hi = numbers[at] + rng.Uniform(64);
        if (hi >= shape.max_number) continue;
        ASSERT_TRUE(reader->RangeMayMatch(shape.key(lo), shape.key(hi)))
            << shape.name << " " << shape.key(lo) << " " << shape.key(hi);
        ASSERT_TRUE(
            reader->RangeMayMatchBefore(shape.key(lo), shape.key(hi + 1)))
            << shape.name;
      }
      // Ranges between two keys, whatever lies between.
      for (int i = 0; i < 2000; ++i) {
        const size_t a = rng.Uniform(keys.size()), b = rng.Uniform(keys.size());
        ASSERT_TRUE(
            reader->RangeMayMatch(keys[std::min(a, b)], keys[std::max(a, b)]))
            << shape.name;
      }
    }
  }
}

// Empty ranges of w numbers at the keys' last position: correlated (starting
// just after a key) and uncorrelated. The proven bound is w * n / r; the
// plain format, seeing only 8 bytes, matches nearly every one.
TEST(KeyedGrafiteTest, EmptyRangesAtTheLastPositionMatchWithinTheBound) {
  test::Random rng(2);
  constexpr size_t kKeys = 20000;
  constexpr int kQueries = 20000;
  for (const Shape& shape : kShapes) {
    const std::vector<uint64_t> numbers = Numbers(&rng, shape, kKeys);
    std::vector<std::string> keys;
    for (uint64_t number : numbers) keys.push_back(shape.key(number));
    const std::string keyed_filter = Build(keys, 16, RangeKeyCoding::kPerTable);
    const std::string plain_filter =
        Build(keys, 16, RangeKeyCoding::kFirst8Bytes);
    const std::unique_ptr<RangeFilterReader> keyed =
        NewRangeFilterReader(keyed_filter);
    const std::unique_ptr<RangeFilterReader> plain =
        NewRangeFilterReader(plain_filter);
    for (const uint64_t width : {uint64_t{2}, uint64_t{16}, uint64_t{64}}) {
      for (const bool correlated : {true, false}) {
        int keyed_matches = 0, plain_matches = 0, asked = 0;
        for (int i = 0; i < kQueries; ++i) {
          const uint64_t lo = correlated
                                  ? numbers[rng.Uniform(numbers.size())] + 1
                                  : rng.Uniform(shape.max_number - width);
          const uint64_t hi = lo + width - 1;
          if (hi >= shape.max_number || AnyIn(numbers, lo, hi)) continue;
          ++asked;
          keyed_matches += keyed->RangeMayMatch(shape.key(lo), shape.key(hi));
          plain_matches += plain->RangeMayMatch(shape.key(lo), shape.key(hi));
        }
        ASSERT_GT(asked, kQueries / 2);
        // The bound is on the expected count: allow for its spread.
        const double bound = keyed->RangeFppBound(width) * asked;
        EXPECT_LE(keyed_matches, bound + 5 * std::sqrt(bound) + 3)
            << shape.name << " width " << width
            << (correlated ? " correlated" : " uncorrelated");
        if (correlated) {
          EXPECT_GT(static_cast<double>(plain_matches) / asked, 0.9)
              << shape.name << ": the plain format's codes tell these apart";
        }
      }
    }
  }
}

// Random 16-byte keys: 128-bit codes tell a key from a range starting at its
// last byte's next value, which the plain format's 8 bytes cannot.
TEST(KeyedGrafiteTest, RandomSixteenByteKeysAtTheirLastByte) {
  using Number = unsigned __int128;
  test::Random rng(5);
  const auto key = [](Number number) {
    std::string k;
    for (int byte = 15; byte >= 0; --byte) {
      k.push_back(static_cast<char>(number >> (8 * byte)));
    }
    return k;
  };
  std::vector<Number> numbers;
  for (int i = 0; i < 20000; ++i) {
    numbers.push_back((Number{rng.Next64()} << 64) | rng.Next64());
  }
  std::sort(numbers.begin(), numbers.end());
  std::vector<std::string> keys;
  for (Number number : numbers) keys.push_back(key(number));
  const std::string keyed_filter = Build(keys, 16, RangeKeyCoding::kPerTable);
  const std::string plain_filter =
      Build(keys, 16, RangeKeyCoding::kFirst8Bytes);
  const std::unique_ptr<RangeFilterReader> keyed =
      NewRangeFilterReader(keyed_filter);
  const std::unique_ptr<RangeFilterReader> plain =
      NewRangeFilterReader(plain_filter);
  for (const std::string& k : keys) ASSERT_TRUE(keyed->MayMatch(k));
  for (const uint64_t width : {uint64_t{2}, uint64_t{64}}) {
    int keyed_matches = 0, plain_matches = 0, asked = 0;
    for (int i = 0; i < 20000; ++i) {
      const Number lo = numbers[rng.Uniform(numbers.size())] + 1;
      const Number hi = lo + width - 1;
      auto it = std::lower_bound(numbers.begin(), numbers.end(), lo);
      if (hi < lo || (it != numbers.end() && *it <= hi)) continue;
      ++asked;
      keyed_matches += keyed->RangeMayMatch(key(lo), key(hi));
      plain_matches += plain->RangeMayMatch(key(lo), key(hi));
    }
    const double bound = keyed->RangeFppBound(width) * asked;
    EXPECT_LE(keyed_matches, bound + 5 * std::sqrt(bound) + 3) << width;
    EXPECT_GT(plain_matches, asked * 9 / 10) << width;
  }
}

// Keys of one table differ in their first byte past a long common prefix, or
// only in their last: either way each is told apart.
TEST(KeyedGrafiteTest, KeysDifferingOnlyPastByte20FilterAsRandomKeysDo) {
  test::Random rng(3);
  const std::string prefix = "a-very-long-prefix/0123456789/";
  std::vector<uint64_t> numbers;
  for (int i = 0; i < 5000; ++i) numbers.push_back(rng.Next64() >> 8);
  std::sort(numbers.begin(), numbers.end());
  numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
  std::vector<std::string> keys;
  const auto key = [&](uint64_t number) {
    std::string k = prefix;
    for (int byte = 6; byte >= 0; --byte)
      k.push_back(char(number >> (8 * byte)));
    return k;
  };
  for (uint64_t number : numbers) keys.push_back(key(number));
  const std::string filter = Build(keys, 16, RangeKeyCoding::kPerTable);
  const std::unique_ptr<RangeFilterReader> reader =
      NewRangeFilterReader(filter);
  int matches = 0, asked = 0;
  for (int i = 0; i < 20000; ++i) {
    const uint64_t lo = numbers[rng.Uniform(numbers.size())] + 1;
    if (AnyIn(numbers, lo, lo + 15)) continue;
    ++asked;
    matches += reader->RangeMayMatch(key(lo), key(lo + 15));
  }
  const double bound = reader->RangeFppBound(16) * asked;
  EXPECT_LE(matches, bound + 5 * std::sqrt(bound) + 3);
}

// 64-byte keys behind a 40-byte prefix: 24 random bytes, codes of 192 bits.
TEST(KeyedGrafiteTest, SixtyFourByteKeysAtTheirLastByte) {
  test::Random rng(6);
  const std::string prefix(40, 'p');
  std::set<std::string> keys;
  while (keys.size() < 5000) {
    std::string key = prefix;
    for (int i = 0; i < 24; ++i) key.push_back(static_cast<char>(rng.Next64()));
    keys.insert(key);
  }
  const std::string filter =
      Build({keys.begin(), keys.end()}, 16, RangeKeyCoding::kPerTable);
  const std::unique_ptr<RangeFilterReader> reader =
      NewRangeFilterReader(filter);
  for (const std::string& key : keys) ASSERT_TRUE(reader->MayMatch(key));
  int matches = 0, asked = 0;
  for (int i = 0; i < 20000; ++i) {
    auto at = keys.begin();
    std::advance(at, rng.Uniform(keys.size()));
    std::string lo = *at, hi = *at;
    const uint8_t last = static_cast<uint8_t>(lo.back());
    if (last > 255 - 16) continue;
    lo.back() = static_cast<char>(last + 1);
    hi.back() = static_cast<char>(last + 16);
    auto next = keys.lower_bound(lo);
    if (next != keys.end() && *next <= hi) continue;
    ++asked;
    matches += reader->RangeMayMatch(lo, hi);
  }
  ASSERT_GT(asked, 10000);
  const double bound = reader->RangeFppBound(16) * asked;
  EXPECT_LE(matches, bound + 5 * std::sqrt(bound) + 3);
}

// Numbers without leading zeros: keys of 2 to 7 bytes whose lengths
// interleave in order ("n1" < "n10" < "n100" < "n11"), so a short range asks
// several lengths' coders.
TEST(KeyedGrafiteTest, InterleavedLengthsKeepEveryKey) {
  test::Random rng(9);
  std::set<std::string> unique;
  while (unique.size() < 3000) {
    unique.insert("n" + std::to_string(rng.Uniform(1'000'000)));
  }
  const std::vector<std::string> keys(unique.begin(), unique.end());
  const std::string filter = Build(keys, 12, RangeKeyCoding::kPerTable, false);
  const std::unique_ptr<RangeFilterReader> reader =
      NewRangeFilterReader(filter);
  for (size_t i = 0; i < keys.size(); ++i) {
    ASSERT_TRUE(reader->MayMatch(keys[i])) << keys[i];
    const size_t j = std::min(keys.size() - 1, i + rng.Uniform(3));
    ASSERT_TRUE(reader->RangeMayMatch(keys[i], keys[j])) << keys[i];
    if (i > 0) {
      ASSERT_TRUE(reader->RangeMayMatch(keys[i - 1] + '\0', keys[i]))
          << keys[i];
    }
  }
}

// Keys of more lengths than the per-length layout codes apart share one
// coder in it, and still never lose a key.
TEST(KeyedGrafiteTest, ManyLengthsShareOneCoder) {
  test::Random rng(8);
  std::set<std::string> keys;
  for (int i = 0; i < 3000; ++i) {
    std::string key(1 + rng.Uniform(100), '\0');
    for (char& c : key) c = static_cast<char>('a' + rng.Uniform(4));
    keys.insert(key);
  }
  const std::string filter =
      Build({keys.begin(), keys.end()}, 12, RangeKeyCoding::kPerTable, false);
  ASSERT_TRUE(grafite_internal::IsLengthKeyedGrafite(filter));
  const std::unique_ptr<RangeFilterReader> reader =
      NewRangeFilterReader(filter);
  for (const std::string& key : keys) {
    ASSERT_TRUE(reader->MayMatch(key)) << key;
    ASSERT_TRUE(reader->RangeMayMatch(key.substr(0, key.size() / 2), key));
    ASSERT_TRUE(reader->RangeMayMatchBefore(key, key + '\0'));
  }
}

TEST(KeyedGrafiteTest, ReadsAnyBytesSafely) {
  std::vector<std::string> keys;
  for (int i = 0; i < 500; ++i) keys.push_back(Ycsb(1000003ull * i));
  const std::string filter = Build(keys, 12, RangeKeyCoding::kPerTable, false);
  ASSERT_TRUE(grafite_internal::IsKeyedGrafite(filter));
  test::Random rng(4);
  for (int i = 0; i < 3000; ++i) {
    std::string damaged = filter;
    if (rng.OneIn(3)) {
      damaged.resize(rng.Uniform(filter.size() + 1));
    } else {
      const size_t at = rng.Uniform(damaged.size());
      damaged[at] = static_cast<char>(damaged[at] ^ (1 << rng.Uniform(8)));
    }
    const std::unique_ptr<RangeFilterReader> reader =
        NewRangeFilterReader(damaged);
    for (int q = 0; q < 10; ++q) {
      const std::string lo = Ycsb(rng.Uniform(600'000'000));
      reader->RangeMayMatch(lo, lo + "9");
      reader->MayMatch(lo);
    }
  }
  // Damage below a version-2 trailer is caught by its CRC.
  std::string checked = Build(keys, 12, RangeKeyCoding::kPerTable, true);
  checked[3] ^= 1;
  const std::unique_ptr<RangeFilterReader> reader =
      NewRangeFilterReader(checked);
  EXPECT_TRUE(absl::IsDataLoss(reader->Corruption()));
  EXPECT_TRUE(reader->RangeMayMatch(Ycsb(1), Ycsb(2)));
}

TEST(KeyedGrafiteTest, Golden) {
  test::CheckGolden(
      kRegenerate, "{user1, user2, user30} v1",
      absl::BytesToHexString(Build({"user1", "user2", "user30"}, 16,
                                   RangeKeyCoding::kPerTable, false)),
      std::string("020c0475736572020002313201000a0675736572333001010"
                  "0f5dffedf7f0000000e0000000000000000000000abaa000000"
                  "000000030000000000000003000000000000000100ed5e7ef1a"
                  "709a70d19000000aa"));
  std::vector<std::string> keys;
  for (int i = 0; i < 10000; ++i)
    keys.push_back(Collection(7919ull * i * i % (40 * kIdsPerCollection)));
  const std::string large = Build(keys, 16, RangeKeyCoding::kPerTable, true);
  test::CheckGolden(kRegenerate, "10^4 collection keys v2: size", large.size(),
                    size_t{22399});
  test::CheckGolden(kRegenerate, "10^4 collection keys v2: hash", Hash64(large),
                    uint64_t{10835477876147915034ull});
}

TEST(KeyedGrafiteTest, EmptyFilterMatchesNothing) {
  const std::string filter = Build({}, 16, RangeKeyCoding::kPerTable);
  const std::unique_ptr<RangeFilterReader> reader =
      NewRangeFilterReader(filter);
  EXPECT_FALSE(reader->MayMatch("a"));
  EXPECT_FALSE(reader->RangeMayMatch("", "\xff\xff"));
}

// The one-coder layout (sstfilter.KeyedGrafite1/2), which policies no longer
// write but readers read: its builder keeps writing the bytes it wrote.
std::string BuildOneCoder(const std::vector<std::string>& keys, double bits,
                          bool checksum) {
  std::unique_ptr<FilterBuilder> builder =
      grafite_internal::NewKeyedGrafiteBuilder(
          grafite_internal::SizingForBudget(bits),
          grafite_internal::KeyedLayout::kOneCoder);
  for (const std::string& key : keys) builder->AddKey(key);
  std::string filter;
  builder->Finish(&filter);
  if (checksum) filter_internal::AppendCheckedTrailer(0, &filter);
  return filter;
}

TEST(KeyedGrafiteTest, OneCoderLayoutGolden) {
  test::CheckGolden(
      kRegenerate, "{user1, user2, user30} v1",
      absl::BytesToHexString(
          BuildOneCoder({"user1", "user2", "user30"}, 16, false)),
      std::string(
          "04757365720300033132330101300100f5fffeeb7f0000000e0000000000"
          "000000000000abaa0000000000000300000000000000030000000000000001"
          "00ed5e7ef1a709a70d10000000a9"));
  std::vector<std::string> keys;
  for (int i = 0; i < 10000; ++i) keys.push_back(Ycsb(7919ull * i * i));
  const std::string large = BuildOneCoder(keys, 16, true);
  test::CheckGolden(kRegenerate, "10^4 YCSB keys v2: size", large.size(),
                    size_t{20214});
  test::CheckGolden(kRegenerate, "10^4 YCSB keys v2: hash", Hash64(large),
                    uint64_t{3109165368450753907ull});
  // 16 bytes that vary: codes past 2^64, whose blocks the hash folds.
  std::vector<std::string> wide;
  for (int i = 0; i < 1000; ++i) {
    std::string k(16, '\0');
    EncodeFixed64(&k[0], Hash64(std::to_string(i)));
    EncodeFixed64(&k[8], Hash64(std::to_string(-i)));
    wide.push_back(k);
  }
  const std::string wide_filter = BuildOneCoder(wide, 16, false);
  test::CheckGolden(kRegenerate, "10^3 16-byte keys v1: size",
                    wide_filter.size(), size_t{2615});
  test::CheckGolden(kRegenerate, "10^3 16-byte keys v1: hash",
                    Hash64(wide_filter), uint64_t{14264154260676763250ull});
}

}  // namespace
}  // namespace sstfilter
