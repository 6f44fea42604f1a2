// CheckRates' contract: which filters it asks to rebuild, why, and in what
// order; the filters it leaves alone.

#include "engines/rocksdb/presence/rate_checks.h"

#include <memory>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engines/rocksdb/presence/rebuilds.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace presence_internal {
namespace {

constexpr double kFpp = 0.01;
constexpr uint64_t kExpectedKeys = 1000;
constexpr double kMaxRate = 2 * kFpp;

class RateChecksTest : public ::testing::Test {
 protected:
  // A column family whose filter serves, holding keys keys.
  std::unique_ptr<ColumnFamilyFilter> Serving(uint32_t id, uint64_t keys) {
    auto filter = Building(id);
    std::unique_lock<WritersLock> lock(writers_);
    filter->PromoteBuilding();
    for (uint64_t i = 0; i < keys; ++i) filter->Add(absl::StrCat("key", i));
    return filter;
  }
  // A column family whose filter is being filled, none serving.
  std::unique_ptr<ColumnFamilyFilter> Building(uint32_t id) {
    auto filter = std::make_unique<ColumnFamilyFilter>(id, absl::StrCat(id));
    PresenceFilterOptions options;
    options.fpp = kFpp;
    options.expected_keys = kExpectedKeys;
    absl::StatusOr<std::unique_ptr<PresenceFilter>> fresh =
        NewFilter(options, kExpectedKeys, PrefixItems());
    EXPECT_TRUE(fresh.ok()) << fresh.status();
    std::unique_lock<WritersLock> lock(writers_);
    filter->InstallBuilding(*std::move(fresh));
    return filter;
  }

  // "<column family>:<reason>" of each rebuild asked for, in order.
  std::vector<std::string> Check(
      const std::vector<ColumnFamilyFilter*>& filters) {
    std::vector<std::string> rebuilds;
    CheckRates(filters, kMaxRate, &writers_, &epochs_,
               [&](ColumnFamilyFilter* filter, PresenceRebuildReason reason) {
                 rebuilds.push_back(absl::StrCat(
                     filter->name(), ":", PresenceRebuildReasonName(reason)));
               });
    return rebuilds;
  }

  WritersLock writers_;
  ReadEpochs epochs_;
};

TEST_F(RateChecksTest, RebuildsAFilterPastItsRate) {
  auto within = Serving(1, kExpectedKeys);
  auto past = Serving(2, 20 * kExpectedKeys);
  EXPECT_EQ(Check({within.get(), past.get()}),
            std::vector<std::string>{absl::StrCat(
                "2:", PresenceRebuildReasonName(
                          PresenceRebuildReason::kRateAboveTarget))});
}

TEST_F(RateChecksTest, RetriesAFilterThatServesNoMoreForItsLastReason) {
  auto failed = std::make_unique<ColumnFamilyFilter>(1, "1");
  failed->RecordRebuildStart(PresenceRebuildReason::kImported);
  failed->RecordRebuildEnd(absl::UnavailableError("no space"));
  auto stopped = Serving(2, 0);
  stopped->StopServing();
  stopped->RecordRebuildStart(PresenceRebuildReason::kRequested);
  EXPECT_EQ(Check({failed.get(), stopped.get()}),
            (std::vector<std::string>{
                absl::StrCat("1:", PresenceRebuildReasonName(
                                       PresenceRebuildReason::kImported)),
                absl::StrCat("2:", PresenceRebuildReasonName(
                                       PresenceRebuildReason::kRequested))}));
}

TEST_F(RateChecksTest, LeavesBuildingAndCancelledFiltersAlone) {
  // A rebuild under way: it sizes the filter anew.
  auto building = Building(1);
  auto rebuilding = Serving(2, 20 * kExpectedKeys);
  {
    absl::StatusOr<std::unique_ptr<PresenceFilter>> fresh =
        NewFilter(PresenceFilterOptions(), kExpectedKeys, PrefixItems());
    ASSERT_TRUE(fresh.ok()) << fresh.status();
    std::unique_lock<WritersLock> lock(writers_);
    rebuilding->InstallBuilding(*std::move(fresh));
  }
  // A dropped column family.
  auto cancelled = Serving(3, 20 * kExpectedKeys);
  cancelled->cancelled().store(true);
  auto unserved = std::make_unique<ColumnFamilyFilter>(4, "4");
  unserved->cancelled().store(true);
  EXPECT_EQ(Check({building.get(), rebuilding.get(), cancelled.get(),
                   unserved.get()}),
            std::vector<std::string>());
}

}  // namespace
}  // namespace presence_internal
}  // namespace sstfilter
