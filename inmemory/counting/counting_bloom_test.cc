// The counting Bloom filter's contract: random add/remove sequences against a
// multiset model (no key still present ever answers "no"), against a reference
// model of the counters (Remove detects what it promises to), saturation
// forced on purpose, options and the statistics.

#include "inmemory/counting/counting_bloom.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/bloom/bloom_format.h"
#include "filter/filter_policy.h"
#include "filter/typed_key.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "inmemory/counting/counting_layout.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

using counting_internal::kCountersPerBlock;
using counting_internal::kSaturated;
using ::testing::HasSubstr;

CountingBloomFilter MakeFilter(const FilterOptions& options,
                               uint64_t expected_keys) {
  absl::StatusOr<CountingBloomFilter> filter =
      CountingBloomFilter::Create(options, expected_keys);
  EXPECT_TRUE(filter.ok()) << filter.status();
  return *std::move(filter);
}

std::string Key(uint64_t i) { return absl::StrCat("key-", i); }

// Random adds and removes on a universe of keys, removes only of keys the
// model holds: every key with a positive count must match, after every
// operation, and every such Remove must succeed. Filters from one block (where
// saturation is common) to many.
TEST(CountingBloomFilterTest, RandomSequencesNeverLoseAPresentKey) {
  const struct {
    uint64_t expected_keys;
    size_t universe;
    int ops;
  } kCases[] = {{1, 40, 20000}, {10, 200, 20000}, {1000, 2000, 50000}};
  uint64_t seed = 0xc0;
  for (const auto& c : kCases) {
    for (double fpp : {0.01, 0.2}) {
      ++seed;
      SCOPED_TRACE(testing::Message() << "expected_keys=" << c.expected_keys
                                      << " fpp=" << fpp << " seed=" << seed);
      CountingBloomFilter filter =
          MakeFilter(FilterOptions::Fpp(fpp), c.expected_keys);
      test::Random rng(seed);
      std::unordered_map<std::string, int> model;
      uint64_t total = 0;
      for (int op = 0; op < c.ops; ++op) {
        const std::string key = Key(rng.Uniform(c.universe));
        auto it = model.find(key);
        // Adds a little more often than removes, so the set grows past the
        // expected size and counters pile up.
        if (it == model.end() || rng.Uniform(100) < 55) {
          filter.Add(key);
          ++model[key];
          ++total;
        } else {
          ASSERT_TRUE(filter.Remove(key)) << key << " op " << op;
          if (--it->second == 0) model.erase(it);
          --total;
        }
        ASSERT_EQ(filter.NumKeys(), total);
        if (op % 97 == 0 || op + 1 == c.ops) {
          for (const auto& [present, count] : model) {
            ASSERT_TRUE(filter.MayContain(present))
                << present << " (count " << count << ") lost at op " << op;
          }
        }
      }
      // The heavier cases saturate counters on the way: the rule that keeps
      // present keys was exercised, not only the easy path.
      if (c.expected_keys == 1) {
        EXPECT_GT(filter.NumSaturated(), 0u);
      }
    }
  }
}

// The counters as the header documents them, kept independently of the
// filter: the reference for what Add, Remove and MayContain must do for any
// sequence, including removals of keys never added.
class ReferenceCounters {
 public:
  ReferenceCounters(uint64_t num_blocks, int k)
      : counters_(num_blocks), k_(k) {}

  std::vector<uint32_t> Probes(absl::string_view key, uint64_t* block) const {
    const uint64_t hash = bloom::KeyHash(key);
    *block = counting_internal::BlockIndex(hash, counters_.size());
    std::vector<uint32_t> probes;
    for (int i = 0; i < k_; ++i) {
      probes.push_back(
          counting_internal::ProbeCounter(bloom::ProbeHash(hash), i));
    }
    return probes;
  }

  void Add(absl::string_view key) {
    uint64_t block;
    for (uint32_t c : Probes(key, &block)) {
      if (counters_[block][c] < kSaturated) ++counters_[block][c];
    }
  }

  // Whether Remove must succeed: every unsaturated counter holds at least the
  // key's number of probes on it.
  bool Remove(absl::string_view key) {
    uint64_t block;
    const std::vector<uint32_t> probes = Probes(key, &block);
    std::array<int, kCountersPerBlock> after = counters_[block];
    for (uint32_t c : probes) {
      if (after[c] == kSaturated) continue;
      if (after[c] == 0) return false;
      --after[c];
    }
    counters_[block] = after;
    return true;
  }

