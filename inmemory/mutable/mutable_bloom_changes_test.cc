// MutableBloomFilter's change tracking: the blocks taken are those adds
// changed, and no more; a filter restored from an old Save and given every
// SaveBlocks since holds the same words as the filter saved; and
// ApplySavedBlocks refuses any bytes SaveBlocks did not write, unchanged.

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "filter/testing/filter_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "inmemory/mutable/mutable_bloom.h"
#include "inmemory/mutable/mutable_test_util.h"

namespace sstfilter {
namespace {

using ::sstfilter::mutable_test::Make;
using ::sstfilter::test::Keys16;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr uint64_t kExpectedKeys = 200000;  // about 3,700 blocks at 1%

MutableBloomFilter Tracked(uint64_t expected = kExpectedKeys) {
  MutableBloomFilter filter = Make(FilterOptions::Fpp(0.01), expected);
  EXPECT_TRUE(filter.TrackChanges().ok());
  return filter;
}

MutableBloomFilter Restored(const std::string& saved) {
  absl::StatusOr<MutableBloomFilter> restored =
      MutableBloomFilter::Restore(saved);
  EXPECT_TRUE(restored.ok()) << restored.status();
  return *std::move(restored);
}

std::vector<absl::string_view> Views(const std::vector<std::string>& keys) {
  return std::vector<absl::string_view>(keys.begin(), keys.end());
}

TEST(MutableBloomChangesTest, UntrackedFilterTakesNothing) {
  MutableBloomFilter filter = Make(FilterOptions::Fpp(0.01), kExpectedKeys);
  for (const std::string& key : Keys16(0, 0, 100)) filter.Add(key);
  EXPECT_THAT(filter.TakeChangedBlocks(), IsEmpty());
}

TEST(MutableBloomChangesTest, TakesTheBlocksAddsChangedOnce) {
  MutableBloomFilter filter = Tracked();
  const std::vector<std::string> keys = Keys16(0, 0, 40);
  for (const std::string& key : keys) filter.Add(key);
  const std::vector<uint64_t> taken = filter.TakeChangedBlocks();
  // Each key changes one block; 40 keys in about 3,700 blocks seldom share.
  EXPECT_GE(taken.size(), 38u);
  EXPECT_LE(taken.size(), keys.size());
  EXPECT_TRUE(std::is_sorted(taken.begin(), taken.end()));
  EXPECT_THAT(filter.TakeChangedBlocks(), IsEmpty()) << "marks not cleared";
  // Keys already present change no bit, so mark nothing.
  for (const std::string& key : keys) filter.Add(key);
  EXPECT_THAT(filter.TakeChangedBlocks(), IsEmpty());
}

// Every adding path marks: Add, AddHash (through the batched and single
// forms), AddSingleWriter and Union. A filter restored from the first save
// and given each round's blocks ends with the saved filter's words.
TEST(MutableBloomChangesTest, OldSavePlusSavedBlocksIsTheFilter) {
  MutableBloomFilter filter = Tracked();
  for (const std::string& key : Keys16(0, 0, 3000)) filter.Add(key);
  // A full save clears the marks first, as a saver taking turns with
  // adds would.
  filter.TakeChangedBlocks();
  const std::string base = filter.Save();
  std::vector<std::string> rounds;
  const auto save_round = [&] {
    rounds.push_back(filter.SaveBlocks(filter.TakeChangedBlocks()));
  };
  for (const std::string& key : Keys16(0, 3000, 500)) filter.Add(key);
  save_round();
  const std::vector<std::string> batch = Keys16(0, 3500, 700);
  filter.Add(absl::MakeConstSpan(Views(batch)));
  save_round();
  for (const std::string& key : Keys16(0, 4200, 300)) {
    filter.AddSingleWriter(key);
  }
  const std::vector<std::string> single_batch = Keys16(0, 4500, 300);
  filter.AddSingleWriter(absl::MakeConstSpan(Views(single_batch)));
  save_round();
  MutableBloomFilter other = Make(FilterOptions::Fpp(0.01), kExpectedKeys);
  for (const std::string& key : Keys16(1, 0, 800)) other.Add(key);
  ASSERT_TRUE(filter.Union(other).ok());
  save_round();
  save_round();  // nothing changed: an empty round

  MutableBloomFilter restored = Restored(base);
  for (size_t r = 0; r < rounds.size(); ++r) {
    const absl::Status applied = restored.ApplySavedBlocks(rounds[r]);
    ASSERT_TRUE(applied.ok()) << "round " << r << ": " << applied;
  }
  EXPECT_EQ(restored.Save(), filter.Save());
  // Only what changed was saved: fewer bytes than the whole filter.
  EXPECT_LT(rounds[0].size(), 500 * (64 + 2));
  EXPECT_EQ(rounds.back().size(), 9u) << "an empty round is its header";
}

TEST(MutableBloomChangesTest, AnyOtherBytesAreDataLossAndChangeNothing) {
  MutableBloomFilter filter = Tracked();
  for (const std::string& key : Keys16(0, 0, 200)) filter.Add(key);
  const std::string saved = filter.SaveBlocks(filter.TakeChangedBlocks());
  MutableBloomFilter empty = Tracked();
  const std::string before = empty.Save();
  const auto refused = [&](const std::string& bytes, const char* why) {
    const absl::Status status = empty.ApplySavedBlocks(bytes);
    EXPECT_TRUE(absl::IsDataLoss(status)) << why << ": " << status;
    EXPECT_EQ(empty.Save(), before) << why;
    return std::string(status.message());
  };
  for (size_t size = 0; size < saved.size(); ++size) {
    refused(saved.substr(0, size), "truncated");
  }
  EXPECT_THAT(refused(saved + "x", "trailing"), HasSubstr("after the last"));
  MutableBloomFilter larger = Tracked(4 * kExpectedKeys);
  EXPECT_THAT(std::string(larger.ApplySavedBlocks(saved).message()),
              HasSubstr("blocks, not"));
  // One run of one block, past the end.
  std::string past_end = saved.substr(0, 8);
  past_end += '\x01';                       // one run
  past_end += std::string("\xff\xff\x03");  // 65535 blocks on
  past_end += '\x01';                       // one long
  past_end += std::string(64, '\xff');
  EXPECT_THAT(refused(past_end, "past the end"), HasSubstr("not ascending"));
}

}  // namespace
}  // namespace sstfilter
