#include "engines/rocksdb/presence/filter_lookups.h"

#include <algorithm>
#include <optional>

#include "engines/rocksdb/presence/range_items.h"
#include "rocksdb/comparator.h"
#include "rocksdb/env.h"
#include "rocksdb/version.h"

namespace sstfilter {
namespace presence_internal {
namespace {

// Whether a lookup with these options may be answered from a filter, which
// holds every key an ordinary read of the current state can return.
bool FilterMayAnswer(const rocksdb::ReadOptions& options) {
  // Reads that can see more than that: keys under range tombstones, and
  // history at a read timestamp.
  if (options.ignore_range_deletions || options.timestamp != nullptr) {
    return false;
  }
  // Tiers that stop at what is in memory answer Incomplete, not NotFound,
  // for a key they cannot rule out: RocksDB's answer, which the filter's
  // NotFound would not equal.
  if (options.read_tier != rocksdb::kReadAllTier &&
      options.read_tier != rocksdb::kPersistedTier) {
    return false;
  }
#if ROCKSDB_MAJOR >= 9
  // RocksDB refuses a lookup that names another activity (InvalidArgument).
  if (options.io_activity != rocksdb::Env::IOActivity::kUnknown) return false;
#endif
  return true;
}

}  // namespace

const PresenceFilter* FilterLookups::ServingFor(
    const rocksdb::ReadOptions& options,
    rocksdb::ColumnFamilyHandle* handle) const {
  ColumnFamilyFilter* filter = slots_->Of(handle);
  if (filter == nullptr || !FilterMayAnswer(options)) return nullptr;
  const PresenceFilter* serving = filter->serving();
  if (serving == nullptr) return nullptr;
  if (options.snapshot != nullptr &&
      options.snapshot->GetSequenceNumber() < serving->oldest_snapshot) {
    return nullptr;
  }
  return serving;
}

bool FilterLookups::RulesOut(const rocksdb::ReadOptions& options,
                             rocksdb::ColumnFamilyHandle* handle,
                             absl::string_view key) {
  ProbeSampling::Slot* sampling = nullptr;
  if (skip_probes_) {
    sampling = sampling_.Mine();
    if (!ProbeSampling::ShouldProbe(sampling)) return false;
  }
  bool ruled_out = false;
  {
    ReadEpochs::Guard guard(epochs_);
    if (!guard.active()) return false;
    const PresenceFilter* serving = ServingFor(options, handle);
    if (serving == nullptr) return false;
    ruled_out = !serving->keys.MayContain(key);
  }
  ProbeSampling::Record(sampling, ruled_out);
  return ruled_out;
}

void FilterLookups::RulesOut(const rocksdb::ReadOptions& options,
                             rocksdb::ColumnFamilyHandle* handle,
                             absl::Span<const absl::string_view> keys,
                             bool* results) {
  std::fill(results, results + keys.size(), false);
  ReadEpochs::Guard guard(epochs_);
  if (!guard.active()) return;
  const PresenceFilter* serving = ServingFor(options, handle);
  if (serving == nullptr) return;
  serving->keys.MayContain(keys, results);
  for (size_t i = 0; i < keys.size(); ++i) results[i] = !results[i];
}

bool FilterLookups::MayAnswerSeeks(const rocksdb::ReadOptions& options,
                                   rocksdb::ColumnFamilyHandle* handle) const {
  return answers_seeks_ &&
         (options.prefix_same_as_start ||
          options.iterate_upper_bound != nullptr ||
          options.iterate_lower_bound != nullptr) &&
         FilterMayAnswer(options) && slots_->Of(handle) != nullptr;
}

bool FilterLookups::RulesOutSeek(const rocksdb::ReadOptions& options,
                                 rocksdb::ColumnFamilyHandle* handle,
                                 uint64_t prefix_generation,
                                 absl::string_view target,
                                 SeekDirection direction) {
  ReadEpochs::Guard guard(epochs_);
  if (!guard.active()) return false;
  const PresenceFilter* serving = ServingFor(options, handle);
  if (serving == nullptr) return false;
  const rocksdb::Comparator* comparator = handle->GetComparator();
  const rocksdb::SliceTransform* extractor = serving->prefixes.extractor.get();
  if (extractor != nullptr &&
      serving->prefixes.generation == prefix_generation &&
      slots_->Of(handle)->prefix_generation() == prefix_generation) {
    const std::optional<absl::string_view> prefix =
        SeekPrefix(options, *extractor, comparator, target, direction);
    if (prefix.has_value() && !serving->keys.MayContain(*prefix)) return true;
  }
  // Ranges are in byte order.
  if (serving->alphabets == nullptr ||
      comparator != rocksdb::BytewiseComparator()) {
    return false;
  }
  if (direction == SeekDirection::kForward) {
    const rocksdb::Slice* upper = options.iterate_upper_bound;
    return upper != nullptr &&
           !RangeMayHoldKey(*serving->alphabets, serving->keys, target,
                            absl::string_view(upper->data(), upper->size()),
                            /*hi_inclusive=*/false);
  }
  const rocksdb::Slice* lower = options.iterate_lower_bound;
  return lower != nullptr &&
         !RangeMayHoldKey(*serving->alphabets, serving->keys,
                          absl::string_view(lower->data(), lower->size()),
                          target, /*hi_inclusive=*/true);
}

}  // namespace presence_internal
}  // namespace sstfilter