  bool MayContain(absl::string_view key) const {
    uint64_t block;
    for (uint32_t c : Probes(key, &block)) {
      if (counters_[block][c] == 0) return false;
    }
    return true;
  }

  uint64_t NumSaturated() const {
    uint64_t n = 0;
    for (const auto& block : counters_) {
      for (int v : block) n += v == kSaturated ? 1 : 0;
    }
    return n;
  }

 private:
  std::vector<std::array<int, kCountersPerBlock>> counters_;
  int k_;
};

// Any sequence, removals of never-added keys included: the filter answers as
// the reference counters do. So Remove refuses exactly the keys whose
// counters could not have come from adding them, and changes nothing then.
TEST(CountingBloomFilterTest, MatchesReferenceCountersForAnySequence) {
  uint64_t seed = 0x5ef;
  for (uint64_t expected_keys : {1, 3, 20}) {
    for (double bits_per_key : {2.0, 10.0}) {
      ++seed;
      SCOPED_TRACE(testing::Message()
                   << "expected_keys=" << expected_keys
                   << " bits_per_key=" << bits_per_key << " seed=" << seed);
      CountingBloomFilter filter =
          MakeFilter(FilterOptions::BitsPerKey(bits_per_key), expected_keys);
      ReferenceCounters reference(filter.NumCounters() / kCountersPerBlock,
                                  filter.NumProbes());
      test::Random rng(seed);
      const size_t universe = 4 * expected_keys + 8;
      int refused = 0;
      int accepted = 0;
      for (int op = 0; op < 20000; ++op) {
        const std::string key = Key(rng.Uniform(universe));
        // Fewer adds than removal attempts, many of which are refused, keep
        // the filter from saturating entirely.
        if (rng.Uniform(100) < 40) {
          filter.Add(key);
          reference.Add(key);
        } else {
          const CountingBloomFilter before = filter;
          const bool expected = filter.NumKeys() > 0 && reference.Remove(key);
          ASSERT_EQ(filter.Remove(key), expected) << key << " op " << op;
          if (expected) {
            ++accepted;
          } else {
            ++refused;
            ASSERT_TRUE(filter == before) << "a refused Remove changed it";
          }
        }
        ASSERT_EQ(filter.NumSaturated(), reference.NumSaturated());
        if (op % 53 == 0) {
          for (size_t i = 0; i < universe; ++i) {
            ASSERT_EQ(filter.MayContain(Key(i)), reference.MayContain(Key(i)))
                << Key(i) << " op " << op;
          }
        }
      }
      // Both outcomes happened many times.
      std::printf("refused %d, accepted %d, saturated %llu of %llu\n", refused,
                  accepted,
                  static_cast<unsigned long long>(filter.NumSaturated()),
                  static_cast<unsigned long long>(filter.NumCounters()));
      EXPECT_GT(refused, 1000);
      EXPECT_GT(accepted, 1000);
    }
  }
}

