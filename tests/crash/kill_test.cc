// Process crashes in real databases, a few per configuration: six kills
// each (two on a timer, two aimed at a flush, two at a compaction), with
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
  RunKillRounds(GetParam(), KillBudget{kMinKillRounds, std::nullopt});
}

INSTANTIATE_TEST_SUITE_P(AllConfigs, KillTest,
                         ::testing::ValuesIn(AllCrashConfigs()),
                         ::testing::PrintToStringParamName());

}  // namespace
}  // namespace test
}  // namespace sstfilter
