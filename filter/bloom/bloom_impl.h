// The native Bloom filter's probe paths, for tests, fuzzers and benchmarks
// that pin one (the policy picks AVX2 by itself when the CPU has it), and the
// format's reader for a path, for wrappers that read native filters (hybrid).
//
//   if (bloom::ProbePathAvailable(bloom::ProbePath::kAvx2)) { ... }

#ifndef SSTFILTER_FILTER_BLOOM_BLOOM_IMPL_H_
#define SSTFILTER_FILTER_BLOOM_BLOOM_IMPL_H_

#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "filter/filter_format.h"
#include "filter/filter_policy.h"
#include "filter/internal/checked_filter.h"

namespace sstfilter {
namespace bloom {

// The code that tests a key's probe bits.
enum class ProbePath {
  kScalar,  // portable
  kAvx2,    // x86-64 CPUs with AVX2 only
};

// Returns whether this build and CPU can run path.
bool ProbePathAvailable(ProbePath path);

// Returns the path NewBloomFilterPolicy uses: kAvx2 when available.
ProbePath BestProbePath();

// Returns the format kLocalBloomName with its readers pinned to path (the
// registry holds LocalBloomFormatFor(BestProbePath())).
// REQUIRES: ProbePathAvailable(path).
const FilterFormat& LocalBloomFormatFor(ProbePath path);

// Returns NewBloomFilterPolicy(options) with its readers pinned to path (the
// scalar path when path is not available).
absl::StatusOr<std::unique_ptr<const FilterPolicy>>
NewBloomFilterPolicyWithPath(const FilterOptions& options, ProbePath path);

}  // namespace bloom

namespace bloom_internal {

using bloom::BestProbePath;
using bloom::LocalBloomFormatFor;
using bloom::NewBloomFilterPolicyWithPath;
using bloom::ProbePath;
using bloom::ProbePathAvailable;

// kCheckedLocalBloomName (the checked version) over LocalBloomFormatFor(path).
// REQUIRES: ProbePathAvailable(path).
const filter_internal::CheckedFormat& CheckedLocalBloomFormatFor(
    ProbePath path);

}  // namespace bloom_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BLOOM_BLOOM_IMPL_H_