// A key found with all counters nonzero but one it probes twice holding 1:
// adding it would have made that counter 2, so it was never added and Remove
// refuses it, though MayContain says yes.
TEST(CountingBloomFilterTest, RemoveRefusesAKeyWhoseCountersAreTooLow) {
  CountingBloomFilter filter = MakeFilter(FilterOptions::BitsPerKey(10), 1);
  ASSERT_EQ(filter.NumCounters(), static_cast<uint64_t>(kCountersPerBlock));
  ReferenceCounters layout(1, filter.NumProbes());
  // The first key with a repeated probe.
  std::string twice;
  uint32_t repeated = 0;
  for (uint64_t i = 0; twice.empty(); ++i) {
    uint64_t block;
    const std::vector<uint32_t> probes = layout.Probes(Key(i), &block);
    for (size_t a = 0; a < probes.size() && twice.empty(); ++a) {
      for (size_t b = a + 1; b < probes.size(); ++b) {
        if (probes[a] == probes[b]) {
          twice = Key(i);
          repeated = probes[a];
          break;
        }
      }
    }
  }
  // Other keys that cover each of its counters, the repeated one exactly once.
  uint64_t block;
  std::vector<uint32_t> needed = layout.Probes(twice, &block);
  std::vector<int> hits(kCountersPerBlock, 0);
  for (uint64_t i = 1000000;; ++i) {
    const std::string other = Key(i);
    if (other == twice) continue;
    const std::vector<uint32_t> probes = layout.Probes(other, &block);
    int on_repeated = 0;
    bool useful = false;
    for (uint32_t c : probes) {
      on_repeated += c == repeated ? 1 : 0;
      for (uint32_t n : needed) useful |= c == n && hits[c] == 0;
    }
    if (!useful || on_repeated + hits[repeated] > 1) continue;
    filter.Add(other);
    for (uint32_t c : probes) ++hits[c];
    bool covered = true;
    for (uint32_t n : needed) covered &= hits[n] > 0;
    if (covered) break;
  }
  ASSERT_EQ(hits[repeated], 1);
  ASSERT_TRUE(filter.MayContain(twice));
  const CountingBloomFilter before = filter;
  EXPECT_FALSE(filter.Remove(twice));
  EXPECT_TRUE(filter == before);
  // Added once, it leaves as it came.
  filter.Add(twice);
  EXPECT_TRUE(filter.Remove(twice));
  EXPECT_TRUE(filter == before);
}

TEST(CountingBloomFilterTest, RemoveRefusesKeysItCanTellAreAbsent) {
  CountingBloomFilter filter = MakeFilter(FilterOptions::Fpp(0.01), 10000);
  EXPECT_FALSE(filter.Remove("anything"));  // empty filter
  for (uint64_t i = 0; i < 10000; ++i) filter.Add(Key(i));
  int refused = 0;
  int false_positives = 0;
  for (uint64_t i = 10000; i < 30000; ++i) {
    if (filter.MayContain(Key(i))) {
      ++false_positives;  // Remove could not tell; do not try
      continue;
    }
    const CountingBloomFilter before = filter;
    ASSERT_FALSE(filter.Remove(Key(i))) << Key(i);
    ASSERT_TRUE(filter == before);
    ++refused;
  }
  EXPECT_GT(refused, 19000);
  EXPECT_LT(false_positives, 400);  // about 1% of 20,000
  for (uint64_t i = 0; i < 10000; ++i) ASSERT_TRUE(filter.MayContain(Key(i)));
}

// One key added 20 times saturates each of its counters; removing it 20 times
// then leaves them at 15, and no other key is lost.
TEST(CountingBloomFilterTest, OneKeyAddedPastSaturation) {
  CountingBloomFilter filter = MakeFilter(FilterOptions::Fpp(0.01), 1000);
  for (uint64_t i = 0; i < 1000; ++i) filter.Add(Key(i));
  ASSERT_EQ(filter.NumSaturated(), 0u);
  const std::string hot = "hot key";
  for (int i = 0; i < 20; ++i) filter.Add(hot);
  // Each of its distinct counters (k of them, fewer if probes repeat).
  EXPECT_GE(filter.NumSaturated(), 1u);
  EXPECT_LE(filter.NumSaturated(), static_cast<uint64_t>(filter.NumProbes()));
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(filter.Remove(hot)) << i;
  EXPECT_TRUE(filter.MayContain(hot));  // saturated counters stay
  for (uint64_t i = 0; i < 1000; ++i) ASSERT_TRUE(filter.MayContain(Key(i)));
  // The others leave normally, each taking its own counters back to zero
  // except where the hot key's saturated ones sit.
  for (uint64_t i = 0; i < 1000; ++i) ASSERT_TRUE(filter.Remove(Key(i)));
  EXPECT_EQ(filter.NumKeys(), 0u);
  EXPECT_FALSE(filter.Remove(hot));  // the filter counts no key
}

