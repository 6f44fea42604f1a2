#include "engines/rocksdb/presence/multi_get.h"

#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "engines/rocksdb/presence/presence_core.h"

namespace sstfilter {
namespace presence_internal {
namespace {

// Batches of up to this many keys keep their lists on the stack.
constexpr size_t kBatchOnStack = 64;

absl::string_view View(const rocksdb::Slice& slice) {
  return absl::string_view(slice.data(), slice.size());
}

// True when the slice keeps a value it copies in its own buffer, not in a
// std::string its caller handed it: then a slice RocksDB filled elsewhere
// can be moved into it and leave it as RocksDB would have.
bool OwnsItsBuffer(const rocksdb::PinnableSlice& slice) {
  const char* buffer = reinterpret_cast<const char*>(
      const_cast<rocksdb::PinnableSlice&>(slice).GetSelf());
  const char* begin = reinterpret_cast<const char*>(&slice);
  return std::less_equal<const char*>()(begin, buffer) &&
         std::less<const char*>()(buffer, begin + sizeof(slice));
}

// A list of n flags, on the stack for small batches.
class Flags {
 public:
  explicit Flags(size_t n) {
    if (n > kBatchOnStack) {
      heap_.reset(new bool[n]);
      flags_ = heap_.get();
    }
  }
  bool* get() { return flags_; }

 private:
  bool on_stack_[kBatchOnStack];
  std::unique_ptr<bool[]> heap_;
  bool* flags_ = on_stack_;
};

// True when RocksDB refuses the whole batch: one key's column family handle
// is null, or carries timestamps the read does not give; RocksDB then
// answers that key InvalidArgument and every other Incomplete, which a
// NotFound from the filter would contradict.
bool FailsAsAWhole(MultiGetFamilies families, size_t num_keys) {
  if (families.each == nullptr) return false;
  for (size_t i = 0; i < num_keys; ++i) {
    if (families.each[i] == nullptr ||
        families.each[i]->GetComparator()->timestamp_size() > 0) {
      return true;
    }
  }
  return false;
}

void RuleOut(PresenceCore* core, const rocksdb::ReadOptions& options,
             size_t num_keys, MultiGetFamilies families,
             const rocksdb::Slice* keys, bool* ruled_out) {
  bool one_family = true;
  for (size_t i = 1; i < num_keys && one_family; ++i) {
    one_family = families.at(i) == families.at(0);
  }
  if (!one_family) {
    for (size_t i = 0; i < num_keys; ++i) {
      ruled_out[i] = core->RulesOut(options, families.at(i), View(keys[i]));
    }
    return;
  }
  std::vector<absl::string_view> heap_views;
  absl::string_view views_on_stack[kBatchOnStack];
  absl::string_view* views = views_on_stack;
  if (num_keys > kBatchOnStack) {
    heap_views.resize(num_keys);
    views = heap_views.data();
  }
  for (size_t i = 0; i < num_keys; ++i) views[i] = View(keys[i]);
  core->RulesOut(options, families.at(0), {views, num_keys}, ruled_out);
}

// Looks up the survivors as one batch of copies and moves each answer into
// the caller's slot. REQUIRES: every survivor's slice owns its buffer.
void LookUpGathered(const rocksdb::ReadOptions& options,
                    const std::vector<size_t>& survivors,
                    MultiGetFamilies families, const rocksdb::Slice* keys,
                    rocksdb::PinnableSlice* values, rocksdb::Status* statuses,
                    const MultiGetLookup& lookup) {
  const size_t n = survivors.size();
  std::vector<rocksdb::Slice> survivor_keys;
  std::vector<rocksdb::ColumnFamilyHandle*> survivor_families;
  survivor_keys.reserve(n);
  if (families.each != nullptr) survivor_families.reserve(n);
  for (size_t i : survivors) {
    survivor_keys.push_back(keys[i]);
    if (families.each != nullptr) survivor_families.push_back(families.each[i]);
  }
  std::vector<rocksdb::PinnableSlice> survivor_values(n);
  std::vector<rocksdb::Status> survivor_statuses(n);
  lookup(
      options, n, families.each == nullptr ? nullptr : survivor_families.data(),
      survivor_keys.data(), survivor_values.data(), survivor_statuses.data());
  for (size_t j = 0; j < n; ++j) {
    values[survivors[j]] = std::move(survivor_values[j]);
    statuses[survivors[j]] = std::move(survivor_statuses[j]);
  }
}

}  // namespace

void MultiGetThroughFilter(PresenceCore* core, rocksdb::DB* base,
                           const rocksdb::ReadOptions& options, size_t num_keys,
                           MultiGetFamilies families,
                           const rocksdb::Slice* keys,
                           rocksdb::PinnableSlice* values,
                           rocksdb::Status* statuses,
                           const MultiGetLookup& lookup) {
  if (FailsAsAWhole(families, num_keys)) {
    lookup(options, num_keys, families.each, keys, values, statuses);
    return;
  }
  Flags flags(num_keys);
  bool* ruled_out = flags.get();
  if (num_keys > 0) {
    RuleOut(core, options, num_keys, families, keys, ruled_out);
  }
  std::vector<size_t> survivors;
  bool survivors_own_buffers = true;
  size_t runs = 0;
  for (size_t i = 0; i < num_keys; ++i) {
    if (ruled_out[i]) continue;
    survivors_own_buffers = survivors_own_buffers && OwnsItsBuffer(values[i]);
    if (i == 0 || ruled_out[i - 1]) ++runs;
    survivors.push_back(i);
  }
  if (survivors.size() == num_keys) {
    lookup(options, num_keys, families.each, keys, values, statuses);
    return;
  }
  for (size_t i = 0; i < num_keys; ++i) {
    if (!ruled_out[i]) continue;
    values[i].Reset();  // as RocksDB leaves a key it does not find
    statuses[i] = rocksdb::Status::NotFound();
  }
  if (survivors.empty()) return;
  if (survivors_own_buffers) {
    LookUpGathered(options, survivors, families, keys, values, statuses,
                   lookup);
    return;
  }
  // A caller's buffer cannot move into a copy and back, so each run of
  // survivors is looked up in place, all at one snapshot.
  rocksdb::ReadOptions run_options = options;
  const rocksdb::Snapshot* snapshot = nullptr;
  if (options.snapshot == nullptr && runs > 1) {
    snapshot = base->GetSnapshot();
    run_options.snapshot = snapshot;
  }
  for (size_t i = 0; i < num_keys;) {
    if (ruled_out[i]) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < num_keys && !ruled_out[end]) ++end;
    lookup(run_options, end - i,
           families.each == nullptr ? nullptr : families.each + i, keys + i,
           values + i, statuses + i);
    i = end;
  }
  if (snapshot != nullptr) base->ReleaseSnapshot(snapshot);
}

}  // namespace presence_internal
}  // namespace sstfilter
