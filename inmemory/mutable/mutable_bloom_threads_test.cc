// MutableBloomFilter shared by threads: four add disjoint keys while two query
// (single and batched), read statistics, freeze it and save it; every key whose
// Add has returned must match on the other threads, and each Add's return value
// must be what some order of the adds explains. Tagged "tsan": CI also runs it
// under `bazel test --config=tsan`.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "filter/bloom/bloom.h"
#include "filter/bloom/bloom_format.h"
#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"
#include "inmemory/mutable/mutable_bloom.h"
#include "inmemory/mutable/mutable_test_util.h"

namespace sstfilter {
namespace {

using ::sstfilter::mutable_test::Make;
using ::sstfilter::test::Key16;

constexpr int kWriters = 4;
constexpr int kReaders = 2;
constexpr uint64_t kKeysPerWriter = 20000;

// A key's bits, computed from bloom_format.h's definitions (not the filter's
// code): its block, and the block's 512 bits as 8 words.
struct KeyBits {
  uint64_t block;
  uint64_t words[8];
};

KeyBits BitsOf(absl::string_view key, const MutableBloomFilter& filter) {
  const uint64_t hash = bloom::KeyHash(key);
  KeyBits bits = {};
  bits.block =
      bloom::BlockIndex(hash, filter.NumBits(), filter.NumBits() / 512);
  for (int i = 0; i < filter.NumProbes(); ++i) {
    const uint32_t bit =
        bloom::ProbeBit(bloom::ProbeHash(hash) * bloom::kProbeMultipliers[i],
                        bloom::kBlockBits);
    bits.words[bit / 64] |= uint64_t{1} << (bit % 64);
  }
  return bits;
}

// Whether the bits of `key` are all among the bits of `others` in its block.
bool Covered(const KeyBits& key, const std::vector<const KeyBits*>& others) {
  uint64_t union_words[8] = {};
  for (const KeyBits* other : others) {
    if (other->block != key.block) continue;
    for (int w = 0; w < 8; ++w) union_words[w] |= other->words[w];
  }
  for (int w = 0; w < 8; ++w) {
    if ((union_words[w] & key.words[w]) != key.words[w]) return false;
  }
  return true;
}

// Whole-filter reads during the adds: a snapshot frozen now, and a filter
// saved and restored now, hold every key published before it began. Counts,
// per reader, the sampled published keys either does not match (a saved
// filter that does not restore misses them all).
class FrozenSnapshots {
 public:
  explicit FrozenSnapshots(int readers)
      : policy_(std::move(*NewBloomFilterPolicy(FilterOptions::Fpp(0.01)))),
        misses_(readers, 0) {}

  void Check(int reader, const MutableBloomFilter& filter,
             const std::vector<std::vector<std::string>>& keys,
             const std::vector<uint64_t>& published) {
    const std::string frozen = filter.Freeze();
    std::unique_ptr<FilterReader> snapshot = policy_->NewReader(frozen);
    const absl::StatusOr<MutableBloomFilter> restored =
        MutableBloomFilter::Restore(filter.Save());
    for (size_t t = 0; t < keys.size(); ++t) {
      for (uint64_t i = 0; i < published[t]; i += 97) {
        misses_[reader] += !snapshot->MayMatch(keys[t][i]);
        misses_[reader] += !restored.ok() || !restored->MayContain(keys[t][i]);
      }
    }
  }

  // Every reader ran, and neither the live filter nor a snapshot missed a
  // published key.
  void ExpectNoMisses(const mutable_test::QueryWhileAddingResult& seen) const {
    for (size_t r = 0; r < misses_.size(); ++r) {
      EXPECT_EQ(seen.misses[r], 0u) << "reader " << r;
      EXPECT_EQ(misses_[r], 0u) << "reader " << r;
      EXPECT_GT(seen.checks[r], 0u) << "reader " << r << " never ran";
    }
  }

