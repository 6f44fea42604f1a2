#include "engines/rocksdb/presence/column_family_filter.h"

namespace sstfilter {
namespace presence_internal {

std::unique_ptr<PresenceFilter> ColumnFamilyFilter::PromoteBuilding() {
  std::unique_ptr<PresenceFilter> replaced = std::move(serving_owned_);
  serving_owned_ = std::move(building_);
  serving_.store(serving_owned_.get(), std::memory_order_seq_cst);
  return replaced;
}

PresenceFilterStats ColumnFamilyFilter::Stats() const {
  PresenceFilterStats stats;
  {
    std::lock_guard<std::mutex> lock(stats_mutex_);
    stats.last_rebuild = last_rebuild_;
    stats.rebuilds = rebuilds_;
    stats.last_error = last_error_;
  }
  const PresenceFilter* serving = this->serving();
  const PresenceFilter* building = building_.get();
  stats.state = serving != nullptr    ? PresenceFilterState::kServing
                : building != nullptr ? PresenceFilterState::kRecovering
                                      : PresenceFilterState::kUnfiltered;
  if (serving != nullptr) {
    stats.memory_bytes += serving->keys.MemoryBytes();
    stats.expected_keys = serving->keys.ExpectedKeys();
    stats.approximate_keys = serving->keys.ApproximateCount();
    stats.expected_fpp = serving->keys.ExpectedFpp();
  }
  if (building != nullptr) stats.memory_bytes += building->keys.MemoryBytes();
  return stats;
}

void ColumnFamilyFilter::RecordRebuildStart(PresenceRebuildReason reason) {
  std::lock_guard<std::mutex> lock(stats_mutex_);
  last_rebuild_ = reason;
}

void ColumnFamilyFilter::RecordRebuildEnd(const absl::Status& status) {
  std::lock_guard<std::mutex> lock(stats_mutex_);
  last_error_ = status;
  if (status.ok()) ++rebuilds_;
}

}  // namespace presence_internal
}  // namespace sstfilter
