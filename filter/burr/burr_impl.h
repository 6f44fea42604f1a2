// Internal entry points of the bumped Ribbon filter, for tests and benchmarks
// that need to pin the query path or force failed constructions (the policy
// picks its query path by itself from the CPU).
//
// Internal header: include filter/burr/burr.h instead.

#ifndef SSTFILTER_FILTER_BURR_BURR_IMPL_H_
#define SSTFILTER_FILTER_BURR_BURR_IMPL_H_

#include <memory>

#include "absl/status/statusor.h"
#include "filter/filter_format.h"
#include "filter/filter_policy.h"
#include "filter/internal/checked_filter.h"

namespace sstfilter {
namespace burr_internal {

// How a reader checks a key's equation.
enum class QueryPath {
  kScalar,  // portable: a parity by shifts per column
  kAvx2,    // x86-64 with AVX2: one popcnt per column
  kAvx512,  // x86-64 with AVX-512F and VPOPCNTDQ: eight columns at a time
};

// Whether this build and CPU can run path.
bool QueryPathAvailable(QueryPath path);

// The path NewBurrFilterPolicy uses: the fastest available, AVX-512,
// then AVX2, then scalar.
QueryPath BestQueryPath();

// The format kBumpedRibbonName with its readers pinned to path (the
// scalar one when path is not available); the registry holds
// BumpedRibbonFormatFor(BestQueryPath()).
const FilterFormat& BumpedRibbonFormatFor(QueryPath path);

// kCheckedBumpedRibbonName (the checked version) over
// BumpedRibbonFormatFor(path).
const filter_internal::CheckedFormat& CheckedBumpedRibbonFormatFor(
    QueryPath path);

// NewBurrFilterPolicy with its readers pinned to path (the scalar one
// when path is not available), and whose builders treat the first
// forced_failures seeds as failed constructions and use at most max_layers
// layers (capped at kMaxLayers).
absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewBurrFilterPolicyForTest(
    const FilterOptions& options, QueryPath path, int forced_failures = 0,
    int max_layers = 1 << 30);

}  // namespace burr_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BURR_BURR_IMPL_H_
