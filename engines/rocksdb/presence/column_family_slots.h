// Which column families get a filter, and where each one's filter is found:
// a slot per column family id, read without a lock on every lookup and write.

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_COLUMN_FAMILY_SLOTS_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_COLUMN_FAMILY_SLOTS_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "engines/rocksdb/presence/column_family_filter.h"
#include "rocksdb/db.h"

namespace sstfilter {
namespace presence_internal {

// Column families with an id at or above this get no filter (ids grow by one
// per column family ever created; a database rarely has more than a few).
constexpr uint32_t kMaxFilteredColumnFamilies = 4096;

// Why a column family gets no filter, or null when it gets one.
const char* WhyUnfiltered(rocksdb::ColumnFamilyHandle* handle);

// Any thread.
class ColumnFamilySlots {
 public:
  // default_handle: the database's DefaultColumnFamily(), which lives as long
  // as the database. Lookups through it, the most common, skip the handle's
  // virtual GetID().
  explicit ColumnFamilySlots(rocksdb::ColumnFamilyHandle* default_handle)
      : default_handle_(default_handle), default_id_(default_handle->GetID()) {}

  // The filter of a column family, or null (no filter: pass through).
  ColumnFamilyFilter* Of(rocksdb::ColumnFamilyHandle* handle) const {
    if (handle == default_handle_) return Of(default_id_);
    return handle == nullptr ? nullptr : Of(handle->GetID());
  }
  ColumnFamilyFilter* Of(uint32_t column_family_id) const {
    if (column_family_id >= kMaxFilteredColumnFamilies) return nullptr;
    return slots_[column_family_id].load(std::memory_order_acquire);
  }

  // Publishes filter in its id's slot and keeps it until destruction.
  // REQUIRES: WhyUnfiltered of its column family is null.
  void Add(std::unique_ptr<ColumnFamilyFilter> filter);

  // Every filter, in the order they were added.
  std::vector<ColumnFamilyFilter*> All() const;
  // Calls visit with each filter in the order they were added, holding off
  // Add meanwhile, until visit returns false.
  void ForEach(const std::function<bool(ColumnFamilyFilter*)>& visit) const;

 private:
  rocksdb::ColumnFamilyHandle* const default_handle_;
  const uint32_t default_id_;
  std::array<std::atomic<ColumnFamilyFilter*>, kMaxFilteredColumnFamilies>
      slots_{};
  mutable std::mutex owned_mutex_;  // guards owned_
  std::vector<std::unique_ptr<ColumnFamilyFilter>> owned_;
};

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_COLUMN_FAMILY_SLOTS_H_
