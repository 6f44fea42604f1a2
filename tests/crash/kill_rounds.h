// The kill test's rounds over one configuration, run by kill_test (a few
// rounds, in every `bazel test //...`) and kill_long_test (hundreds, on
// demand): crash_writer writes the workload, each write synced, and is
// killed with SIGKILL over one directory, on a timer or aimed at each kind
// of background work (BackgroundKindsOf); after each kill the database is
// reopened and checked (reopen_checks.h), and at the end every table's
// filter and where the kills landed. What each round checks: README.md
// (kill_test).

#ifndef SSTFILTER_TESTS_CRASH_KILL_ROUNDS_H_
#define SSTFILTER_TESTS_CRASH_KILL_ROUNDS_H_

#include <chrono>
#include <optional>

#include "tests/crash/crash_db.h"

namespace sstfilter {
namespace test {

// How long one configuration is killed: rounds stop when either limit is
// reached, but not before MinKillRounds.
struct KillBudget {
  std::optional<int> rounds;
  std::optional<std::chrono::steady_clock::duration> time;
};

// A timer round and one aimed at each kind of config's background work,
// twice over: the least a configuration gets, and all the short test gives
// it.
int MinKillRounds(const CrashConfig& config);

// Runs the rounds on config in a fresh directory, with gtest assertions for
// every check above; returns at the first fatal failure.
void RunKillRounds(const CrashConfig& config, const KillBudget& budget);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_CRASH_KILL_ROUNDS_H_
