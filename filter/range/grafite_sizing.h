// From a budget (bits per key) or a target rate for ranges of a given length
// to the shape of the range filter: the low bits l and the reduced universe
// per key m = r / n. Filter/range/README.md, "Sizing", derives the formulas.
//
// Internal to the range filter family.

#ifndef SSTFILTER_FILTER_RANGE_GRAFITE_SIZING_H_
#define SSTFILTER_FILTER_RANGE_GRAFITE_SIZING_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "filter/range/range_filter.h"

namespace sstfilter {
namespace grafite_internal {

struct GrafiteSizing {
  double bits_per_key = 0;      // the budget B
  int low_bits = 0;             // l
  double universe_per_key = 0;  // m: r = m * n
};

// The l and m of budget B: among l = 0..62, the one whose Elias-Fano cost
// l + 1 + (m / 2^l) * (1 + 32 / kSelectSample) bits per key is B for the
// largest m. REQUIRES: B in [kMinRangeBitsPerKey, kMaxRangeBitsPerKey].
GrafiteSizing SizingForBudget(double bits_per_key);

// The smallest budget whose bound for ranges of `length` codes is fpp.
double BudgetForRate(double fpp, uint64_t length);

// Validates options (InvalidArgumentError naming the value) and sizes them.
absl::StatusOr<GrafiteSizing> SizingForOptions(const FilterOptions& options);

// r for n distinct codes: m * n rounded up, within [kMinUniverse,
// kMaxUniverse].
uint64_t UniverseFor(const GrafiteSizing& sizing, uint64_t num_codes);

}  // namespace grafite_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_RANGE_GRAFITE_SIZING_H_
