#include "tests/crash/kill_rounds.h"

#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "table/testing/real_tables.h"
#include "tests/crash/background_work.h"
#include "tests/crash/reopen_checks.h"
#include "tests/crash/workload.h"
#include "tests/crash/writer_process.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace test {
namespace {

// The workload's seed, printed with any failure; the kill delays come from it
// too, but where a kill lands depends on the machine.
constexpr uint64_t kSeed = 26;
// A timer kill comes this long after the writer's first acknowledged write:
// from a database just recovered (whose recovery may still be compacting)
// to many flushes in.
constexpr int kMinTimerKillMs = 50;
constexpr int kMaxTimerKillMs = 700;
// An aimed kill's point in its work (KillPlan::fraction): one of this many
// evenly spaced fractions.
constexpr uint64_t kFractionSteps = 16;
// Never-written keys looked up at each check.
constexpr size_t kNeverWrittenKeys = 1000;
// Ops written in-process while a snapshot is held.
constexpr uint64_t kOpsUnderSnapshot = 300;
// Ops the database has seen at the end, written in-process when the writer
// wrote fewer: enough for several flushes, so there are tables to check.
constexpr uint64_t kMinTotalOps = 3000;

// The aims of config's rounds, which take turns: a timer (nullopt), then
// each kind of background work.
std::vector<std::optional<BackgroundKind>> AimsOf(const CrashConfig& config) {
  std::vector<std::optional<BackgroundKind>> aims = {std::nullopt};
  for (BackgroundKind kind : BackgroundKindsOf(config)) aims.push_back(kind);
  return aims;
}

// Kills aimed at one kind of work, and how many landed inside it.
struct AimedKills {
  int aimed = 0;
  int landed = 0;
  int gave_up = 0;  // rounds that never reached their aim
  int missed = 0;   // rounds that reached it and died outside it
};

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

// Whether budget lets another round of config start, after rounds that
// began at start.
bool MoreRounds(const CrashConfig& config, const KillBudget& budget, int rounds,
                std::chrono::steady_clock::time_point start) {
  if (rounds < MinKillRounds(config)) return true;
  if (budget.rounds.has_value() && rounds >= *budget.rounds) return false;
  if (budget.time.has_value() &&
      std::chrono::steady_clock::now() - start >= *budget.time) {
    return false;
  }
  return budget.rounds.has_value() || budget.time.has_value();
}

// "3 flush, 5 compaction": counts by name.
template <typename Key, typename NameOf>
std::string Counts(const std::map<Key, int>& counts, NameOf name_of) {
  std::string text;
  for (const auto& [key, count] : counts) {
    absl::StrAppend(&text, text.empty() ? "" : ", ", count, " ", name_of(key));
  }
  return text.empty() ? "none" : text;
}

}  // namespace

int MinKillRounds(const CrashConfig& config) {
  return 2 * static_cast<int>(AimsOf(config).size());
}

