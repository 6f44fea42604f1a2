// The read side of sstfilter.Hybrid1 (see hybrid_format.h).

#include "filter/hybrid/hybrid_format.h"

#include <cstdint>
#include <memory>

#include "filter/bloom/bloom_format.h"
#include "filter/bloom/bloom_impl.h"
#include "filter/burr/burr_format.h"
#include "filter/burr/burr_impl.h"
#include "filter/hybrid/hybrid.h"
#include "filter/internal/checked_filter.h"
#include "filter/internal/verdict.h"

namespace sstfilter {
namespace hybrid_internal {
namespace {

using filter_internal::Verdict;

// Bytes of the shortest filter that holds a marker: the marker and the byte
// after it. Shorter bytes hold no key, as in every family.
constexpr size_t kMinFilterBytes = 2;
// Where the marker sits: this many bytes before the end.
constexpr size_t kMarkerFromEnd = 2;

// A filter whose bytes are no family's: too short, or an unknown marker.
Verdict VerdictWithoutFamily(absl::string_view filter) {
  return filter.size() < kMinFilterBytes ? Verdict::kMatchNothing
                                         : Verdict::kMatchAll;
}

class HybridFormatImpl final : public FilterFormat {
 public:
  const char* Name() const override { return kHybridFormatName; }

  std::unique_ptr<FilterReader> NewReader(
      absl::string_view filter) const override {
    const FilterFormat* family = FamilyFormatOf(filter);
    if (family == nullptr) {
      return filter_internal::NewConstantReader(VerdictWithoutFamily(filter));
    }
    return family->NewReader(filter);
  }

  bool KeyMayMatch(absl::string_view key,
                   absl::string_view filter) const override {
    const FilterFormat* family = FamilyFormatOf(filter);
    if (family == nullptr) {
      return filter_internal::ConstantAnswer(VerdictWithoutFamily(filter));
    }
    return family->KeyMayMatch(key, filter);
  }

  FilterFacts Describe(absl::string_view filter) const override {
    const FilterFormat* family = FamilyFormatOf(filter);
    return family == nullptr ? FilterFacts() : family->Describe(filter);
  }
};

}  // namespace

const FilterFormat& HybridFormat() {
  static const HybridFormatImpl* const format = new HybridFormatImpl();
  return *format;
}

const filter_internal::CheckedFormat& CheckedHybridFormat() {
  static const filter_internal::CheckedFormat* const format =
      new filter_internal::CheckedFormat(kCheckedHybridFormatName,
                                         HybridFormat());
  return *format;
}

const FilterFormat* FamilyFormatOf(absl::string_view filter) {
  if (filter.size() < kMinFilterBytes) return nullptr;
  const uint8_t marker =
      static_cast<uint8_t>(filter[filter.size() - kMarkerFromEnd]);
  if (marker == bloom::kFormatMarker) {
    return &bloom::LocalBloomFormatFor(bloom::BestProbePath());
  }
  if (marker == burr_internal::kFormatMarker) {
    return &burr_internal::BumpedRibbonFormatFor(
        burr_internal::BestQueryPath());
  }
  return nullptr;
}

}  // namespace hybrid_internal
}  // namespace sstfilter
