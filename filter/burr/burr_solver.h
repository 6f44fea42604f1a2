// The bumped Ribbon solver: turns the layer-0 hashes of a key set into the
// filter's body (every layer's solution words, then every layer's
// thresholds), layer by layer, each segment banded block by block and the
// keys a block cannot hold bumped to the next layer. filter/burr/README.md
// ("Building") describes the algorithm.
//
// Internal header: include filter/burr/burr.h instead.

#ifndef SSTFILTER_FILTER_BURR_BURR_SOLVER_H_
#define SSTFILTER_FILTER_BURR_BURR_SOLVER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "filter/burr/burr_format.h"
#include "filter/burr/burr_sizing.h"

namespace sstfilter {
namespace burr_internal {

struct SolveResult {
  std::vector<LayerShape> layers;
  // Keys bumped from the last layer: 0 for a complete filter. Such keys match
  // everything (the reader's rule for a key bumped past the last layer).
  uint64_t unplaced = 0;
};

// Appends the body for the keys whose layer-0 hashes are in *hashes (in any
// order; the solver reorders them) with at most max_layers layers, and no
// more than the trailer's header can describe for a filter of seed `seed`.
// Returns the layers, or unplaced > 0 when those did not place every key.
// Deterministic: the same multiset of hashes gives the same bytes.
SolveResult SolveLayers(std::vector<uint64_t>* hashes, const BurrSizing& sizing,
                        int max_layers, uint64_t seed, std::string* dst);

// An upper bound on the bytes of the solver's buffers for a filter of
// num_keys keys: band and counts per slot of layer 0's largest segment, the
// sorted copy of its keys, block starts, the partition and the thresholds. It
// only grows with num_keys. A thread keeps the buffers for its next filter
// (ThreadSolver in burr_solver.cc) until it ends: about 2.1 MB for a full
// segment of 65,536 slots, at most 2.9 MB (a segment copy of kMaxKeptKeys).
uint64_t SolverBytes(uint64_t num_keys);

}  // namespace burr_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BURR_BURR_SOLVER_H_
