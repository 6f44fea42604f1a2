// The bumped Ribbon filter's readers: a portable one, an AVX2 one
// (burr_reader_avx2.cc) and an AVX-512 one (burr_reader_avx512.cc), chosen at
// run time from the CPU (BestQueryPath in burr_impl.h). Also the
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
#include <utility>

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

// REQUIRES: CpuHasAvx512Popcnt().
std::unique_ptr<FilterReader> NewAvx512Reader(const ParsedFilter& filter);
#endif

// Whether this CPU runs the AVX-512 reader: AVX-512F and VPOPCNTDQ (with the
// AVX2, BMI2 and popcnt that every such CPU has). Cheap after the first call.
bool CpuHasAvx512Popcnt();

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

// The columns of the lower blocks of filter, known at compile time in a
// reader specialised for them (kLower > 0).
template <int kLower>
__attribute__((always_inline)) inline int LowerColumns(
    const ParsedFilter& filter) {
  return kLower > 0 ? kLower : filter.columns;
}

template <int kLower>
__attribute__((always_inline)) inline void PrepareBatch(
    const ParsedFilter& filter, const absl::string_view* keys, size_t count,
    BatchSlot* slots) {
  const ParsedLayer& layer = filter.layers[0];
  for (size_t i = 0; i < count; ++i) {
    slots[i].layer_hash =
        LayerZeroHash(bloom_internal::KeyHash(keys[i]), filter.seed);
    slots[i].at =
        PositionOf(layer, LowerColumns<kLower>(filter), slots[i].layer_hash);
    PrefetchPosition(layer, slots[i].at);
  }
}

// How a reader checks an equation at a position: ScalarProbe is CheckAt of
// burr_probe.h (one popcnt per column where the caller is compiled for it);
// VectorProbe (burr_reader_avx512.cc, with the check of burr_probe_avx512.h)
// checks eight columns at a time.
struct ScalarProbe {
  template <int kLower>
  __attribute__((always_inline)) static bool Check(const Position& at,
                                                   uint64_t coeff,
                                                   uint32_t fingerprint) {
    return CheckAt<kLower>(at, coeff, fingerprint);
  }
};

// The query from layer `first` on, for a key whose hash at that layer is
// layer_hash, for a filter whose lower blocks have kLower columns. A key
// bumped past the last layer may match.
template <int kLower, class Probe = ScalarProbe>
__attribute__((always_inline)) inline bool QueryFrom(const ParsedFilter& filter,
                                                     size_t first,
                                                     uint64_t layer_hash) {
  for (size_t i = first; i < filter.layers.size(); ++i) {
    const Position at =
        PositionOf(filter.layers[i], LowerColumns<kLower>(filter), layer_hash);
    if (Kept(filter.layers[i], at)) {
      return Probe::template Check<kLower>(at, CoeffRow(layer_hash),
                                           Fingerprint(layer_hash));
    }
    layer_hash = NextLayerHash(layer_hash);
  }
  return true;
}

template <int kLower, class Probe = ScalarProbe>
__attribute__((always_inline)) inline bool QueryKey(const ParsedFilter& filter,
                                                    absl::string_view key) {
  // Layer 0 (a well-formed filter has one) before the loop over the rest:
  // 96% of keys stop there, and the loop's bookkeeping stays off their path.
  const uint64_t layer_hash =
      LayerZeroHash(bloom_internal::KeyHash(key), filter.seed);
  const ParsedLayer& layer = filter.layers[0];
  const Position at =
      PositionOf(layer, LowerColumns<kLower>(filter), layer_hash);
  if (__builtin_expect(Kept(layer, at), 1)) {
    return Probe::template Check<kLower>(at, CoeffRow(layer_hash),
                                         Fingerprint(layer_hash));
  }
  return QueryFrom<kLower, Probe>(filter, 1, NextLayerHash(layer_hash));
}

// Batches of kQueryBatch keys: hash and prefetch all, then check each.
template <int kLower, class Probe = ScalarProbe>
__attribute__((always_inline)) inline void QueryBatch(
    const ParsedFilter& filter, const absl::string_view* keys, size_t n,
    bool* results) {
  BatchSlot slots[kQueryBatch];
  const ParsedLayer& layer = filter.layers[0];
  for (size_t start = 0; start < n; start += kQueryBatch) {
    const size_t count = std::min(kQueryBatch, n - start);
    PrepareBatch<kLower>(filter, keys + start, count, slots);
    for (size_t i = 0; i < count; ++i) {
      const BatchSlot& slot = slots[i];
      results[start + i] = Kept(layer, slot.at)
                               ? Probe::template Check<kLower>(
                                     slot.at, CoeffRow(slot.layer_hash),
                                     Fingerprint(slot.layer_hash))
                               : QueryFrom<kLower, Probe>(
                                     filter, 1, NextLayerHash(slot.layer_hash));
    }
  }
}

// The readers, one class per kLower (0..kMaxColumns-1) and path: a filter's
// column count is fixed, so a reader's check loop is unrolled for it.
template <template <int> class Reader, int... kLower>
std::unique_ptr<FilterReader> NewReaderFor(
    const ParsedFilter& filter, std::integer_sequence<int, kLower...>) {
  std::unique_ptr<FilterReader> reader;
  ((filter.columns == kLower
        ? (reader = std::make_unique<Reader<kLower>>(filter), 0)
        : 0),
   ...);
  return reader;
}

// One query on the scalar path, for the policy's KeyMayMatch.
inline bool ScalarMayMatch(const ParsedFilter& filter, absl::string_view key) {
  return QueryKey<0>(filter, key);
}

}  // namespace burr_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BURR_BURR_READER_H_
