// Internal entry points of the bumped Ribbon filter, for tests and benchmarks
// that need to pin the query path or force failed constructions (the policy
// picks AVX2 by itself when the CPU has it).
//
// Internal header: include filter/burr/burr.h instead.

#ifndef SSTFILTER_FILTER_BURR_BURR_IMPL_H_
#define SSTFILTER_FILTER_BURR_BURR_IMPL_H_

#include <memory>

#include "absl/status/statusor.h"
#include "filter/bloom/bloom_impl.h"
#include "filter/filter_policy.h"

namespace sstfilter {
namespace burr_internal {

using bloom_internal::ProbePath;

// NewBumpedRibbonFilterPolicy with its readers pinned to path (the scalar one
// when path is not available), and whose builders treat the first
// forced_failures seeds as failed constructions and use at most max_layers
// layers (capped at kMaxLayers).
absl::StatusOr<std::unique_ptr<const FilterPolicy>>
NewBumpedRibbonFilterPolicyForTest(const FilterOptions& options, ProbePath path,
                                   int forced_failures = 0,
                                   int max_layers = 1 << 30);

}  // namespace burr_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BURR_BURR_IMPL_H_
