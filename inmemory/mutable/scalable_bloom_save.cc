// ScalableBloomFilter::Save and Restore: the options, then each layer's key
// count and its MutableBloomFilter's saved fields, in the saved filter
// envelope (filter/internal/saved_filter.h); the layout is in
// inmemory/mutable/README.md, "Saving and restoring".

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "filter/internal/saved_filter.h"
#include "inmemory/mutable/mutable_bloom.h"
#include "inmemory/mutable/scalable_bloom.h"
#include "inmemory/mutable/scalable_layer.h"
#include "util/coding.h"

namespace sstfilter {

using filter_internal::PutSavedDouble;
using filter_internal::SavedDataLoss;
using filter_internal::SavedFieldReader;
using filter_internal::SavedKind;

namespace {

constexpr SavedKind kKind = SavedKind::kScalableBloom;
// The fields before the layers: fpp, initial_keys, growth, tightening and the
// number of layers, 8 bytes each.
constexpr size_t kOptionsBytes = 40;

}  // namespace

std::string ScalableBloomFilter::Save() const {
  const size_t n = NumLayers();
  std::string saved;
  saved.reserve(filter_internal::kSavedMinBytes + kOptionsBytes +
                n * (sizeof(uint64_t) + MutableBloomFilter::kSavedShapeBytes) +
                MemoryBytes());
  filter_internal::StartSaved(kKind, &saved);
  PutSavedDouble(&saved, options_.fpp);
  PutFixed64(&saved, options_.initial_keys);
  PutSavedDouble(&saved, options_.growth);
  PutSavedDouble(&saved, options_.tightening);
  PutFixed64(&saved, n);
  for (size_t i = 0; i < n; ++i) {
    const Layer& l = layer(i);
    const size_t keys_at = saved.size();
    PutFixed64(&saved, 0);
    l.filter.AppendSavedFields(&saved);
    // Read after the words: every Add that happened before Save is counted.
    EncodeFixed64(&saved[keys_at], l.Keys());
  }
  filter_internal::FinishSaved(&saved);
  return saved;
}

absl::StatusOr<std::unique_ptr<ScalableBloomFilter>>
ScalableBloomFilter::Restore(absl::string_view saved) {
  const absl::StatusOr<absl::string_view> fields =
      filter_internal::OpenSaved(kKind, saved);
  if (!fields.ok()) return fields.status();
  SavedFieldReader in(*fields);
  ScalableBloomOptions options;
  options.fpp = in.Double();
  options.initial_keys = in.Fixed64();
  options.growth = in.Double();
  options.tightening = in.Double();
  const uint64_t num_layers = in.Fixed64();
  if (in.overran()) {
    return SavedDataLoss(
        kKind,
        absl::StrCat("truncated: ", fields->size(), " bytes, fewer than the ",
                     kOptionsBytes, " of the options and layer count"));
  }
  if (absl::Status valid = ValidateOptions(options); !valid.ok()) {
    return SavedDataLoss(kKind, valid.message());
  }
  if (num_layers < 1 || num_layers > kMaxScalableLayers) {
    return SavedDataLoss(
        kKind, absl::StrCat("layer count ", num_layers, " outside [1, ",
                            kMaxScalableLayers, "]"));
  }
  std::unique_ptr<ScalableBloomFilter> filter(new ScalableBloomFilter(options));
  for (size_t i = 0; i < num_layers; ++i) {
    const std::string context = absl::StrCat("layer ", i, ": ");
    const auto error = [&](const auto&... what) {
      return SavedDataLoss(kKind, absl::StrCat(context, what...));
    };
    const uint64_t keys = in.Fixed64();
    if (in.overran()) return error("truncated: no key count");
    const absl::StatusOr<LayerTarget> target = filter->TargetOf(i);
    if (!target.ok()) return SavedDataLoss(kKind, target.status().message());
    if (keys > target->capacity) {
      return error(keys, " keys, more than its capacity of ", target->capacity);
    }
    // A layer is made when the one before holds its capacity.
    if (i + 1 < num_layers && keys != target->capacity) {
      return error(keys, " keys of ", target->capacity,
                   ", yet a newer layer exists");
    }
    absl::StatusOr<MutableBloomFilter> bloom =
        MutableBloomFilter::ReadSavedFields(kKind, context, &in);
    if (!bloom.ok()) return bloom.status();
    if (bloom->ExpectedKeys() != target->capacity) {
      return error("sized for ", bloom->ExpectedKeys(),
                   " keys, but the options give it a capacity of ",
                   target->capacity);
    }
    if (!bloom->self_checksum_) {
      return error("saved without self_checksum, which every layer has");
    }
    filter->layers_[i].store(
        new Layer(*std::move(bloom), target->capacity, target->fpp, keys),
        std::memory_order_relaxed);
    // Counted as it is made: the destructor frees the layers made so far
    // when a later one is refused.
    filter->num_layers_.store(i + 1, std::memory_order_release);
  }
  if (absl::Status end = filter_internal::SavedFieldsEnd(kKind, in);
      !end.ok()) {
    return end;
  }
  return filter;
}

}  // namespace sstfilter
