// Process crashes in real databases: crash_writer writes the workload into a
// LevelDB or RocksDB database with one of sstfilter's policies, each write
// synced, while small memtables and levels keep flushes and compactions (and
// so filter builds) running; the test kills it with SIGKILL after a random
// delay, several times over the same directory. After each kill the test
// reopens the database with the same policy and checks that
//  - every acknowledged key holds its last acknowledged value (the one write
//    in flight at the kill may or may not be there),
//  - deleted keys and keys never written are NotFound,
//  - a snapshot taken after recovery reads its own values while later writes
//    overwrite and delete them,
// and, at the end, that every table on disk carries the policy's filter and
// that the filter matches every key the table holds. The writer also checks
// snapshot reads while it writes.

#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "table/testing/real_tables.h"
#include "tests/crash/crash_db.h"
#include "tests/crash/workload.h"
#include "tests/crash/writer_process.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace test {
namespace {

// The workload's seed, printed with any failure; the kill delays come from it
// too, but where a kill lands depends on the machine.
constexpr uint64_t kSeed = 26;
constexpr int kRounds = 5;
// The writer runs this long before the kill: from its database's recovery
// (which writes tables of its own) to many flushes in.
constexpr int kMinKillMs = 50;
constexpr int kMaxKillMs = 700;
// Never-written keys looked up at each check.
constexpr size_t kNeverWrittenKeys = 1000;
// Ops written in-process while a snapshot is held.
constexpr uint64_t kOpsUnderSnapshot = 300;
// Ops the database has seen at the end, written in-process when the writer
// wrote fewer: enough for several flushes, so there are tables to check.
constexpr uint64_t kMinTotalOps = 3000;

class KillTest : public ::testing::TestWithParam<CrashConfig> {};

// Takes a snapshot of db, writes kOpsUnderSnapshot ops from *next_op on
// (applied to *model), and checks that the snapshot still reads the model's
// state from before them.
void CheckSnapshotAcrossWrites(CrashDb* db, uint64_t seed, uint64_t* next_op,
                               Model* model) {
  const Model before = *model;
  std::unique_ptr<CrashDb::Snapshot> snapshot = db->TakeSnapshot();
  for (uint64_t n = 0; n < kOpsUnderSnapshot; ++n) {
    const Op op = WorkloadOp(seed, (*next_op)++);
    ASSERT_TRUE(db->Apply(op, /*sync=*/true).ok());
    model->Apply(op);
  }
  const Lookup at_snapshot = [&](const std::string& key) {
    return db->Get(key, snapshot.get());
  };
  EXPECT_EQ(CheckDatabase(before, {}, at_snapshot, kNeverWrittenKeys),
            absl::OkStatus())
      << "read at a snapshot";
}

TEST_P(KillTest, AcknowledgedWritesSurviveKills) {
  const CrashConfig config = GetParam();
  const uint64_t seed = kSeed;
  Random rng(seed);
  TempDir dir;
  Model model;
  uint64_t next_op = 0;
  int snapshot_checks = 0;
  size_t acknowledged = 0;
  for (int round = 0; round < kRounds; ++round) {
    SCOPED_TRACE(::testing::Message()
                 << config.Name() << " seed " << seed << " round " << round);
    const int kill_ms = static_cast<int>(rng.Range(kMinKillMs, kMaxKillMs));
    absl::StatusOr<WriterRound> run =
        RunWriterAndKill(config, dir.path(), seed, next_op, kill_ms);
    ASSERT_TRUE(run.ok()) << run.status();
    ASSERT_EQ(run->failure, "");
    std::vector<Op> maybe;
    for (uint64_t i : run->acknowledged) {
      ASSERT_EQ(i, next_op) << "acknowledgements out of order";
      model.Apply(WorkloadOp(seed, next_op++));
    }
    if (run->opened) maybe.push_back(WorkloadOp(seed, next_op++));
    acknowledged += run->acknowledged.size();
    snapshot_checks += run->snapshot_checks;

    absl::StatusOr<std::unique_ptr<CrashDb>> db =
        CrashDb::Open(config, dir.path());
    ASSERT_TRUE(db.ok()) << db.status();
    ASSERT_EQ(CheckDatabase(model, maybe, (*db)->AsLookup(), kNeverWrittenKeys),
              absl::OkStatus());
    ASSERT_EQ(ResolveMaybe(maybe, (*db)->AsLookup(), &model), absl::OkStatus());
    CheckSnapshotAcrossWrites(db->get(), seed, &next_op, &model);
    if (HasFatalFailure()) return;
  }

  // The last check: enough writes for tables, a clean reopen, and every
  // table's filter.
  std::string filter_name;
  {
    absl::StatusOr<std::unique_ptr<CrashDb>> db =
        CrashDb::Open(config, dir.path());
    ASSERT_TRUE(db.ok()) << db.status();
    while (next_op < kMinTotalOps) {
      const Op op = WorkloadOp(seed, next_op++);
      ASSERT_TRUE((*db)->Apply(op, /*sync=*/true).ok());
      model.Apply(op);
    }
    filter_name = (*db)->FilterName();
  }
  absl::StatusOr<std::unique_ptr<CrashDb>> db =
      CrashDb::Open(config, dir.path());
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_EQ(CheckDatabase(model, {}, (*db)->AsLookup(), kNeverWrittenKeys),
            absl::OkStatus());
  CrashDb::LiveTables live = (*db)->PinLiveTables();
  absl::StatusOr<int> tables =
      CheckTableFilters(config, live.paths, filter_name);
  ASSERT_TRUE(tables.ok()) << tables.status();
  EXPECT_GT(*tables, 0);
  std::printf(
      "%s: %zu writes acknowledged by the killed writer, %d snapshots "
      "read back by it, %d tables with filter %s, %zu keys present\n",
      config.Name().c_str(), acknowledged, snapshot_checks, *tables,
      filter_name.c_str(), model.present());
}

INSTANTIATE_TEST_SUITE_P(
    AllConfigs, KillTest, ::testing::ValuesIn(AllCrashConfigs()),
    [](const ::testing::TestParamInfo<CrashConfig>& param) {
      return param.param.Name();
    });

}  // namespace
}  // namespace test
}  // namespace sstfilter
