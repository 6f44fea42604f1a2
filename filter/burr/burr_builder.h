// The bumped Ribbon filter's builder: it keeps the 64-bit hash of each key
// added, then solves the layers (burr_solver.h) and appends the trailer,
// retrying with the next seed when the layers do not place every key.
//
// Internal header: include filter/burr/burr.h instead.

#ifndef SSTFILTER_FILTER_BURR_BURR_BUILDER_H_
#define SSTFILTER_FILTER_BURR_BURR_BUILDER_H_

#include <memory>

#include "filter/burr/burr_sizing.h"
#include "filter/filter_policy.h"

namespace sstfilter {
namespace burr_internal {

// A builder of filters with these columns. For tests: the first
// forced_failures seeds are treated as failed constructions, as if their
// layers had not placed every key, and a construction may use at most
// max_layers layers (kMaxLayers in a filter of the policy).
std::unique_ptr<FilterBuilder> NewBumpedRibbonBuilder(const BurrSizing& sizing,
                                                      int forced_failures,
                                                      int max_layers);

}  // namespace burr_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BURR_BURR_BUILDER_H_
