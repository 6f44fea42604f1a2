// Runs of MutableBloomFilter: every added member is found through any set of
// members that names it, whatever the run's probe offsets (windows that wrap
// past the block's end included); members never added match about as often
// as fill^probes predicts; and runs are saved as the rest of the bits are.

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "inmemory/mutable/mutable_bloom.h"

namespace sstfilter {
namespace {

constexpr int kProbes = 13;

MutableBloomFilter NewFilter(uint64_t keys) {
  absl::StatusOr<MutableBloomFilter> filter =
      MutableBloomFilter::Create(FilterOptions::Fpp(0.01), keys);
  EXPECT_TRUE(filter.ok()) << filter.status();
  return *std::move(filter);
}

struct Member {
  uint64_t run;
  int member;
};

TEST(MutableBloomRunsTest, AddedMembersAreFoundThroughAnySetNamingThem) {
  MutableBloomFilter filter = NewFilter(200000);
  std::mt19937_64 random(1);
  std::vector<Member> added;
  for (int i = 0; i < 20000; ++i) {
    added.push_back({random(), static_cast<int>(random() % 64)});
    filter.AddRunMemberSingleWriter(added.back().run, added.back().member,
                                    kProbes);
  }
  for (const Member& m : added) {
    EXPECT_TRUE(
        filter.MayContainRunMember(m.run, uint64_t{1} << m.member, kProbes));
    EXPECT_TRUE(filter.MayContainRunMember(
        m.run, (uint64_t{1} << m.member) | random(), kProbes));
    EXPECT_TRUE(filter.MayContainRunMember(m.run, ~uint64_t{0}, kProbes));
  }
}

TEST(MutableBloomRunsTest, MembersNeverAddedMatchAsTheFillPredicts) {
  MutableBloomFilter filter = NewFilter(100000);
  std::mt19937_64 random(2);
  for (int i = 0; i < 20000; ++i) {
    filter.AddRunMemberSingleWriter(random(), static_cast<int>(random() % 64),
                                    kProbes);
  }
  const double fill = static_cast<double>(filter.BitsSet()) /
                      static_cast<double>(filter.NumBits());
  int matched = 0;
  constexpr int kQueries = 200000;
  for (int i = 0; i < kQueries; ++i) {
    matched +=
        filter.MayContainRunMember(random(), uint64_t{1} << (i % 64), kProbes);
  }
  const double expected = std::pow(fill, kProbes) * kQueries;
  EXPECT_LT(matched, 3 * expected + 10) << "fill " << fill;
  // An empty set of members matches nothing.
  EXPECT_FALSE(filter.MayContainRunMember(random(), 0, kProbes));
}

TEST(MutableBloomRunsTest, RunsAreSavedWithTheOtherBits) {
  MutableBloomFilter filter = NewFilter(1000);
  filter.AddRunMemberSingleWriter(12345, 63, kProbes);
  filter.AddSingleWriter("key");
  absl::StatusOr<MutableBloomFilter> restored =
      MutableBloomFilter::Restore(filter.Save());
  ASSERT_TRUE(restored.ok()) << restored.status();
  EXPECT_TRUE(restored->MayContainRunMember(12345, uint64_t{1} << 63, kProbes));
  EXPECT_TRUE(restored->MayContain("key"));
}

TEST(MutableBloomRunsTest, AnAddedMemberMarksItsBlockChanged) {
  MutableBloomFilter filter = NewFilter(1000);
  ASSERT_TRUE(filter.TrackChanges().ok());
  filter.AddRunMemberSingleWriter(777, 5, kProbes);
  EXPECT_EQ(filter.TakeChangedBlocks().size(), 1u);
}

}  // namespace
}  // namespace sstfilter
