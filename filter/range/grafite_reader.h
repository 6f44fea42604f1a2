// Readers of version-1 range filters (kGrafiteName): range, code and point
// questions.
//
// Internal to the range filter family.

#ifndef SSTFILTER_FILTER_RANGE_GRAFITE_READER_H_
#define SSTFILTER_FILTER_RANGE_GRAFITE_READER_H_

#include <memory>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "filter/internal/verdict.h"
#include "filter/range/elias_fano.h"
#include "filter/range/grafite_format.h"
#include "filter/range/range_filter.h"

namespace sstfilter {
namespace grafite_internal {

// The reader of a version-1 filter's bytes (any bytes).
std::unique_ptr<RangeFilterReader> NewGrafiteReader(absl::string_view filter);

// The longest range (in codes) a filter of these parameters answers: beyond
// r / n codes the bound exceeds 1, and a range must stay shorter than r to map
// to at most two intervals. REQUIRES: parsed.verdict == kProbe.
uint64_t MaxRangeLength(const ParsedGrafite& parsed);
// The proven bound for a range of length codes: length * n / r, capped at 1.
double RangeFppBoundOf(const ParsedGrafite& parsed, uint64_t length);

// Is any stored value in [start, start + span] (mod universe)?
// REQUIRES: start < universe, span < universe.
bool AnyInCircularInterval(const EliasFanoView& values, uint64_t universe,
                           uint64_t start, uint64_t span);

// A reader that answers ConstantAnswer(verdict) to every question and reports
// corruption from Corruption(). REQUIRES: verdict != kProbe.
std::unique_ptr<RangeFilterReader> NewConstantRangeReader(
    filter_internal::Verdict verdict, absl::Status corruption);

}  // namespace grafite_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_RANGE_GRAFITE_READER_H_
