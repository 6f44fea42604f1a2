// The bumped Ribbon filter's builder (see burr_builder.h).

#include "filter/burr/burr_builder.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "filter/burr/burr_format.h"
#include "filter/burr/burr_solver.h"
#include "filter/internal/added_hashes.h"
#include "filter/internal/chunk_list.h"

namespace sstfilter {
namespace burr_internal {
namespace {

using filter_internal::ChunkList;

// The share of keys the projection of BuildPeakBytes takes as bumped out of
// layer 0: 4.1% are at 10^4 keys and more (README.md, "Memory while
// building"); a small layer bumps more, but its lists are a few KB.
constexpr double kProjectedBumpedShare = 1.0 / 16;

// The bytes reserved for the filter of num_keys keys before solving: its
// expected size, 2% more and 1 KB for the trailer and small layers.
size_t ReservedFilterBytes(uint64_t num_keys, const BurrSizing& sizing) {
  return 1024 + static_cast<size_t>(static_cast<double>(num_keys) *
                                    sizing.bits_per_key / 8 * 1.02);
}

class BumpedRibbonBuilder final : public FilterBuilder {
 public:
  BumpedRibbonBuilder(const BurrSizing& sizing, int forced_failures,
                      int max_layers)
      : sizing_(sizing),
        forced_failures_(forced_failures),
        max_layers_(max_layers) {}

  void AddKey(absl::string_view key) override { added_.Add(key); }

  size_t NumAdded() const override { return added_.num_added(); }

  void Finish(std::string* dst) override {
    AppendFilterFromHashes(&added_.hashes(), sizing_, forced_failures_,
                           max_layers_, dst);
    added_.Clear();
  }

 private:
  const BurrSizing sizing_;
  const int forced_failures_;
  const int max_layers_;
  filter_internal::AddedHashes<> added_;
};

}  // namespace

void AppendFilterFromHashes(ChunkList* hash_list, const BurrSizing& sizing,
                            int forced_failures, int max_layers,
                            std::string* dst) {
  // The solver reorders the hashes in place: one array of them, each chunk
  // freed once copied, so that the list and the array together never hold
  // more than one copy and a chunk.
  std::vector<uint64_t> array;
  array.reserve(hash_list->size());
  hash_list->Drain([&array](uint64_t hash) { array.push_back(hash); });
  std::vector<uint64_t>* const hashes = &array;
  const uint64_t num_keys = hashes->size();
  std::vector<LayerShape> layers;
  uint64_t seed = 0;
  if (num_keys > 0) {
    const size_t start = dst->size();
    // Room for the whole filter up front (its expected size and 2% more):
    // growing the string layer by layer would copy the body, and hold it
    // twice for a moment. Geometric growth when filters are appended one
    // after another.
    const size_t needed = start + ReservedFilterBytes(num_keys, sizing);
    if (dst->capacity() < needed) {
      dst->reserve(std::max(needed, 2 * dst->capacity()));
    }
    for (;; ++seed) {
      const SolveResult result =
          SolveLayers(hashes, sizing, max_layers, seed, dst);
      const bool forced = seed < static_cast<uint64_t>(forced_failures);
      if ((result.unplaced == 0 && !forced) || seed == kMaxSeed) {
        layers = result.layers;
        break;
      }
      // Retry with the next seed: one more step of the layer-0 hash.
      dst->resize(start);
      for (uint64_t& h : *hashes) h = Fmix64(h);
    }
  }
  AppendTrailer(num_keys, seed, sizing.columns, layers, dst);
}

uint64_t BuildPeakBytes(uint64_t num_keys, const BurrSizing& sizing) {
  const uint64_t hash_bytes = sizeof(uint64_t) * num_keys;
  const uint64_t copying = 2 * hash_bytes + ChunkList::kMaxChunkBytes;
  const uint64_t bumped = static_cast<uint64_t>(
      std::ceil(kProjectedBumpedShare * static_cast<double>(num_keys)));
  const uint64_t solving = hash_bytes + ReservedFilterBytes(num_keys, sizing) +
                           2 * sizeof(uint64_t) * bumped +
                           SolverBytes(num_keys);
  return std::max(copying, solving);
}

uint64_t MaxKeysWithinBuildBytes(uint64_t max_build_bytes,
                                 const BurrSizing& sizing) {
  // BuildPeakBytes grows strictly with the keys (at least 16 bytes per key),
  // so the answer is below max_build_bytes / 16 + 1: bisect.
  uint64_t fits = 0;
  uint64_t too_many = max_build_bytes / (2 * sizeof(uint64_t)) + 1;
  if (BuildPeakBytes(0, sizing) > max_build_bytes) return 0;
  while (too_many - fits > 1) {
    const uint64_t mid = fits + (too_many - fits) / 2;
    if (BuildPeakBytes(mid, sizing) <= max_build_bytes) {
      fits = mid;
    } else {
      too_many = mid;
    }
  }
  return fits;
}

std::unique_ptr<FilterBuilder> NewBumpedRibbonBuilder(const BurrSizing& sizing,
                                                      int forced_failures,
                                                      int max_layers) {
  return std::make_unique<BumpedRibbonBuilder>(sizing, forced_failures,
                                               max_layers);
}

}  // namespace burr_internal
}  // namespace sstfilter
