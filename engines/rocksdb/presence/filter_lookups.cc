#include "engines/rocksdb/presence/filter_lookups.h"

#include <algorithm>
#include <optional>

#include "engines/rocksdb/presence/range_items.h"
#include "rocksdb/comparator.h"
#include "rocksdb/env.h"
#include "rocksdb/version.h"

namespace sstfilter {
namespace presence_internal {

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
