// Power loss in real databases: a LevelDB or RocksDB database with one of
// sstfilter's policies writes the workload through an Env (FileSystem) that
// records what each file held at its last sync (synced_files.h). The power
// goes at a random append to a table file, while a flush or compaction
// writes a table and its filter, and for the presence-filtered RocksDB
// database also at each step of a save of its filter (the write and sync of
// the temporary file, its rename into place, the directory sync after):
// every later write fails, the database is closed, and each file is cut
// back to its synced bytes (files never synced are removed). Every planned
// power loss must strike where it was planned. Reopened, the database must
// hold every write acknowledged with sync unless a later unsynced write of
// the same key replaced it; deleted and never-written keys must be NotFound
// (through the presence filter, before and once it serves:
// reopen_checks.h); the presence filter must not find its saved file
// damaged; and every table left on disk must carry the policy's filter,
// matching all its keys. Several power losses strike the same directory.
//
// The wrapper is shown to drop data: a write acknowledged without a sync
// is gone after a power loss, and the checker reports it when told it was
// synced.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "gtest/gtest.h"
#include "rocksdb/env.h"
#include "table/testing/real_tables.h"
#include "tests/crash/crash_db.h"
#include "tests/crash/leveldb_power_loss_env.h"
#include "tests/crash/rebuild_causes.h"
#include "tests/crash/reopen_checks.h"
#include "tests/crash/rocksdb_power_loss_fs.h"
#include "tests/crash/synced_files.h"
#include "tests/crash/workload.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace test {
namespace {

constexpr uint64_t kSeed = 26;
using StrikePoint = SyncedFiles::StrikePoint;
// The power goes at one of the first kMaxTableAppends appends to a table
// file after the database opens (RocksDB appends a table in one or two
// pieces, LevelDB a block at a time), in one of the writes of the first
// kMaxSaves saves of a presence filter (fewer for paced saves,
// SavesToStrike), or at the rename or directory sync of the first full
// save; the test fails if kMaxOps ops go by without it.
constexpr uint64_t kMaxTableAppends = 8;
constexpr uint64_t kMaxSaves = 3;
constexpr uint64_t kMaxOps = 3000;
// One write in kUnsyncedOneIn is acknowledged without a sync.
constexpr uint64_t kUnsyncedOneIn = 4;
constexpr size_t kNeverWrittenKeys = 1000;

// Both engines' wrappers over one record of synced files.
struct PowerLossEnvs {
  SyncedFiles files;
  LevelDbPowerLossEnv leveldb{&files};
  std::unique_ptr<rocksdb::Env> rocksdb = NewRocksDbPowerLossEnv(&files);

