// The process a crash test kills. Opens the database of a configuration
// (crash_db.h), then writes the workload from a given op on, each op one
// synced write, and reports each acknowledged op to the test on a pipe, in
// order, until it is killed. Along the way it takes snapshots, writes on,
// and reads every key it wrote before the snapshot back at the snapshot,
// while flushes and compactions rewrite the tables under it. It also
// reports each flush and compaction (and, for a presence-filtered database,
// each save and rebuild of its filter) as it begins and ends
// (background_work.h), so that the test can aim a kill at one and tell
// where its kill landed. A presence-filtered database rebuilds its filter
// when the workload outgrows it; once its key space is full it no longer
// does, so the writer asks for a rebuild whenever kQuietOpsBeforeRebuild ops
// went by without one, so that there are rebuilds to aim at. It fails if
// the filter reports an error.
//
// Usage: crash_writer <configuration> <dir> <seed> <first op> <report fd>
//
// Reports, one line each, each written with a single write(2) so that a
// kill never leaves half a line:
//   R          the database is open
//   A <i>      op i is acknowledged: synced
//   S <n>      a snapshot read back n keys as they were when it was taken
//   B <kind> <id> [<cause>]  work of a kind ("flush", "compaction", "save",
//                  "rebuild") began; the engine's id for it, and for a
//                  rebuild its reason
//   E <kind> <id>  it ended
//   F <what>   a check failed; the writer exits with status 1
// A B line is written before the work it announces starts, an E line after
// the work is done, so that a kill that comes after a B line and before
// its E line lands inside that work.

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "tests/crash/background_work.h"
#include "tests/crash/crash_db.h"
#include "tests/crash/workload.h"

namespace sstfilter {
namespace test {
namespace {

// A snapshot every kSnapshotEvery ops, read back kSnapshotSpan ops later:
// time enough for a flush or two to write the snapshot's versions into
// tables.
constexpr uint64_t kSnapshotEvery = 400;
constexpr uint64_t kSnapshotSpan = 600;
// Never-written keys looked up at each snapshot.
constexpr uint64_t kSnapshotAbsentKeys = 100;
// A writer that is never killed stops after this many ops.
constexpr uint64_t kMaxOps = 2000000;
// A presence-filtered database is asked for a rebuild of its filter when this
// many ops went by without one: long enough for the workload to outgrow the
// filter a rebuild sized (RocksDB's estimate of its keys counts every
// overwrite), so that rebuilds for the rate happen too.
constexpr uint64_t kQuietOpsBeforeRebuild = 1000;

int report_fd = -1;

void Report(const std::string& line) {
  const std::string text = line + "\n";
  ssize_t n;
  do {
    n = write(report_fd, text.data(), text.size());
  } while (n < 0 && errno == EINTR);
  // The test is gone, or the pipe broke: nobody is listening.
  if (n != static_cast<ssize_t>(text.size())) _exit(2);
}

[[noreturn]] void Fail(const std::string& what) {
  Report(absl::StrCat("F ", what));
  _exit(1);
}

class ReportingListener : public BackgroundWorkListener {
 public:
  void Began(BackgroundKind kind, uint64_t id,
             const std::string& cause) override {
    if (kind == BackgroundKind::kRebuild) rebuilds_begun_.fetch_add(1);
    Report(absl::StrCat("B ", BackgroundKindName(kind), " ", id,
                        cause.empty() ? "" : " ", cause));
  }
  void Ended(BackgroundKind kind, uint64_t id) override {
    Report(absl::StrCat("E ", BackgroundKindName(kind), " ", id));
  }

  uint64_t rebuilds_begun() const { return rebuilds_begun_.load(); }

