// The bumped Ribbon filter's portable reader (see burr_reader.h).

#include "filter/burr/burr_reader.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <memory>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/burr/burr_sizing.h"

namespace sstfilter {
namespace burr_internal {
namespace {

class ScalarReader final : public BumpedRibbonReaderBase {
 public:
  using BumpedRibbonReaderBase::BumpedRibbonReaderBase;

  bool MayMatch(absl::string_view key) const override {
    return ScalarMayMatch(filter_, key);
  }

  void MayMatch(absl::Span<const absl::string_view> keys,
                bool* results) const override {
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
                : ScalarQueryFrom(filter_, 1, NextLayerHash(slot.layer_hash));
      }
    }
  }
};

}  // namespace

double BumpedRibbonReaderBase::ExpectedFpp() const {
  return std::max(FilterFpp(filter_), std::numeric_limits<double>::min());
}

std::unique_ptr<FilterReader> NewScalarReader(const ParsedFilter& filter) {
  return std::make_unique<ScalarReader>(filter);
}

}  // namespace burr_internal
}  // namespace sstfilter
