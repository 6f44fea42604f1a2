// The bumped Ribbon filter's readers: a portable one and an AVX2 one (chosen
// at run time on x86-64 CPUs that have AVX2; burr_reader_avx2.cc). Also the
// per-key query steps they share with the policy's KeyMayMatch, inline so
// that every caller compiles them into its own loop.
//
// Internal header: include filter/burr/burr.h instead.

#ifndef SSTFILTER_FILTER_BURR_BURR_READER_H_
#define SSTFILTER_FILTER_BURR_BURR_READER_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/strings/string_view.h"
#include "filter/bloom/bloom_hash.h"
#include "filter/burr/burr_format.h"
#include "filter/burr/burr_probe.h"
#include "filter/filter_policy.h"

namespace sstfilter {
namespace burr_internal {

// Readers of a well-formed filter (filter.verdict == Verdict::kProbe).
std::unique_ptr<FilterReader> NewScalarReader(const ParsedFilter& filter);
#if SSTFILTER_BLOOM_HAVE_AVX2_PATH
// REQUIRES: bloom_internal::CpuHasAvx2().
std::unique_ptr<FilterReader> NewAvx2Reader(const ParsedFilter& filter);

// One query on the AVX2 path, for a caller compiled without AVX2.
// REQUIRES: bloom_internal::CpuHasAvx2().
bool Avx2MayMatchOutOfLine(const ParsedFilter& filter, absl::string_view key);
#endif

// Shared by the readers of a well-formed filter.
class BumpedRibbonReaderBase : public FilterReader {
 public:
  explicit BumpedRibbonReaderBase(const ParsedFilter& filter)
      : filter_(filter) {}

  // The filter's rate (FilterFpp in burr_sizing.h); never 0, which the API
  // reserves for a filter that matches nothing.
  double ExpectedFpp() const override;

 protected:
  const ParsedFilter filter_;
};

// Keys per batch step: all are hashed and their layer-0 words and thresholds
// prefetched before any is checked, so their cache misses overlap.
constexpr size_t kQueryBatch = 32;

struct BatchSlot {
  uint64_t layer_hash;
  Position at;
};

__attribute__((always_inline)) inline void PrepareBatch(
    const ParsedFilter& filter, const absl::string_view* keys, size_t count,
    BatchSlot* slots) {
  const ParsedLayer& layer = filter.layers[0];
  for (size_t i = 0; i < count; ++i) {
    slots[i].layer_hash =
        LayerZeroHash(bloom_internal::KeyHash(keys[i]), filter.seed);
    slots[i].at = PositionOf(layer, filter.columns, slots[i].layer_hash);
    PrefetchPosition(layer, slots[i].at);
  }
}

// The query from layer `first` on, for a key whose hash at that layer is
// layer_hash. A key bumped past the last layer may match.
inline bool ScalarQueryFrom(const ParsedFilter& filter, size_t first,
                            uint64_t layer_hash) {
  for (size_t i = first; i < filter.layers.size(); ++i) {
    const Position at =
        PositionOf(filter.layers[i], filter.columns, layer_hash);
    if (Kept(filter.layers[i], at)) {
      return ScalarCheck(at, CoeffRow(layer_hash), Fingerprint(layer_hash));
    }
    layer_hash = NextLayerHash(layer_hash);
  }
  return true;
}

inline bool ScalarMayMatch(const ParsedFilter& filter, absl::string_view key) {
  return ScalarQueryFrom(
      filter, 0, LayerZeroHash(bloom_internal::KeyHash(key), filter.seed));
}

}  // namespace burr_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BURR_BURR_READER_H_
