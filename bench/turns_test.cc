#include "bench/turns.h"

#include <cstddef>
#include <set>
#include <vector>

#include "gtest/gtest.h"

namespace sstfilter {
namespace bench {
namespace {

// Every repetition times each configuration once, and over count repetitions
// each configuration takes each turn once: none always runs first.
TEST(TurnsTest, EachRepetitionIsAPermutationAndEachTurnRotates) {
  for (size_t count = 1; count <= 6; ++count) {
    std::vector<std::set<size_t>> configs_at_turn(count);
    for (int rep = 0; rep < static_cast<int>(count); ++rep) {
      std::set<size_t> timed;
      for (size_t turn = 0; turn < count; ++turn) {
        const size_t config = TurnOf(rep, turn, count);
        ASSERT_LT(config, count);
        timed.insert(config);
        configs_at_turn[turn].insert(config);
      }
      EXPECT_EQ(timed.size(), count) << "rep " << rep << " of " << count;
    }
    for (size_t turn = 0; turn < count; ++turn) {
      EXPECT_EQ(configs_at_turn[turn].size(), count)
          << "turn " << turn << " of " << count;
    }
  }
}

}  // namespace
}  // namespace bench
}  // namespace sstfilter
