// The kill test's rounds over one configuration, run by kill_test (a few
// rounds, in every `bazel test //...`) and kill_long_test (hundreds, on
// demand). crash_writer writes the workload into a LevelDB or RocksDB
// database with one of sstfilter's policies, each write synced, while small
// memtables and levels keep flushes and compactions (and so filter builds)
// running; the test kills it with SIGKILL, many times over the same
// directory. The rounds take turns: a kill on a timer, then one aimed at
// each kind of the configuration's background work (BackgroundKindsOf: a
// flush, a compaction, and for a presence-filtered database a save and a
// rebuild of its filter; writer_process.h). After each kill the test
// reopens the database the same way and checks that
//  - the round acknowledged at least one write,
//  - every acknowledged key holds its last acknowledged value (the one write
//    in flight at the kill may or may not be there),
//  - deleted keys and keys never written are NotFound (for a
//    presence-filtered database through the wrapper, with Get and MultiGet,
//    while its filter recovers and once it serves, and the serving filter
//    rules out most never-written keys: reopen_checks.h),
//  - a snapshot taken after recovery reads its own values while later writes
//    overwrite and delete them,
// and, at the end, that every table on disk carries the policy's filter and
// that the filter matches every key the table holds, and that the kills
// landed where they were aimed: for each kind of work, at least one kill
// aimed at it landed inside it, and no fewer than half of those aimed at it.
// The writer also checks snapshot reads while it writes.

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
