// The read side of the hybrid format, version 1 (kHybridFormatName): one
// format over the native filter's and the compact filter's bytes, choosing the
// family by the marker byte each family's trailer holds at size - 2. Layout
// and decision table: filter/hybrid/README.md.
//
// Internal header: include filter/hybrid/hybrid.h instead.

#ifndef SSTFILTER_FILTER_HYBRID_HYBRID_FORMAT_H_
#define SSTFILTER_FILTER_HYBRID_HYBRID_FORMAT_H_

#include "absl/strings/string_view.h"
#include "filter/filter_format.h"
#include "filter/internal/checked_filter.h"

namespace sstfilter {
namespace hybrid_internal {

// The format registered under kHybridFormatName; lives as long as the
// program.
const FilterFormat& HybridFormat();

// The checked version, kCheckedHybridFormatName, over HybridFormat().
const filter_internal::CheckedFormat& CheckedHybridFormat();

// The family format that reads filter (the native or the compact one), or
// nullptr when filter holds neither family's marker.
const FilterFormat* FamilyFormatOf(absl::string_view filter);

}  // namespace hybrid_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_HYBRID_HYBRID_FORMAT_H_
