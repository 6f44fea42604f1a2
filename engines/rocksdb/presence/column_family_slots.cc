#include "engines/rocksdb/presence/column_family_slots.h"

#include <utility>

#include "rocksdb/comparator.h"

namespace sstfilter {
namespace presence_internal {

const char* WhyUnfiltered(rocksdb::ColumnFamilyHandle* handle) {
  const rocksdb::Comparator* comparator = handle->GetComparator();
  if (comparator->timestamp_size() > 0) {
    return "its comparator carries user-defined timestamps";
  }
  if (comparator->CanKeysWithDifferentByteContentsBeEqual()) {
    return "its comparator may call keys of different bytes equal";
  }
  if (handle->GetID() >= kMaxFilteredColumnFamilies) {
    return "its id is past the filtered column families' limit";
  }
  return nullptr;
}

void ColumnFamilySlots::Add(std::unique_ptr<ColumnFamilyFilter> filter) {
  slots_[filter->id()].store(filter.get(), std::memory_order_release);
  std::lock_guard<std::mutex> lock(owned_mutex_);
  owned_.push_back(std::move(filter));
}

std::vector<ColumnFamilyFilter*> ColumnFamilySlots::All() const {
  std::lock_guard<std::mutex> lock(owned_mutex_);
  std::vector<ColumnFamilyFilter*> filters;
  for (const auto& filter : owned_) filters.push_back(filter.get());
  return filters;
}

void ColumnFamilySlots::ForEach(
    const std::function<bool(ColumnFamilyFilter*)>& visit) const {
  std::lock_guard<std::mutex> lock(owned_mutex_);
  for (const auto& filter : owned_) {
    if (!visit(filter.get())) return;
  }
}

}  // namespace presence_internal
}  // namespace sstfilter
