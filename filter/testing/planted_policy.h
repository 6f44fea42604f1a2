// A deliberately broken FilterPolicy, for showing that the fuzz checks catch a
// false negative. Test-only: never use it to build a real filter.

#ifndef SSTFILTER_FILTER_TESTING_PLANTED_POLICY_H_
#define SSTFILTER_FILTER_TESTING_PLANTED_POLICY_H_

#include <memory>

#include "absl/status/statusor.h"
#include "filter/filter_policy.h"

namespace sstfilter {
namespace fuzz {

// The LevelDB-compatible policy with an off-by-one planted in its builder:
// Finish builds the filter from every added key except the last one (NumAdded()
// still counts it). The reader is the real one, so the dropped key is missed
// unless it is a false positive or a duplicate of another key.
absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewDropLastKeyPolicy(
    const FilterOptions& options);

}  // namespace fuzz
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_TESTING_PLANTED_POLICY_H_
