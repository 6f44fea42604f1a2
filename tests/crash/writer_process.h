// Runs crash_writer in a child process and kills it with SIGKILL: what a
// crash test learns from one round.

#ifndef SSTFILTER_TESTS_CRASH_WRITER_PROCESS_H_
#define SSTFILTER_TESTS_CRASH_WRITER_PROCESS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tests/crash/crash_db.h"

namespace sstfilter {
namespace test {

struct WriterRound {
  bool opened = false;                 // the writer reported its database open
  std::vector<uint64_t> acknowledged;  // ops reported synced, in order
  int snapshot_checks = 0;             // snapshots the writer read back
  // A check the writer reported failed, or how it ended when not by our
  // kill (a sanitizer report, a crash); empty when it was killed as planned.
  std::string failure;
};

// The crash_writer binary among the test's runfiles.
std::string WriterPath();

// Starts the writer on the database of config in dir, writing the workload
// of seed from first_op on, reads its reports for kill_after_ms
// milliseconds, kills it with SIGKILL and waits for it. An error only when
// the process cannot be started; everything the writer reports is in the
// result.
absl::StatusOr<WriterRound> RunWriterAndKill(const CrashConfig& config,
                                             const std::string& dir,
                                             uint64_t seed, uint64_t first_op,
                                             int kill_after_ms);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_CRASH_WRITER_PROCESS_H_
