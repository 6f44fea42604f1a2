// The presence-filtered crash configuration does what the kill and
// power-loss tests count on: its workload outgrows the filter it starts
// with, so that the filter is rebuilt for its rate (kRateAboveTarget) in the
// background while writes go on, and every key is still found through the
// wrapper afterwards.

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "absl/synchronization/mutex.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "gtest/gtest.h"
#include "table/testing/real_tables.h"
#include "tests/crash/background_work.h"
#include "tests/crash/crash_db.h"
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

// Counts the rebuilds begun, by cause.
class RebuildCounter : public BackgroundWorkListener {
 public:
  void Began(BackgroundKind kind, uint64_t /*id*/,
             const std::string& cause) override {
    if (kind != BackgroundKind::kRebuild) return;
    absl::MutexLock lock(&mu_);
    ++causes_[cause];
  }
  void Ended(BackgroundKind, uint64_t) override {}

  int begun(const std::string& cause) {
    absl::MutexLock lock(&mu_);
    return causes_[cause];
  }

 private:
  absl::Mutex mu_;
  std::map<std::string, int> causes_ ABSL_GUARDED_BY(mu_);
};

TEST(PresenceGrowthTest, TheWorkloadOutgrowsTheFilter) {
  absl::StatusOr<CrashConfig> config = ParseCrashConfig("rocksdb_presence");
  ASSERT_TRUE(config.ok()) << config.status();
  const std::string for_rate =
      PresenceRebuildReasonName(PresenceRebuildReason::kRateAboveTarget);
  RebuildCounter rebuilds;
  TempDir dir;
  absl::StatusOr<std::unique_ptr<CrashDb>> db =
      CrashDb::Open(*config, dir.path(), {}, &rebuilds);
  ASSERT_TRUE(db.ok()) << db.status();
  Model model;
  uint64_t ops = 0;
  for (; ops < kMaxOps && rebuilds.begun(for_rate) == 0; ++ops) {
    const Op op = WorkloadOp(kSeed, ops);
    ASSERT_EQ((*db)->Apply(op, /*sync=*/false), absl::OkStatus());
    model.Apply(op);
  }
  EXPECT_GT(rebuilds.begun(for_rate), 0)
      << "no rebuild for the rate within " << kMaxOps << " ops";
  std::printf("a rebuild for the rate began after %llu ops, %zu keys present\n",
              static_cast<unsigned long long>(ops), model.present());
  EXPECT_EQ(CheckReopened(db->get(), model, {}, kNeverWrittenKeys),
            absl::OkStatus());
}

}  // namespace
}  // namespace test
}  // namespace sstfilter
