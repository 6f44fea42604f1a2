// Internal entry points of the native Bloom filter, for tests and benchmarks
// that need to pin the probe path (the policy picks AVX2 by itself when the CPU
// has it).
//
// Internal header: include filter/bloom/bloom.h instead.

#ifndef SSTFILTER_FILTER_BLOOM_BLOOM_IMPL_H_
#define SSTFILTER_FILTER_BLOOM_BLOOM_IMPL_H_

#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "filter/filter_format.h"
#include "filter/filter_policy.h"
#include "filter/internal/checked_filter.h"

namespace sstfilter {
namespace bloom_internal {

enum class ProbePath {
  kScalar,  // portable
  kAvx2,    // x86-64 CPUs with AVX2 only
};

// Whether this build and CPU can run path.
bool ProbePathAvailable(ProbePath path);

// The path NewBloomFilterPolicy uses: kAvx2 when available.
ProbePath BestProbePath();

// The format kLocalBloomName with its readers pinned to path (the
// registry holds LocalBloomFormatFor(BestProbePath())).
// REQUIRES: ProbePathAvailable(path).
const FilterFormat& LocalBloomFormatFor(ProbePath path);

// kCheckedLocalBloomName (the checked version) over LocalBloomFormatFor(path).
// REQUIRES: ProbePathAvailable(path).
const filter_internal::CheckedFormat& CheckedLocalBloomFormatFor(
    ProbePath path);

// NewBloomFilterPolicy with its readers pinned to path.
// REQUIRES: ProbePathAvailable(path).
absl::StatusOr<std::unique_ptr<const FilterPolicy>>
NewBloomFilterPolicyWithPath(const FilterOptions& options, ProbePath path);

}  // namespace bloom_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BLOOM_BLOOM_IMPL_H_
