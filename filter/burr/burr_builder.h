// The bumped Ribbon filter's builder: it keeps the 64-bit hash of each key
// added, then solves the layers (burr_solver.h) and appends the trailer,
// retrying with the next seed when the layers do not place every key.
//
// Internal header: include filter/burr/burr.h instead.

#ifndef SSTFILTER_FILTER_BURR_BURR_BUILDER_H_
#define SSTFILTER_FILTER_BURR_BURR_BUILDER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

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

// Appends the filter of the keys whose hashes (KeyHash, a key added again right
// away kept once) are in *hashes, then clears *hashes and frees its memory.
// What a builder's Finish does; for wrappers that keep the hashes themselves
// (the hybrid builder, filter/hybrid/). The hashes are reordered and, on a
// retry, rehashed in place.
void AppendFilterFromHashes(std::vector<uint64_t>* hashes,
                            const BurrSizing& sizing, int forced_failures,
                            int max_layers, std::string* dst);

// Projected bytes a build of num_keys distinct keys holds at its peak (an
// upper bound, see filter/burr/README.md, "Memory while building"): the
// larger of the hash list while it doubles (3 x 8 bytes per key allocated)
// and, at Finish, the hash list (2 x 8) with the filter, the keys bumped out
// of layer 0 (kept twice: one layer's list and the next's; projected at 1/16
// of the keys) and the solver's buffers (SolverBytes).
// Grows strictly with num_keys.
uint64_t BuildPeakBytes(uint64_t num_keys, const BurrSizing& sizing);

// The most distinct keys whose BuildPeakBytes is at most max_build_bytes (0
// when not even an empty build fits).
uint64_t MaxKeysWithinBuildBytes(uint64_t max_build_bytes,
                                 const BurrSizing& sizing);

}  // namespace burr_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BURR_BURR_BUILDER_H_