// Many keys in one block: most of its 128 counters saturate. Removing keys in
// a random order, each occurrence once, never loses one still present.
TEST(CountingBloomFilterTest, KeysCollidingInOneBlock) {
  CountingBloomFilter filter = MakeFilter(FilterOptions::Fpp(0.01), 100000);
  const uint64_t num_blocks = filter.NumCounters() / kCountersPerBlock;
  ASSERT_GT(num_blocks, 1000u);
  ReferenceCounters layout(num_blocks, filter.NumProbes());
  std::vector<std::string> same_block;
  for (uint64_t i = 0; same_block.size() < 150; ++i) {
    uint64_t block;
    layout.Probes(Key(i), &block);
    if (block == 7) same_block.push_back(Key(i));
  }
  test::Random rng(0xb10c);
  std::unordered_map<std::string, int> model;
  std::vector<std::string> occurrences;
  for (const std::string& key : same_block) {
    const int times = 1 + static_cast<int>(rng.Uniform(3));
    for (int t = 0; t < times; ++t) {
      filter.Add(key);
      occurrences.push_back(key);
    }
    model[key] += times;
  }
  // About 1,800 increments on 128 counters, 14 a counter: about half of them
  // reach 15.
  EXPECT_GT(filter.NumSaturated(), 40u);
  while (!occurrences.empty()) {
    const size_t pick = rng.Uniform(occurrences.size());
    const std::string key = occurrences[pick];
    occurrences[pick] = occurrences.back();
    occurrences.pop_back();
    ASSERT_TRUE(filter.Remove(key)) << key;
    if (--model[key] == 0) model.erase(key);
    for (const auto& [present, count] : model) {
      ASSERT_TRUE(filter.MayContain(present)) << present;
    }
  }
  EXPECT_EQ(filter.NumKeys(), 0u);
}

// At design load nothing saturates, so removing every key returns every
// counter to zero: nothing matches any more, added keys included.
TEST(CountingBloomFilterTest, RemovingEveryKeyEmptiesTheFilter) {
  CountingBloomFilter filter = MakeFilter(FilterOptions::Fpp(0.03), 100000);
  const CountingBloomFilter empty = filter;
  for (uint64_t i = 0; i < 100000; ++i) {
    filter.Add(Key(i));
    if (i % 10 == 0) filter.Add(Key(i));  // some twice
  }
  ASSERT_EQ(filter.NumSaturated(), 0u);
  for (uint64_t i = 0; i < 100000; ++i) {
    ASSERT_TRUE(filter.Remove(Key(i)));
    if (i % 10 == 0) {
      ASSERT_TRUE(filter.Remove(Key(i)));
    }
  }
  EXPECT_TRUE(filter == empty);
  for (uint64_t i = 0; i < 200000; ++i) ASSERT_FALSE(filter.MayContain(Key(i)));
}

TEST(CountingBloomFilterTest, BatchedQueriesAgreeWithSingleOnes) {
  CountingBloomFilter filter = MakeFilter(FilterOptions::Fpp(0.2), 5000);
  for (uint64_t i = 0; i < 5000; ++i) filter.Add(Key(i));
  std::vector<std::string> keys;
  for (uint64_t i = 0; i < 10001; ++i) keys.push_back(Key(i * 3));
  const std::vector<absl::string_view> views(keys.begin(), keys.end());
  std::unique_ptr<bool[]> results(new bool[views.size()]);
  filter.MayContain(absl::MakeConstSpan(views), results.get());
  int matches = 0;
  for (size_t i = 0; i < views.size(); ++i) {
    ASSERT_EQ(results[i], filter.MayContain(views[i])) << i;
    matches += results[i];
  }
  EXPECT_GT(matches, 1667);  // the present third, plus false positives
  EXPECT_LT(matches, 10001);
  filter.MayContain(absl::Span<const absl::string_view>(), nullptr);
}

TEST(CountingBloomFilterTest, CopiesAreSnapshotsAndClearEmpties) {
  CountingBloomFilter filter = MakeFilter(FilterOptions::Fpp(0.01), 100);
  filter.Add("a");
  const CountingBloomFilter snapshot = filter;
  filter.Add("b");
  EXPECT_TRUE(filter != snapshot);
  EXPECT_EQ(snapshot.NumKeys(), 1u);
  EXPECT_TRUE(snapshot.MayContain("a"));
  ASSERT_TRUE(filter.Remove("b"));
  EXPECT_TRUE(filter == snapshot);
  filter.Clear();
  EXPECT_EQ(filter.NumKeys(), 0u);
  EXPECT_FALSE(filter.MayContain("a"));
  EXPECT_EQ(filter.NumCounters(), snapshot.NumCounters());
}

