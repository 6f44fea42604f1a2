// The presence-filtered crash configuration does what the kill and
// power-loss tests count on: its workload outgrows the filter it starts
// with, so that the filter is rebuilt for its rate (kRateAboveTarget) in the
// background while writes go on, and every key is still found through the
// wrapper afterwards.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "gtest/gtest.h"
#include "table/testing/real_tables.h"
#include "tests/crash/background_work.h"
#include "tests/crash/crash_db.h"
#include "tests/crash/rebuild_causes.h"
#include "tests/crash/reopen_checks.h"
#include "tests/crash/workload.h"

namespace sstfilter {
namespace test {
namespace {

constexpr uint64_t kSeed = 26;
// The filter starts sized for a quarter of the key space, which the
// workload fills within a few thousand ops; a flush follows every few
// hundred.
constexpr uint64_t kMaxOps = 20000;
constexpr size_t kNeverWrittenKeys = 1000;

// Whether cause is among causes.
bool Contains(const std::vector<std::string>& causes,
              const std::string& cause) {
  return std::find(causes.begin(), causes.end(), cause) != causes.end();
}

TEST(PresenceGrowthTest, TheWorkloadOutgrowsTheFilter) {
  absl::StatusOr<CrashConfig> config = ParseCrashConfig("rocksdb_presence");
  ASSERT_TRUE(config.ok()) << config.status();
  const std::string for_rate =
      PresenceRebuildReasonName(PresenceRebuildReason::kRateAboveTarget);
  RebuildCauses rebuilds;
  TempDir dir;
  absl::StatusOr<std::unique_ptr<CrashDb>> db =
      CrashDb::Open(*config, dir.path(), {}, &rebuilds);
  ASSERT_TRUE(db.ok()) << db.status();
  Model model;
  uint64_t ops = 0;
  for (; ops < kMaxOps && !Contains(rebuilds.causes(), for_rate); ++ops) {
    const Op op = WorkloadOp(kSeed, ops);
    ASSERT_EQ((*db)->Apply(op, /*sync=*/false), absl::OkStatus());
    model.Apply(op);
  }
  EXPECT_TRUE(Contains(rebuilds.causes(), for_rate))
      << "no rebuild for the rate within " << kMaxOps << " ops";
  std::printf("a rebuild for the rate began after %llu ops, %zu keys present\n",
              static_cast<unsigned long long>(ops), model.present());
  EXPECT_EQ(CheckReopened(db->get(), model, {}, kNeverWrittenKeys),
            absl::OkStatus());
}

}  // namespace
}  // namespace test
}  // namespace sstfilter
