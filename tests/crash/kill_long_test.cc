// Process crashes in real databases, hundreds of them: the rounds of
// kill_rounds.h, with all their checks, over every configuration in turn
// for as long as the environment says:
//   SSTFILTER_CRASH_SECONDS  seconds of rounds over all configurations,
//                            shared evenly (default 300);
//   SSTFILTER_CRASH_KILLS    kills over all configurations, shared evenly.
// With one set, the other does not limit (unless set too: the first limit
// reached ends a configuration's rounds). Each configuration gets at least
// MinKillRounds. Not in `bazel test //...` (tagged manual); run as
//   bazel test --test_env=SSTFILTER_CRASH_SECONDS=300
//   //tests/crash:kill_long_test

#include <chrono>
#include <cstdlib>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/crash/crash_db.h"
#include "tests/crash/kill_rounds.h"

namespace sstfilter {
namespace test {
namespace {

constexpr int kDefaultSeconds = 300;

// The value of the environment variable name: nullopt when unset; an error
// when set to anything but a positive integer.
absl::StatusOr<std::optional<int>> PositiveFromEnv(const char* name) {
  const char* text = std::getenv(name);
  if (text == nullptr) return std::nullopt;
  int value = 0;
  if (!absl::SimpleAtoi(text, &value) || value <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, "=\"", text, "\": not a positive integer"));
  }
  return value;
}

// This configuration's share of the budget the environment sets.
absl::StatusOr<KillBudget> BudgetFromEnv() {
  absl::StatusOr<std::optional<int>> seconds =
      PositiveFromEnv("SSTFILTER_CRASH_SECONDS");
  if (!seconds.ok()) return seconds.status();
  absl::StatusOr<std::optional<int>> kills =
      PositiveFromEnv("SSTFILTER_CRASH_KILLS");
  if (!kills.ok()) return kills.status();
  if (!seconds->has_value() && !kills->has_value()) *seconds = kDefaultSeconds;
  const int configs = static_cast<int>(AllCrashConfigs().size());
  KillBudget budget;
  if (kills->has_value()) budget.rounds = (**kills + configs - 1) / configs;
  if (seconds->has_value()) {
    budget.time =
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
            std::chrono::duration<double>(static_cast<double>(**seconds) /
                                          configs));
  }
  return budget;
}

class KillLongTest : public ::testing::TestWithParam<CrashConfig> {};

TEST_P(KillLongTest, AcknowledgedWritesSurviveKills) {
  absl::StatusOr<KillBudget> budget = BudgetFromEnv();
  ASSERT_TRUE(budget.ok()) << budget.status();
  RunKillRounds(GetParam(), *budget);
}

INSTANTIATE_TEST_SUITE_P(AllConfigs, KillLongTest,
                         ::testing::ValuesIn(AllCrashConfigs()),
                         ::testing::PrintToStringParamName());

}  // namespace
}  // namespace test
}  // namespace sstfilter