TEST(CountingBloomFilterTest, SizeAndMemory) {
  CountingBloomFilter filter = MakeFilter(FilterOptions::Fpp(0.01), 1000000);
  EXPECT_EQ(filter.ExpectedKeys(), 1000000u);
  EXPECT_EQ(filter.NumProbes(), 6);
  // 10.85 counters/key, 4 bits each, whole 64-byte blocks.
  EXPECT_EQ(filter.NumCounters() % kCountersPerBlock, 0u);
  EXPECT_EQ(filter.MemoryBytes(), filter.NumCounters() / 2);
  EXPECT_NEAR(filter.BitsPerKey(), 4 * 10.85, 0.02);
  EXPECT_EQ(filter.ExpectedFpp(), 0.0);
  for (uint64_t i = 0; i < 1000000; ++i) filter.Add(Key(i));
  EXPECT_NEAR(filter.ExpectedFpp(), 0.01, 0.0001);

  // BitsPerKey(c) asks for c counters per key.
  CountingBloomFilter ten = MakeFilter(FilterOptions::BitsPerKey(10), 12800);
  EXPECT_EQ(ten.NumCounters(), 128000u);
  EXPECT_EQ(ten.BitsPerKey(), 40.0);

  // Zero expected keys is one key: one block.
  CountingBloomFilter none = MakeFilter(FilterOptions::Fpp(0.01), 0);
  EXPECT_EQ(none.ExpectedKeys(), 1u);
  EXPECT_EQ(none.MemoryBytes(), 64u);
  none.Add("x");
  EXPECT_TRUE(none.MayContain("x"));
  EXPECT_GT(none.ExpectedFpp(), 0.0);
  EXPECT_LT(none.ExpectedFpp(), 1e-4);  // one key in 128 counters
}

TEST(CountingBloomFilterTest, InvalidOptionsNameTheValue) {
  const uint64_t kHuge = std::numeric_limits<uint64_t>::max();
  const struct {
    FilterOptions options;
    uint64_t expected_keys;
    const char* named;
  } kCases[] = {
      {FilterOptions::Fpp(1.5), 10, "1.5"},
      {FilterOptions::Fpp(0), 10, "got 0"},
      {FilterOptions::Fpp(1e-9), 10, "1e-09"},
      {FilterOptions::BitsPerKey(0.25), 10, "0.25"},
      {FilterOptions::BitsPerKey(1e6), 10, "1e+06"},
      {FilterOptions(), 10, "exactly one"},
      {FilterOptions::Fpp(0.01), kHuge, "18446744073709551615"},
      // Just past kMaxBytes at 100 counters/key: 2^40 bytes hold 2^41
      // counters.
      {FilterOptions::BitsPerKey(100), (uint64_t{1} << 41) / 100 + 1,
       "21990232556"},
  };
  for (const auto& c : kCases) {
    absl::StatusOr<CountingBloomFilter> filter =
        CountingBloomFilter::Create(c.options, c.expected_keys);
    ASSERT_FALSE(filter.ok()) << c.named;
    EXPECT_TRUE(absl::IsInvalidArgument(filter.status()));
    EXPECT_THAT(std::string(filter.status().message()), HasSubstr(c.named));
  }
}

// Keys encoded from typed values when added are removed by the same values
// held in other types (filter/typed_key.h): the encoding, not the C++ type,
// is the key.
TEST(CountingBloomFilterTest, TypedKeysRemoveWhatWasAdded) {
  absl::StatusOr<CountingBloomFilter> counting =
      CountingBloomFilter::Create(FilterOptions::Fpp(0.01), 1000);
  ASSERT_TRUE(counting.ok());
  for (uint64_t id = 0; id < 1000; ++id) {
    counting->Add(
        EncodeKey(id, absl::StrCat("user", id), static_cast<int32_t>(-id)));
  }
  for (uint64_t id = 0; id < 1000; ++id) {
    const std::string name = absl::StrCat("user", id);
    const std::string key =
        EncodeKey(std::make_tuple(id, name.c_str(), static_cast<int32_t>(-id)));
    ASSERT_TRUE(counting->MayContain(key)) << id;
    ASSERT_TRUE(counting->Remove(key)) << id;
  }
  EXPECT_EQ(counting->NumKeys(), 0u);
}

}  // namespace
}  // namespace sstfilter
