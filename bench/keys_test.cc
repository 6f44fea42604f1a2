// Tests of key generation: keys are deterministic, distinct, in the promised
// shapes, and absent keys never collide with added ones.

#include "bench/keys.h"

#include <set>
#include <string>
#include <vector>

#include "bench/built_filter.h"
#include "bench/workload.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace bench {
namespace {

std::string Key(KeyKind kind, uint64_t index) {
  char buf[kMaxKeyBytes];
  return std::string(buf, MakeKey(kind, index, buf));
}

TEST(KeysTest, SequentialKeysAreUserAndTwelveDigits) {
  EXPECT_EQ(Key(KeyKind::kSequential, 0), "user000000000000");
  EXPECT_EQ(Key(KeyKind::kSequential, 42), "user000000000042");
  EXPECT_EQ(Key(KeyKind::kSequential, kAbsentBase + 7), "user500000000007");
}

TEST(KeysTest, Random16KeysAreSixteenBytesAndDeterministic) {
  EXPECT_EQ(Key(KeyKind::kRandom16, 5).size(), 16u);
  EXPECT_EQ(Key(KeyKind::kRandom16, 5), Key(KeyKind::kRandom16, 5));
  EXPECT_NE(Key(KeyKind::kRandom16, 5), Key(KeyKind::kRandom16, 6));
}

TEST(KeysTest, VarlenKeysSpanEightToHundredBytes) {
  size_t shortest = kMaxKeyBytes;
  size_t longest = 0;
  for (uint64_t i = 0; i < 20000; ++i) {
    const size_t len = Key(KeyKind::kVarlen, i).size();
    shortest = std::min(shortest, len);
    longest = std::max(longest, len);
  }
  EXPECT_EQ(shortest, 8u);
  EXPECT_EQ(longest, 100u);
}

TEST(KeysTest, PresentAndAbsentKeysAreDistinct) {
  for (KeyKind kind :
       {KeyKind::kRandom16, KeyKind::kSequential, KeyKind::kVarlen}) {
    std::set<std::string> keys;
    for (uint64_t i = 0; i < 50000; ++i) {
      keys.insert(Key(kind, i));
      keys.insert(Key(kind, kAbsentBase + i));
    }
    EXPECT_EQ(keys.size(), 100000u);
  }
}

TEST(KeysTest, ChunkMatchesSingleKeys) {
  KeyChunk chunk;
  chunk.Fill(KeyKind::kVarlen, 1000, KeyChunk::kCapacity);
  ASSERT_EQ(chunk.size(), KeyChunk::kCapacity);
  for (size_t i = 0; i < chunk.size(); ++i) {
    EXPECT_EQ(chunk[i], Key(KeyKind::kVarlen, 1000 + i));
  }
}

TEST(WorkloadTest, QuerySetsHaveThePromisedMembership) {
  const Workload w{"random16", KeyKind::kRandom16, 4, 1000};
  const CaseData data = MakeCaseData(w, FilterOptions::BitsPerKey(10), 4096);
  std::set<std::string> added[4];
  for (size_t f = 0; f < 4; ++f) {
    for (uint64_t j = 0; j < 1000; ++j) {
      added[f].insert(Key(w.kind, w.first_index(f) + j));
    }
  }
  ASSERT_EQ(data.positive.size(), 4096u);
  ASSERT_EQ(data.positive.filters.size(), 4096u);
  for (size_t i = 0; i < 4096; ++i) {
    EXPECT_EQ(added[data.positive.filters[i]].count(
                  Key(w.kind, data.positive.indexes[i])),
              1u);
    for (const auto& set : added) {
      EXPECT_EQ(set.count(Key(w.kind, data.negative.indexes[i])), 0u);
    }
  }
  // Batched queries ask one filter per group.
  for (size_t i = 0; i < 4096; ++i) {
    EXPECT_EQ(data.batched.filters[i],
              data.batched.filters[i - i % kBatchSize]);
  }
  // Mixed: about half present.
  size_t present = 0;
  for (size_t i = 0; i < 4096; ++i) {
    present +=
        added[data.mixed.filters[i]].count(Key(w.kind, data.mixed.indexes[i]));
  }
  EXPECT_GT(present, 4096u * 4 / 10);
  EXPECT_LT(present, 4096u * 6 / 10);
}

}  // namespace
}  // namespace bench
}  // namespace sstfilter
