// Process crashes in real databases, a few per configuration: two kills on
// a timer and two aimed at each kind of its background work (a flush, a
// compaction, and for the presence-filtered one a save and a rebuild), with
// every check of kill_rounds.h. kill_long_test runs the same rounds for as
// long as it is given.

#include "gtest/gtest.h"
#include "tests/crash/crash_db.h"
#include "tests/crash/kill_rounds.h"

namespace sstfilter {
namespace test {
namespace {

class KillTest : public ::testing::TestWithParam<CrashConfig> {};

TEST_P(KillTest, AcknowledgedWritesSurviveKills) {
  RunKillRounds(GetParam(),
                KillBudget{MinKillRounds(GetParam()), std::nullopt});
}

INSTANTIATE_TEST_SUITE_P(AllConfigs, KillTest,
                         ::testing::ValuesIn(AllCrashConfigs()),
                         ::testing::PrintToStringParamName());

}  // namespace
}  // namespace test
}  // namespace sstfilter
