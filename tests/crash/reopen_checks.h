// What the crash tests check of a database they have just reopened, after a
// kill or a power loss (CheckDatabase): every acknowledged key holds its last
// acknowledged value (or the outcome of an op that may or may not have
// landed); deleted and never-written keys are NotFound. A presence-filtered
// database is checked through the wrapper with Get, MultiGet and seeks held
// to one key by their bounds, while its filter recovers and once it serves,
// which must then rule out most never-written keys (README.md, "The
// presence-filtered configuration").

#ifndef SSTFILTER_TESTS_CRASH_REOPEN_CHECKS_H_
#define SSTFILTER_TESTS_CRASH_REOPEN_CHECKS_H_

#include <chrono>
#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "tests/crash/crash_db.h"
#include "tests/crash/workload.h"

namespace sstfilter {
namespace test {

// How long a check waits for a filter to serve before it reports a hang.
// Far longer than any recovery of a crash test's database takes.
constexpr std::chrono::seconds kServingTimeout(120);

// Never-written keys looked up once the filter serves, with each of Get,
// MultiGet and a seek held to the key; no more than half of each may reach
// RocksDB.
constexpr uint64_t kAbsentProbes = 1000;

// What the checks saw of presence filters, summed over reopens.
struct FilterUse {
  int serving_checks = 0;        // reopens checked once the filter served
  uint64_t absent_lookups = 0;   // never-written keys looked up then
  uint64_t reached_rocksdb = 0;  // of those, lookups the filter let through
  uint64_t absent_seeks = 0;     // seeks of one never-written key each
  uint64_t seeks_reached_rocksdb = 0;
};

// The checks above; an error names the first that failed, and for a
// presence-filtered database through which lookup and when. use, when not
// null, is added what the filter did.
absl::Status CheckReopened(CrashDb* db, const Model& model,
                           absl::Span<const Op> maybe,
                           size_t never_written_keys, FilterUse* use = nullptr);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_CRASH_REOPEN_CHECKS_H_
