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
#include "filter/burr/burr_format.h"
#include "filter/burr/burr_probe.h"
#include "filter/filter_policy.h"
#include "filter/internal/cache_line_allocated.h"
#include "filter/internal/cpu_features.h"
#include "filter/internal/key_hash.h"

namespace sstfilter {
namespace burr_internal {

// Readers of a well-formed filter (filter.verdict == Verdict::kProbe).
std::unique_ptr<FilterReader> NewScalarReader(const ParsedFilter& filter);
#if SSTFILTER_HAVE_AVX2_PATH
// REQUIRES: filter_internal::CpuHasAvx2().
std::unique_ptr<FilterReader> NewAvx2Reader(const ParsedFilter& filter);

// One query on the AVX2 path, for a caller compiled without AVX2.
// REQUIRES: filter_internal::CpuHasAvx2().
bool Avx2MayMatchOutOfLine(const ParsedFilter& filter, absl::string_view key);

// REQUIRES: filter_internal::CpuHasAvx512Popcnt().
std::unique_ptr<FilterReader> NewAvx512Reader(const ParsedFilter& filter);
#endif

// Shared by the readers of a well-formed filter. Aligned to a cache line (see
// first_layer_), without the heap's slow aligned path: RocksDB creates a
// reader for every filter partition it loads into its block cache.
class alignas(filter_internal::kCacheLineBytes) BumpedRibbonReaderBase
    : public FilterReader,
      public filter_internal::CacheLineAllocated {
 public:
  explicit BumpedRibbonReaderBase(const ParsedFilter& filter)
      : first_layer_(filter.layers[0]), seed_(filter.seed), filter_(filter) {}

  // The filter's rate (FilterFpp in burr_sizing.h); never 0, which the API
  // reserves for a filter that matches nothing.
  double ExpectedFpp() const override;

 protected:
  // What a query reads of its reader when layer 0 keeps its key (96% of
  // queries): first in the object, so that with the vtable pointer it is the
  // object's first cache line, and in the object itself rather than behind
  // filter_'s layer vector.
  const ParsedLayer first_layer_;
  const uint64_t seed_;
  const ParsedFilter filter_;  // every layer, for the keys layer 0 bumps
};
static_assert(sizeof(void*) + sizeof(ParsedLayer) + sizeof(uint64_t) <= 64,
              "a reader's vtable pointer and layer 0 fill at most 64 bytes");

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

__attribute__((always_inline)) inline void PrepareBatch(
    const ParsedLayer& first_layer, uint64_t seed, int lower_columns,
    const absl::string_view* keys, size_t count, BatchSlot* slots) {
  for (size_t i = 0; i < count; ++i) {
    slots[i].layer_hash =
        LayerZeroHash(filter_internal::KeyHash(keys[i]), seed);
    slots[i].at = PositionOf(first_layer, lower_columns, slots[i].layer_hash);
    PrefetchPosition(first_layer, slots[i].at);
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

// The query of a key that layer 0 bumped, from layer 1 on. Out of line and
// cold: 4% of keys take it, and kept off the common path it leaves that path
// short, with no registers to save for a loop it does not run.
template <int kLower, class Probe = ScalarProbe>
__attribute__((noinline, cold)) bool QueryBumped(const ParsedFilter& filter,
                                                 uint64_t layer_zero_hash) {
  return QueryFrom<kLower, Probe>(filter, 1, NextLayerHash(layer_zero_hash));
}

// A key's query from its hash (filter_internal::KeyHash). Layer 0 comes from
// the reader itself (first_layer is filter.layers[0], seed is filter.seed): a
// well-formed filter has one.
template <int kLower, class Probe = ScalarProbe>
__attribute__((always_inline)) inline bool QueryHash(
    const ParsedLayer& first_layer, uint64_t seed, const ParsedFilter& filter,
    uint64_t key_hash) {
  const uint64_t layer_hash = LayerZeroHash(key_hash, seed);
  const Position at =
      PositionOf(first_layer, LowerColumns<kLower>(filter), layer_hash);
  if (__builtin_expect(Kept(first_layer, at), 1)) {
    return Probe::template Check<kLower>(at, CoeffRow(layer_hash),
                                         Fingerprint(layer_hash));
  }
  return QueryBumped<kLower, Probe>(filter, layer_hash);
}

// A reader's single query is split in two, so that the common path's code
// stays short: hashing a key of up to 16 bytes takes a few instructions and
// few registers, while longer keys' hash code (and, past 128 bytes, its
// library call) would make every query save registers, and with AVX-512 align
// its stack. Each reader's MayMatch is
//
//   if (IsShortKey(key)) {
//     return QueryHash<kLower, Probe>(..., filter_internal::ShortKeyHash(key));
//   }
//   return MayMatchLonger(key);  // a tail call to a member that runs
//                                // QueryKey<kLower, Probe>(...)
//
// with MayMatchLonger out of line and compiled for the reader's CPU target.
inline bool IsShortKey(absl::string_view key) {
  return key.size() <= filter_internal::kMaxShortKeyBytes;
}

// A key's whole query, for any key.
template <int kLower, class Probe = ScalarProbe>
__attribute__((always_inline)) inline bool QueryKey(
    const ParsedLayer& first_layer, uint64_t seed, const ParsedFilter& filter,
    absl::string_view key) {
  return QueryHash<kLower, Probe>(first_layer, seed, filter,
                                  filter_internal::KeyHash(key));
}

// Batches of kQueryBatch keys: hash and prefetch all, then check each.
template <int kLower, class Probe = ScalarProbe>
__attribute__((always_inline)) inline void QueryBatch(
    const ParsedLayer& first_layer, uint64_t seed, const ParsedFilter& filter,
    const absl::string_view* keys, size_t n, bool* results) {
  BatchSlot slots[kQueryBatch];
  const int lower_columns = LowerColumns<kLower>(filter);
  for (size_t start = 0; start < n; start += kQueryBatch) {
    const size_t count = std::min(kQueryBatch, n - start);
    PrepareBatch(first_layer, seed, lower_columns, keys + start, count, slots);
    for (size_t i = 0; i < count; ++i) {
      const BatchSlot& slot = slots[i];
      results[start + i] =
          __builtin_expect(Kept(first_layer, slot.at), 1)
              ? Probe::template Check<kLower>(slot.at,
                                              CoeffRow(slot.layer_hash),
                                              Fingerprint(slot.layer_hash))
              : QueryBumped<kLower, Probe>(filter, slot.layer_hash);
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
  return QueryKey<0>(filter.layers[0], filter.seed, filter, key);
}

}  // namespace burr_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BURR_BURR_READER_H_
