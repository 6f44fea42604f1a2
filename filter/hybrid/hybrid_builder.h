// The builders of the hybrid policies: the native one counts its builds; the
// compact one keeps the keys' hashes and, at Finish, solves the compact filter
// from them, or sets the native filter's bits from them when the keys passed
// the memory cap.
//
// Internal header: include filter/hybrid/hybrid.h instead.

#ifndef SSTFILTER_FILTER_HYBRID_HYBRID_BUILDER_H_
#define SSTFILTER_FILTER_HYBRID_HYBRID_BUILDER_H_

#include <cstdint>
#include <memory>

#include "filter/bloom/bloom_sizing.h"
#include "filter/burr/burr_sizing.h"
#include "filter/filter_policy.h"
#include "filter/hybrid/hybrid.h"

namespace sstfilter {
namespace hybrid_internal {

// A native filter builder of this sizing; counts each Finish in
// counters->native_builds (counters may be null).
std::unique_ptr<FilterBuilder> NewHybridNativeBuilder(
    const bloom::BloomSizing& sizing, std::shared_ptr<HybridCounters> counters);

// A compact filter builder of sizing compact while at most max_compact_keys
// distinct keys are added; past them, Finish builds the native filter of
// sizing fallback instead and counts a fallback. Counts each Finish by the
// family it built (counters may be null).
std::unique_ptr<FilterBuilder> NewHybridCompactBuilder(
    const burr_internal::BurrSizing& compact,
    const bloom::BloomSizing& fallback, uint64_t max_compact_keys,
    std::shared_ptr<HybridCounters> counters);

}  // namespace hybrid_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_HYBRID_HYBRID_BUILDER_H_
