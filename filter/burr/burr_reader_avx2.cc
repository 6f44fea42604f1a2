// The bumped Ribbon filter's AVX2 reader (see burr_reader.h). Every function
// that runs the AVX2 check carries target("avx2,popcnt"), so that the code
// inlines and the library needs no global -mavx2; the policy creates this
// reader only when the CPU has AVX2.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/burr/burr_reader.h"

#if SSTFILTER_BLOOM_HAVE_AVX2_PATH

namespace sstfilter {
namespace burr_internal {
namespace {

__attribute__((target("avx2,popcnt"), always_inline)) inline bool
Avx2QueryFrom(const ParsedFilter& filter, size_t first, uint64_t layer_hash) {
  for (size_t i = first; i < filter.layers.size(); ++i) {
    const Position at =
        PositionOf(filter.layers[i], filter.columns, layer_hash);
    if (Kept(filter.layers[i], at)) {
      return ScalarCheck(at, CoeffRow(layer_hash), Fingerprint(layer_hash));
    }
    layer_hash = NextLayerHash(layer_hash);
  }
  return true;
}

__attribute__((target("avx2,popcnt"), always_inline)) inline bool
Avx2MayMatch(const ParsedFilter& filter, absl::string_view key) {
  return Avx2QueryFrom(
      filter, 0, LayerZeroHash(bloom_internal::KeyHash(key), filter.seed));
}

class Avx2Reader final : public BumpedRibbonReaderBase {
 public:
  using BumpedRibbonReaderBase::BumpedRibbonReaderBase;

  __attribute__((target("avx2,popcnt"))) bool MayMatch(
      absl::string_view key) const override {
    return Avx2MayMatch(filter_, key);
  }

  __attribute__((target("avx2,popcnt"))) void MayMatch(
      absl::Span<const absl::string_view> keys, bool* results) const override {
    BatchSlot slots[kQueryBatch];
    const ParsedLayer& layer = filter_.layers[0];
    for (size_t start = 0; start < keys.size(); start += kQueryBatch) {
      const size_t count = std::min(kQueryBatch, keys.size() - start);
      PrepareBatch(filter_, keys.data() + start, count, slots);
      for (size_t i = 0; i < count; ++i) {
        const BatchSlot& slot = slots[i];
        results[start + i] =
            Kept(layer, slot.at)
                ? ScalarCheck(slot.at, CoeffRow(slot.layer_hash),
                            Fingerprint(slot.layer_hash))
                : Avx2QueryFrom(filter_, 1, NextLayerHash(slot.layer_hash));
      }
    }
  }
};

}  // namespace

__attribute__((target("avx2,popcnt"), noinline)) bool Avx2MayMatchOutOfLine(
    const ParsedFilter& filter, absl::string_view key) {
  return Avx2MayMatch(filter, key);
}

std::unique_ptr<FilterReader> NewAvx2Reader(const ParsedFilter& filter) {
  return std::make_unique<Avx2Reader>(filter);
}

}  // namespace burr_internal
}  // namespace sstfilter

#endif  // SSTFILTER_BLOOM_HAVE_AVX2_PATH