void RunKillRounds(const CrashConfig& config, const KillBudget& budget) {
  const uint64_t seed = kSeed;
  Random rng(seed);
  TempDir dir;
  Model model;
  uint64_t next_op = 0;
  int snapshot_checks = 0;
  size_t acknowledged = 0;
  std::map<BackgroundKind, int> begun;
  std::map<std::string, int> rebuild_causes;
  std::map<BackgroundKind, AimedKills> aimed_at;
  FilterUse filter_use;
  const std::vector<std::optional<BackgroundKind>> aims = AimsOf(config);
  int rounds = 0;
  const auto start = std::chrono::steady_clock::now();
  for (; MoreRounds(config, budget, rounds, start); ++rounds) {
    SCOPED_TRACE(::testing::Message()
                 << config.Name() << " seed " << seed << " round " << rounds);
    KillPlan plan;
    plan.aim = aims[rounds % aims.size()];
    plan.delay =
        std::chrono::milliseconds(rng.Range(kMinTimerKillMs, kMaxTimerKillMs));
    plan.fraction =
        static_cast<double>(rng.Uniform(kFractionSteps)) / kFractionSteps;
    absl::StatusOr<WriterRound> run =
        RunWriterAndKill(config, dir.path(), seed, next_op, plan);
    ASSERT_TRUE(run.ok()) << run.status();
    ASSERT_EQ(run->failure, "");
    ASSERT_GT(run->acknowledged.size(), 0u)
        << "the writer acknowledged no write before the kill";
    if (plan.aim.has_value()) {
      AimedKills& kills = aimed_at[*plan.aim];
      ++kills.aimed;
      if (run->died_in(*plan.aim)) ++kills.landed;
      if (!run->aim_taken) ++kills.gave_up;
      if (run->aim_taken && !run->died_in(*plan.aim)) ++kills.missed;
    }
    for (const auto& [kind, n] : run->begun) begun[kind] += n;
    for (const auto& [cause, n] : run->rebuild_causes) {
      rebuild_causes[cause] += n;
    }

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
    ASSERT_EQ(
        CheckReopened(db->get(), model, maybe, kNeverWrittenKeys, &filter_use),
        absl::OkStatus());
    ASSERT_EQ(ResolveMaybe(maybe, (*db)->AsLookup(), &model), absl::OkStatus());
    CheckSnapshotAcrossWrites(db->get(), seed, &next_op, &model);
    if (::testing::Test::HasFatalFailure()) return;
  }

  // The last check: enough writes for tables, an orderly close and reopen,
  // and every table's filter.
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
    ASSERT_EQ((*db)->Close(), absl::OkStatus());
  }
  absl::StatusOr<std::unique_ptr<CrashDb>> db =
      CrashDb::Open(config, dir.path());
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_EQ(CheckReopened(db->get(), model, {}, kNeverWrittenKeys, &filter_use),
            absl::OkStatus());
  CrashDb::LiveTables live = (*db)->PinLiveTables();
  absl::StatusOr<int> tables =
      CheckTableFilters(config, live.paths, filter_name);
  ASSERT_TRUE(tables.ok()) << tables.status();
  EXPECT_GT(*tables, 0);
  std::string landings;
  for (const auto& [kind, kills] : aimed_at) {
    absl::StrAppend(&landings, "; ", kills.landed, " of ", kills.aimed,
                    " aimed at a ", BackgroundKindName(kind),
                    " landed inside one");
    if (kills.gave_up > 0) {
      absl::StrAppend(&landings, " (", kills.gave_up, " never saw one begin)");
    }
  }
  std::printf(
      "%s: %d kills%s; the writers reported work begun (%s) and acknowledged "
      "%zu writes, and read back %d snapshots; %d tables with filter %s, %zu "
      "keys present\n",
      config.Name().c_str(), rounds, landings.c_str(),
      Counts(begun, BackgroundKindName).c_str(), acknowledged, snapshot_checks,
      *tables, filter_name.c_str(), model.present());
  if (config.presence_filtered) {
    std::printf(
        "%s: rebuilds begun by cause (%s); %d checks with a serving filter "
        "let %llu of %llu lookups and %llu of %llu seeks of never-written "
        "keys through to RocksDB\n",
        config.Name().c_str(),
        Counts(rebuild_causes, [](const std::string& s) { return s; }).c_str(),
        filter_use.serving_checks,
        static_cast<unsigned long long>(filter_use.reached_rocksdb),
        static_cast<unsigned long long>(filter_use.absent_lookups),
        static_cast<unsigned long long>(filter_use.seeks_reached_rocksdb),
        static_cast<unsigned long long>(filter_use.absent_seeks));
  }

  // Where the aimed kills landed.
  for (const auto& [kind, kills] : aimed_at) {
    const char* const name = BackgroundKindName(kind);
    // The writer is stopped, and its reports read, before an aimed kill:
    // one taken at its aim lands inside it.
    EXPECT_EQ(kills.missed, 0)
        << "kills taken at a " << name << " landed outside one";
    EXPECT_GE(kills.landed, 1)
        << "no kill aimed at a " << name << " landed inside one; "
        << kills.gave_up << " rounds never saw one begin";
    EXPECT_GE(2 * kills.landed, kills.aimed)
        << "fewer than half the kills aimed at a " << name
        << " landed inside one; " << kills.gave_up
        << " rounds never saw one begin";
  }
}

}  // namespace test
}  // namespace sstfilter
