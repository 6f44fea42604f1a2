// Runs crash_writer in a child process and kills it with SIGKILL, on a timer
// or aimed at a flush or a compaction: what a crash test learns from one
// round, including where the kill landed.

#ifndef SSTFILTER_TESTS_CRASH_WRITER_PROCESS_H_
#define SSTFILTER_TESTS_CRASH_WRITER_PROCESS_H_

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tests/crash/background_work.h"
#include "tests/crash/crash_db.h"

namespace sstfilter {
namespace test {

// What a round's kill waits for. Every round first waits for the writer's
// first acknowledged write, so that every round has written something.
enum class KillAim {
  kTimer,       // nothing more
  kFlush,       // the writer inside a flush
  kCompaction,  // the writer inside a compaction
};

struct KillPlan {
  KillAim aim = KillAim::kTimer;
  // kTimer: how long after the writer's first acknowledged write the kill
  // comes.
  std::chrono::microseconds delay{0};
  // Aimed: once the writer, with a write acknowledged, is inside such work,
  // the kill comes this fraction of the length of the last such work it
  // finished in the round later (at once if it finished none yet), so that
  // kills land at different points of the work. In [0, 1). When the work
  // ends before the kill is due, the aim is taken again at the next such
  // work; a kill still misses when the work ends between the test's last
  // read of the reports and the kill.
  double fraction = 0;
};

struct WriterRound {
  bool opened = false;                 // the writer reported its database open
  std::vector<uint64_t> acknowledged;  // ops reported synced, in order
  int snapshot_checks = 0;             // snapshots the writer read back
  int flushes_begun = 0;               // flushes the writer reported begun
  int compactions_begun = 0;           // compactions likewise
  // Whether the kill was aimed as planned; false when the round gave up
  // waiting (the writer ended, or made no progress towards the aim).
  bool aim_taken = false;
  // Where the writer died: inside work it had reported begun and not ended.
  // All its reports are read after its death, so this is the state at the
  // kill, not the last one the test had seen when it sent it.
  bool died_in_flush = false;
  bool died_in_compaction = false;
  // A check the writer reported failed, a report that breaks the protocol,
  // or how the writer ended when not by our kill (a sanitizer report, a
  // crash); empty when it was killed as planned.
  std::string failure;

  bool died_in(BackgroundKind kind) const {
    return kind == BackgroundKind::kFlush ? died_in_flush : died_in_compaction;
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
