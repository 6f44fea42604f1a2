#include "engines/rocksdb/presence/column_family_filter.h"

#include "absl/container/inlined_vector.h"
#include "engines/rocksdb/presence/range_items.h"

namespace sstfilter {
namespace presence_internal {

std::string PrefixItems::Name() const {
  return extractor == nullptr ? std::string() : extractor->AsString();
}

void PresenceFilter::AddSingleWriter(absl::string_view key) {
  keys.AddSingleWriter(key);
  if (alphabets != nullptr) {
    AddRangeItemsSingleWriter(key, alphabets.get(), &keys);
  }
  const rocksdb::SliceTransform* extractor = prefixes.extractor.get();
  if (extractor == nullptr) return;
  const rocksdb::Slice slice(key.data(), key.size());
  if (!extractor->InDomain(slice)) return;
  const rocksdb::Slice prefix = extractor->Transform(slice);
  keys.AddSingleWriter(absl::string_view(prefix.data(), prefix.size()));
}

void PresenceFilter::AddSingleWriter(
    absl::Span<const absl::string_view> batch) {
  keys.AddSingleWriter(batch);
  if (alphabets != nullptr) {
    for (absl::string_view key : batch) {
      AddRangeItemsSingleWriter(key, alphabets.get(), &keys);
    }
  }
  const rocksdb::SliceTransform* extractor = prefixes.extractor.get();
  if (extractor == nullptr) return;
  absl::InlinedVector<absl::string_view, 32> prefix_items;
  prefix_items.reserve(batch.size());
  for (absl::string_view key : batch) {
    const rocksdb::Slice slice(key.data(), key.size());
    if (!extractor->InDomain(slice)) continue;
    const rocksdb::Slice prefix = extractor->Transform(slice);
    prefix_items.emplace_back(prefix.data(), prefix.size());
  }
  keys.AddSingleWriter(prefix_items);
}

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