 private:
  std::atomic<uint64_t> rebuilds_begun_{0};
};

// A snapshot and what each key this process wrote held when it was taken.
struct PendingSnapshot {
  std::unique_ptr<CrashDb::Snapshot> snapshot;
  std::map<std::string, std::optional<std::string>> expected;
  uint64_t check_at = 0;
};

void CheckSnapshot(CrashDb* db, const PendingSnapshot& pending) {
  for (const auto& [key, value] : pending.expected) {
    absl::StatusOr<std::optional<std::string>> got =
        db->Get(key, pending.snapshot.get());
    if (!got.ok()) Fail(got.status().ToString());
    if (*got != value) {
      Fail(absl::StrCat("snapshot read of ", key, " found ",
                        got->value_or("NotFound").substr(0, 12), ", expected ",
                        value.value_or("NotFound").substr(0, 12)));
    }
  }
  for (uint64_t j = 0; j < kSnapshotAbsentKeys; ++j) {
    absl::StatusOr<std::optional<std::string>> got =
        db->Get(NeverWrittenKey(j), pending.snapshot.get());
    if (!got.ok()) Fail(got.status().ToString());
    if (got->has_value()) {
      Fail(absl::StrCat("snapshot read of never-written key ",
                        NeverWrittenKey(j), " found a value"));
    }
  }
  Report(absl::StrCat("S ", pending.expected.size() + kSnapshotAbsentKeys));
}

// Fails when the filter's last recovery or rebuild failed: nothing in the
// writer's run should make one fail.
void CheckFilterHealthy(PresenceFilteredDB* presence) {
  const PresenceFilterStats stats =
      presence->Stats(presence->DefaultColumnFamily());
  if (!stats.last_error.ok()) {
    Fail(absl::StrCat("the presence filter failed: ",
                      stats.last_error.ToString()));
  }
  if (stats.state == PresenceFilterState::kUnfiltered) {
    Fail("the presence filter is gone (kUnfiltered)");
  }
}

int Run(int argc, char** argv) {
  uint64_t seed = 0;
  uint64_t first_op = 0;
  if (argc != 6 || !absl::SimpleAtoi(argv[3], &seed) ||
      !absl::SimpleAtoi(argv[4], &first_op) ||
      !absl::SimpleAtoi(argv[5], &report_fd)) {
    std::fprintf(stderr,
                 "usage: %s <configuration> <dir> <seed> <first op> "
                 "<report fd>\n",
                 argv[0]);
    return 2;
  }
  absl::StatusOr<CrashConfig> config = ParseCrashConfig(argv[1]);
  if (!config.ok()) Fail(config.status().ToString());
  // Lives as long as the process: the engine's threads report until the kill.
  static ReportingListener listener;
  absl::StatusOr<std::unique_ptr<CrashDb>> db =
      CrashDb::Open(*config, argv[2], {}, &listener);
  if (!db.ok()) Fail(db.status().ToString());
  Report("R");

  // What each key written by this process holds now.
  std::map<std::string, std::optional<std::string>> written;
  std::optional<PendingSnapshot> pending;
  PresenceFilteredDB* const presence = (*db)->presence_filtered_db();
  // The op at which the writer last saw a rebuild begin, or asked for one.
  uint64_t rebuilds_seen = listener.rebuilds_begun();
  uint64_t last_rebuild_op = first_op;
  for (uint64_t i = first_op; i < first_op + kMaxOps; ++i) {
    const Op op = WorkloadOp(seed, i);
    absl::Status s = (*db)->Apply(op, /*sync=*/true);
    if (!s.ok()) Fail(s.ToString());
    Report(absl::StrCat("A ", i));
    written[op.key] = op.type == Op::kPut ? std::optional<std::string>(op.value)
                                          : std::nullopt;
    if (pending.has_value() && i == pending->check_at) {
      CheckSnapshot(db->get(), *pending);
      if (presence != nullptr) CheckFilterHealthy(presence);
      pending.reset();
    }
    if (listener.rebuilds_begun() != rebuilds_seen) {
      rebuilds_seen = listener.rebuilds_begun();
      last_rebuild_op = i;
    }
    if (presence != nullptr && i - last_rebuild_op >= kQuietOpsBeforeRebuild) {
      s = presence->RebuildFilter(presence->DefaultColumnFamily());
      if (!s.ok()) Fail(absl::StrCat("RebuildFilter: ", s.ToString()));
      last_rebuild_op = i;
    }
    if (!pending.has_value() && (i - first_op) % kSnapshotEvery == 0) {
      pending =
          PendingSnapshot{(*db)->TakeSnapshot(), written, i + kSnapshotSpan};
    }
  }
  return 0;
}

}  // namespace
}  // namespace test
}  // namespace sstfilter

int main(int argc, char** argv) { return sstfilter::test::Run(argc, argv); }
