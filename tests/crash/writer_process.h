// Runs crash_writer in a child process and kills it with SIGKILL, on a timer
// or aimed at a kind of background work (a flush, a compaction, a filter's
// save or rebuild): what a crash test learns from one round, including where
// the kill landed.

#ifndef SSTFILTER_TESTS_CRASH_WRITER_PROCESS_H_
#define SSTFILTER_TESTS_CRASH_WRITER_PROCESS_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tests/crash/background_work.h"
#include "tests/crash/crash_db.h"

namespace sstfilter {
namespace test {

struct KillPlan {
  // What the kill waits for, besides the writer's first acknowledged write
  // (every round waits for that, so that every round has written
  // something): nullopt for nothing more (a kill on a timer), or the writer
  // inside work of this kind.
  std::optional<BackgroundKind> aim;
  // On a timer: how long after the writer's first acknowledged write the
  // kill comes.
  std::chrono::microseconds delay{0};
  // Aimed: once the writer, with a write acknowledged, is inside such work,
  // the kill comes this fraction of the length of the last such work it
  // finished in the round later (at once if it finished none yet), so that
  // kills land at different points of the work. In [0, 1). When the kill is
  // due, the writer is stopped and its reports read: if the work has ended,
  // the writer goes on and the aim is taken again at the next such work, at
  // half the fraction, so an aimed kill either lands inside the work or
  // gives up.
  double fraction = 0;
};

struct WriterRound {
  bool opened = false;                 // the writer reported its database open
  std::vector<uint64_t> acknowledged;  // ops reported synced, in order
  int snapshot_checks = 0;             // snapshots the writer read back
  // Work the writer reported begun, of each kind; rebuilds also by cause.
  std::map<BackgroundKind, int> begun;
  std::map<std::string, int> rebuild_causes;
  // Whether the kill was aimed as planned; false when the round gave up
  // waiting (the writer ended, or made no progress towards the aim).
  bool aim_taken = false;
  // The kinds of work the writer died inside: begun and not ended in its
  // reports. All its reports are read after its death, so this is the state
  // at the kill, not the last one the test had seen when it sent it.
  std::set<BackgroundKind> died_inside;
  // A check the writer reported failed, a report that breaks the protocol,
  // or how the writer ended when not by our kill (a sanitizer report, a
  // crash); empty when it was killed as planned.
  std::string failure;

  bool died_in(BackgroundKind kind) const {
    return died_inside.count(kind) > 0;
  }
};

// The crash_writer binary among the test's runfiles.
std::string WriterPath();

// Starts the writer on the database of config in dir, writing the workload
// of seed from first_op on, reads its reports until plan says to kill it,
// kills it with SIGKILL and waits for it. A round gives up waiting for its
// aim, and kills at once, when the writer has acknowledged many writes
// since its first without reaching it, or has not reached it after a time
// far longer than any round takes (it hangs, or acknowledges nothing). An
// error only when the process cannot be started; everything the writer
// reports is in the result.
absl::StatusOr<WriterRound> RunWriterAndKill(const CrashConfig& config,
                                             const std::string& dir,
                                             uint64_t seed, uint64_t first_op,
                                             const KillPlan& plan);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_CRASH_WRITER_PROCESS_H_