  CrashDbEnvs envs() { return CrashDbEnvs{&leveldb, rocksdb.get()}; }
};

class PowerLossTest : public ::testing::TestWithParam<CrashConfig> {};

// Where config's power losses strike, one loss each: three times inside a
// table write; for a presence-filtered database once inside a table write
// and once at each step of a save of its filter.
std::vector<StrikePoint> StrikePointsOf(const CrashConfig& config) {
  if (config.presence_filtered) {
    return {StrikePoint::kTableAppend, StrikePoint::kSavedFileWrite,
            StrikePoint::kSavedFileRename,
            StrikePoint::kSavedFileDirectorySync};
  }
  return {StrikePoint::kTableAppend, StrikePoint::kTableAppend,
          StrikePoint::kTableAppend};
}

const char* StrikePointName(StrikePoint point) {
  switch (point) {
    case StrikePoint::kTableAppend:
      return "table append";
    case StrikePoint::kSavedFileWrite:
      return "write of a saved filter's temporary file";
    case StrikePoint::kSavedFileRename:
      return "rename of a saved filter into place";
    case StrikePoint::kSavedFileDirectorySync:
      return "directory sync after a saved filter's rename";
  }
  return "unknown";
}

// How many of the saves after an open the power may strike in. Paced saves
// wait for RocksDB's table bytes, and one that comes while another is being
// written is folded into it: under a slow build (the sanitizers) only the
// first is sure to come within kMaxOps.
uint64_t SavesToStrike(const CrashConfig& config) {
  return config.paced_saves ? 1 : kMaxSaves;
}

// The n-th operation at point from now on, n drawn from rng: each save
// writes its temporary file or appends to the changes file, once.
int64_t StrikeAt(const CrashConfig& config, StrikePoint point, Random* rng) {
  switch (point) {
    case StrikePoint::kTableAppend:
      return static_cast<int64_t>(rng->Range(1, kMaxTableAppends));
    case StrikePoint::kSavedFileWrite:
      return static_cast<int64_t>(rng->Range(1, 2 * SavesToStrike(config)));
    case StrikePoint::kSavedFileRename:
    case StrikePoint::kSavedFileDirectorySync:
      // Only a full save renames, and only the first save after an open is
      // sure to be one: the saves after it append their changes until those
      // outgrow it or a rebuild replaces a filter (filter_saves.h), which
      // the workload's timing decides.
      return 1;
  }
  return 1;
}

// What a lookup of key found: its value, nullopt for NotFound, or the error
// in angle brackets.
std::optional<std::string> Found(CrashDb* db, const std::string& key) {
  absl::StatusOr<std::optional<std::string>> got = db->Get(key);
  if (!got.ok()) return "<" + got.status().ToString() + ">";
  return *got;
}

TEST_P(PowerLossTest, AnUnsyncedWriteIsLost) {
  const CrashConfig config = GetParam();
  TempDir dir;
  PowerLossEnvs power;
  // Two puts of different keys.
  const Op synced = WorkloadOp(kSeed, 0);
  Op unsynced;
  for (uint64_t i = 1;; ++i) {
    unsynced = WorkloadOp(kSeed, i);
    if (unsynced.type == Op::kPut && unsynced.key != synced.key) break;
  }
  ASSERT_EQ(synced.type, Op::kPut);
  {
    absl::StatusOr<std::unique_ptr<CrashDb>> db =
        CrashDb::Open(config, dir.path(), power.envs());
    ASSERT_TRUE(db.ok()) << db.status();
    ASSERT_EQ((*db)->Apply(synced, /*sync=*/true), absl::OkStatus());
    ASSERT_EQ((*db)->Apply(unsynced, /*sync=*/false), absl::OkStatus());
    // Before the power loss, the process itself reads both.
    ASSERT_EQ(Found(db->get(), unsynced.key), unsynced.value);
    power.files.LosePower();
    EXPECT_FALSE((*db)->Apply(WorkloadOp(kSeed, 1000), /*sync=*/true).ok())
        << "a write without power";
  }
  absl::StatusOr<SyncedFiles::Dropped> dropped = power.files.DropUnsynced();
  ASSERT_TRUE(dropped.ok()) << dropped.status();
  EXPECT_GT(dropped->bytes_cut + dropped->files_removed, 0u);

  absl::StatusOr<std::unique_ptr<CrashDb>> db =
      CrashDb::Open(config, dir.path());
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_EQ(Found(db->get(), synced.key), synced.value);
  EXPECT_EQ(Found(db->get(), unsynced.key), std::nullopt);

  // The checker passes the truth and catches the lost write when told it
  // was synced.
  Model model;
  model.Apply(synced);
  EXPECT_EQ(CheckDatabase(model, {unsynced}, (*db)->AsLookup(), 10),
            absl::OkStatus());
  model.Apply(unsynced);
  const absl::Status lost =
      CheckDatabase(model, {}, (*db)->AsLookup(), kNeverWrittenKeys);
  EXPECT_FALSE(lost.ok());
  EXPECT_NE(lost.message().find(unsynced.key), std::string::npos) << lost;
}

TEST_P(PowerLossTest, SyncedWritesSurvivePowerLoss) {
  const CrashConfig config = GetParam();
  Random rng(kSeed);
  TempDir dir;
  PowerLossEnvs power;
  Model model;  // every key's last write acknowledged with a sync
  uint64_t next_op = 0;
  SyncedFiles::Dropped total;
  std::string filter_name;
  absl::StatusOr<int> tables = 0;  // checked after the last recovery
  const std::vector<StrikePoint> strike_points = StrikePointsOf(config);
  const int power_losses = static_cast<int>(strike_points.size());
  // Every presence filter's saved name starts with this one's: its
  // temporary file is the saved file's name with a suffix.
  const std::string saved_filter_name =
      std::filesystem::path(PresenceFilterFileName(dir.path()))
          .filename()
          .string();
  for (int loss = 0; loss < power_losses; ++loss) {
    const StrikePoint point = strike_points[loss];
    SCOPED_TRACE(::testing::Message()
                 << config.Name() << " seed " << kSeed << " power loss " << loss
                 << " at a " << StrikePointName(point));
    // Acknowledged without a sync (and not overwritten by a synced write),
    // or failed.
    std::vector<Op> maybe;
    {
      absl::StatusOr<std::unique_ptr<CrashDb>> db =
          CrashDb::Open(config, dir.path(), power.envs());
      ASSERT_TRUE(db.ok()) << db.status();
      filter_name = (*db)->FilterName();
      const int64_t strike = StrikeAt(config, point, &rng);
      power.files.LosePowerAt(point, strike, saved_filter_name);
      for (uint64_t n = 0; n < kMaxOps && power.files.powered(); ++n) {
        const Op op = WorkloadOp(kSeed, next_op++);
        const bool sync = !rng.OneIn(kUnsyncedOneIn);
        const absl::Status s = (*db)->Apply(op, sync);
        if (!s.ok()) {
          // Only a write after (or racing) the power loss may fail.
          ASSERT_FALSE(power.files.powered()) << s;
          maybe.push_back(op);
          break;
        }
        if (sync) {
          // The synced write decides its key; it says nothing of earlier
          // unsynced writes of other keys: LevelDB syncs only the log it
          // writes, and one left at a memtable switch keeps its unsynced
          // tail.
          maybe.erase(std::remove_if(maybe.begin(), maybe.end(),
                                     [&](const Op& earlier) {
                                       return earlier.key == op.key;
                                     }),
                      maybe.end());
          model.Apply(op);
        } else {
          maybe.push_back(op);
        }
      }
      // The power must have gone where planned, not at a quiet point after
      // kMaxOps.
      ASSERT_TRUE(power.files.lost_at_strike_point())
          << "no power loss at " << StrikePointName(point) << " " << strike
          << " within " << kMaxOps << " ops";
      power.files.LosePower();
      const Op refused = WorkloadOp(kSeed, next_op++);
      EXPECT_FALSE((*db)->Apply(refused, /*sync=*/true).ok());
      maybe.push_back(refused);
    }
    absl::StatusOr<SyncedFiles::Dropped> dropped = power.files.DropUnsynced();
    ASSERT_TRUE(dropped.ok()) << dropped.status();
    total.files_cut += dropped->files_cut;
    total.bytes_cut += dropped->bytes_cut;
    total.files_removed += dropped->files_removed;

    // Outlives the database it listens to.
    RebuildCauses rebuilds;
    absl::StatusOr<std::unique_ptr<CrashDb>> db =
        CrashDb::Open(config, dir.path(), power.envs(),
                      config.presence_filtered ? &rebuilds : nullptr);
    ASSERT_TRUE(db.ok()) << db.status();
    ASSERT_EQ(CheckReopened(db->get(), model, maybe, kNeverWrittenKeys),
              absl::OkStatus());
    // A save is synced before its rename: a power loss leaves the old saved
    // file or the new one, never a damaged one. Every rebuild begun since
    // the open is checked (the open's has ended once CheckReopened saw the
    // filter serve), not only Stats().last_rebuild, which a rebuild for the
    // rate begun after the open's would replace.
    for (const std::string& cause : rebuilds.causes()) {
      EXPECT_NE(cause,
                PresenceRebuildReasonName(PresenceRebuildReason::kDamaged))
          << "the saved filter was damaged at the reopen; rebuilds since: "
          << absl::StrJoin(rebuilds.causes(), ", ");
    }
    ASSERT_EQ(ResolveMaybe(maybe, (*db)->AsLookup(), &model), absl::OkStatus());
    if (loss + 1 == power_losses) {
      CrashDb::LiveTables live = (*db)->PinLiveTables();
      tables = CheckTableFilters(config, live.paths, filter_name);
    }
  }
  ASSERT_TRUE(tables.ok()) << tables.status();
  EXPECT_GT(*tables, 0);
  std::printf(
      "%s: %d power losses, each where planned, cut %d files by %llu "
      "bytes and removed %d; %d tables with filter %s, %zu keys present\n",
      config.Name().c_str(), power_losses, total.files_cut,
      static_cast<unsigned long long>(total.bytes_cut), total.files_removed,
      *tables, filter_name.c_str(), model.present());
}

INSTANTIATE_TEST_SUITE_P(AllConfigs, PowerLossTest,
                         ::testing::ValuesIn(AllCrashConfigs()),
                         ::testing::PrintToStringParamName());

}  // namespace
}  // namespace test
}  // namespace sstfilter