 private:
  std::unique_ptr<const FilterPolicy> policy_;
  std::vector<uint64_t> misses_;
};

TEST(MutableBloomThreadsTest, FourWritersTwoReaders) {
  MutableBloomFilter filter =
      Make(FilterOptions::Fpp(0.01), kWriters * kKeysPerWriter);
  std::vector<std::vector<std::string>> keys(kWriters);
  for (int t = 0; t < kWriters; ++t) {
    for (uint64_t i = 0; i < kKeysPerWriter; ++i) {
      keys[t].push_back(Key16(t, i));
    }
  }
  std::vector<std::vector<char>> returned(kWriters,
                                          std::vector<char>(kKeysPerWriter));
  FrozenSnapshots snapshots(kReaders);
  const mutable_test::QueryWhileAddingResult seen =
      mutable_test::QueryWhileAdding(
          filter, keys, kReaders,
          [&](size_t t, uint64_t i) {
            returned[t][i] = filter.Add(keys[t][i]);
          },
          [&](int r, const std::vector<uint64_t>& published) {
            snapshots.Check(r, filter, keys, published);
            filter.ApproximateCount();
            filter.ExpectedFpp();
          });
  snapshots.ExpectNoMisses(seen);
  // Afterwards every key matches, and adding it again changes nothing.
  uint64_t returned_true = 0;
  for (int t = 0; t < kWriters; ++t) {
    for (uint64_t i = 0; i < kKeysPerWriter; ++i) {
      ASSERT_TRUE(filter.MayContain(keys[t][i]));
      ASSERT_FALSE(filter.Add(keys[t][i]));
      returned_true += returned[t][i];
    }
  }

  // Return values. Each bit was set by exactly one fetch_or that saw it
  // clear, in an Add that returned true, and an Add sets at most k bits.
  EXPECT_LE(filter.BitsSet(), returned_true * filter.NumProbes());
  // A key whose Add returned false found its bits set: by the other keys (it
  // was added once). One that returned true had a bit that no key added
  // earlier on its own thread (ordered before it) had set.
  struct Entry {
    int writer;
    uint64_t index;
    const KeyBits* bits;
  };
  std::vector<std::vector<KeyBits>> bits(kWriters);
  std::vector<std::vector<Entry>> by_block(filter.NumBits() / 512);
  for (int t = 0; t < kWriters; ++t) {
    for (const std::string& key : keys[t])
      bits[t].push_back(BitsOf(key, filter));
    for (uint64_t i = 0; i < kKeysPerWriter; ++i) {
      by_block[bits[t][i].block].push_back(Entry{t, i, &bits[t][i]});
    }
  }
  uint64_t returned_false = 0;
  for (int t = 0; t < kWriters; ++t) {
    for (uint64_t i = 0; i < kKeysPerWriter; ++i) {
      const KeyBits& key = bits[t][i];
      std::vector<const KeyBits*> others;   // every other key
      std::vector<const KeyBits*> earlier;  // this writer's, before this key
      for (const Entry& entry : by_block[key.block]) {
        if (entry.bits == &key) continue;
        others.push_back(entry.bits);
        if (entry.writer == t && entry.index < i) earlier.push_back(entry.bits);
      }
      if (!returned[t][i]) {
        ++returned_false;
        EXPECT_TRUE(Covered(key, others)) << "writer " << t << " key " << i;
      } else {
        EXPECT_FALSE(Covered(key, earlier)) << "writer " << t << " key " << i;
      }
    }
  }
  // Keys that arrived already matched: the false positives of a filter
  // filling up to its 1%, a few hundred of the 80,000.
  EXPECT_GT(returned_false, 0u);
  EXPECT_LT(returned_false, kWriters * kKeysPerWriter / 100);
}

// One thread adds through AddSingleWriter, one key at a time and in batches,
// while two query and freeze the filter: every published key matches, in the
// live filter and in the snapshots.
TEST(MutableBloomThreadsTest, SingleWriterTwoReaders) {
  constexpr uint64_t kKeys = 4 * kKeysPerWriter;
  MutableBloomFilter filter = Make(FilterOptions::Fpp(0.01), kKeys);
  std::vector<std::vector<std::string>> keys(1);
  for (uint64_t i = 0; i < kKeys; ++i) keys[0].push_back(Key16(0, i));
  FrozenSnapshots snapshots(kReaders);
  const mutable_test::QueryWhileAddingResult seen =
      mutable_test::QueryWhileAdding(
          filter, keys, kReaders,
          [&](size_t, uint64_t i) {
            // Odd thousands as a batch of one (the batched path), the rest
            // one by one.
            if ((i / 1000) % 2 == 1) {
              const absl::string_view key = keys[0][i];
              filter.AddSingleWriter(absl::MakeConstSpan(&key, 1));
            } else {
              filter.AddSingleWriter(keys[0][i]);
            }
          },
          [&](int r, const std::vector<uint64_t>& published) {
            snapshots.Check(r, filter, keys, published);
          });
  snapshots.ExpectNoMisses(seen);
  for (const std::string& key : keys[0]) ASSERT_TRUE(filter.MayContain(key));
}

// Four threads add the same keys, each from its own starting point, twice.
// Every key matches afterwards; the second pass returns false everywhere; and
// a key's Adds return true at most once per word of its block that holds one
// of its bits (each word's bits are set by one fetch_or).
TEST(MutableBloomThreadsTest, SameKeysFromFourThreads) {
  constexpr uint64_t kKeys = 20000;
  MutableBloomFilter filter = Make(FilterOptions::Fpp(0.01), kKeys);
  std::vector<std::string> keys;
  for (uint64_t i = 0; i < kKeys; ++i) keys.push_back(Key16(0, i));
  std::vector<std::vector<char>> first(kWriters, std::vector<char>(kKeys));
  std::vector<uint64_t> second_true(kWriters, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kWriters; ++t) {
    threads.emplace_back([&, t] {
      for (uint64_t j = 0; j < kKeys; ++j) {
        const uint64_t i = (j + t * kKeys / kWriters) % kKeys;
        first[t][i] = filter.Add(keys[i]);
      }
      for (uint64_t i = 0; i < kKeys; ++i)
        second_true[t] += filter.Add(keys[i]);
    });
  }
  for (std::thread& thread : threads) thread.join();
  uint64_t returned_true = 0;
  for (uint64_t i = 0; i < kKeys; ++i) {
    ASSERT_TRUE(filter.MayContain(keys[i]));
    const KeyBits bits = BitsOf(keys[i], filter);
    int words = 0;
    for (uint64_t word : bits.words) words += word != 0;
    int trues = 0;
    for (int t = 0; t < kWriters; ++t) trues += first[t][i];
    EXPECT_LE(trues, words) << i;
    returned_true += trues;
  }
  for (int t = 0; t < kWriters; ++t) EXPECT_EQ(second_true[t], 0u) << t;
  EXPECT_LE(filter.BitsSet(), returned_true * filter.NumProbes());
}

// Batched adds from four threads at once (32 keys a call, some keys in two
// threads' batches) leave the bits of one thread adding every key once.
TEST(MutableBloomThreadsTest, BatchedAddsFromFourThreads) {
  constexpr uint64_t kKeys = 20000;
  MutableBloomFilter shared = Make(FilterOptions::Fpp(0.01), kKeys);
  MutableBloomFilter alone = Make(FilterOptions::Fpp(0.01), kKeys);
  std::vector<std::string> keys;
  for (uint64_t i = 0; i < kKeys; ++i) keys.push_back(Key16(0, i));
  for (const std::string& key : keys) alone.Add(key);
  std::vector<std::thread> threads;
  for (int t = 0; t < kWriters; ++t) {
    threads.emplace_back([&, t] {
      // Thread t adds a share and a half: every key by one or two threads.
      const uint64_t first = t * kKeys / kWriters;
      const uint64_t end = std::min(kKeys, first + kKeys * 3 / (2 * kWriters));
      std::vector<absl::string_view> views(keys.begin() + first,
                                           keys.begin() + end);
      for (size_t i = 0; i < views.size(); i += 32) {
        shared.Add(absl::MakeConstSpan(views.data() + i,
                                       std::min<size_t>(32, views.size() - i)));
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  // The last thread's share and a half stops at the end: the first keys come
  // from thread 0 alone, the rest from one or two threads.
  EXPECT_EQ(shared.Freeze(), alone.Freeze());
}

// Union into a filter while other threads add to both filters.
TEST(MutableBloomThreadsTest, UnionConcurrentWithAdds) {
  constexpr uint64_t kKeys = 20000;
  MutableBloomFilter a = Make(FilterOptions::Fpp(0.01), 2 * kKeys);
  MutableBloomFilter b = Make(FilterOptions::Fpp(0.01), 2 * kKeys);
  for (uint64_t i = 0; i < kKeys; ++i) b.Add(Key16(1, i));
  std::thread add_a([&] {
    for (uint64_t i = 0; i < kKeys; ++i) a.Add(Key16(0, i));
  });
  std::thread add_b([&] {
    for (uint64_t i = kKeys; i < 2 * kKeys; ++i) b.Add(Key16(1, i));
  });
  std::thread unite([&] {
    for (int round = 0; round < 4; ++round) ASSERT_TRUE(a.Union(b).ok());
  });
  add_a.join();
  add_b.join();
  unite.join();
  // Keys b held before the union began are in a; a's own keys too.
  for (uint64_t i = 0; i < kKeys; ++i) {
    ASSERT_TRUE(a.MayContain(Key16(0, i)));
    ASSERT_TRUE(a.MayContain(Key16(1, i)));
  }
}

}  // namespace
}  // namespace sstfilter
