// Sizing of the bumped Ribbon filter: FilterOptions -> solution columns (the
// fingerprint bits a key is checked against) and the share of blocks that
// store one more, and the false-positive rate a filter's bytes imply.
//
// Internal header: include filter/burr/burr.h instead.

#ifndef SSTFILTER_FILTER_BURR_BURR_SIZING_H_
#define SSTFILTER_FILTER_BURR_BURR_SIZING_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "filter/burr/burr_format.h"
#include "filter/filter_policy.h"

namespace sstfilter {
namespace burr_internal {

// Slots per key of a layer: fewer slots than keys, so that almost every slot
// holds an equation and the keys that do not fit are bumped to the next,
// smaller layer (docs/compact_filter_design.md, "Slots per key of a layer",
// has the measurements behind it).
constexpr double kSlotsPerKey = 0.96;

// Layers of at most this many keys take one block.
constexpr uint64_t kSmallLayerKeys = 32;
// Layers of fewer keys than this take kSmallLayerSlotsPerKey slots per key
// plus a block.
constexpr uint64_t kSlackLayerKeys = 256;
constexpr double kSmallLayerSlotsPerKey = 1.15;

// Bits per key over the columns' average, as measured over 10^4..10^8 keys:
// empty slots, thresholds, the last layers and the trailer. Only used to turn
// FilterOptions::BitsPerKey into columns and back.
constexpr double kSpaceOverhead = 1.010;

struct BurrSizing {
  int columns = 0;              // lower blocks; 0..kMaxColumns-1
  double upper_fraction = 0.0;  // share of blocks with columns + 1, in [0, 1]
  double bits_per_key = 0.0;    // expected, overhead included
  int max_columns() const { return columns + (upper_fraction > 0 ? 1 : 0); }
};

// The columns whose mix has false-positive rate fpp: 2^-columns on the lower
// blocks, 2^-(columns+1) on the upper ones. InvalidArgumentError, naming the
// value, for an fpp below 2^-kMaxColumns.
absl::StatusOr<BurrSizing> SizeForFpp(double fpp);

// The columns that take bits_per_key (clamped to kMaxColumns columns).
BurrSizing SizeForBitsPerKey(double bits_per_key);

// SizeForFpp or SizeForBitsPerKey, whichever field of options is set.
// REQUIRES: ValidateFilterOptions(options) is OK.
absl::StatusOr<BurrSizing> SizeForOptions(const FilterOptions& options);

// The shape of a layer of num_keys keys.
LayerShape ShapeForKeys(uint64_t num_keys, double upper_fraction);

// The false-positive rate of a well-formed filter: for each layer, the share
// of starts it keeps (not bumped), each at 2^-(columns of its block), reached
// by the keys every earlier layer bumped; and 1 for keys bumped past the last
// layer. Visits every block's threshold: O(blocks).
double FilterFpp(const ParsedFilter& filter);

}  // namespace burr_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BURR_BURR_SIZING_H_
