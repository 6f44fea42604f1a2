// Checking a key's equation against one layer of the bumped Ribbon filter: a
// portable scalar path and an AVX2 path that checks 8 columns per instruction
// sequence. Both compute the same bits (burr_format.h); tests check that they
// agree.
//
// The AVX2 functions are compiled with __attribute__((target("avx2,popcnt")))
// so the library needs no global -mavx2; call them only after
// bloom_internal::CpuHasAvx2() returned true, from code that carries the same
// attribute (so they inline).
//
// Internal header: include filter/burr/burr.h instead.

#ifndef SSTFILTER_FILTER_BURR_BURR_PROBE_H_
#define SSTFILTER_FILTER_BURR_BURR_PROBE_H_

#include <cstdint>
#include <cstring>

#include "filter/bloom/bloom_probe.h"
#include "filter/burr/burr_format.h"

namespace sstfilter {
namespace burr_internal {

// Where a key's equation lies in a layer: pure arithmetic on the hash, so a
// batch can prefetch before it reads anything.
struct Position {
  uint64_t block;   // in the layer's numbering
  uint32_t offset;  // start slot within the block, 0..63
  int columns;      // solution columns of the block
  const char* words;  // first word of the block
};

inline Position PositionOf(const ParsedLayer& layer, int lower_columns,
                           uint64_t layer_hash) {
  const LayerShape& shape = layer.shape;
  const Start start =
      StartOf(layer_hash, shape.num_segments, shape.segment_blocks);
  Position at;
  at.block =
      start.segment * shape.segment_blocks + (start.slot >> kLog2BlockSlots);
  at.offset = static_cast<uint32_t>(start.slot & (kBlockSlots - 1));
  at.columns = lower_columns + (at.block >= shape.upper_start ? 1 : 0);
  at.words = layer.words + shape.WordsBefore(at.block, lower_columns) * 8;
  return at;
}

// Whether the layer keeps a key at `at` (else it was bumped to the next).
inline bool Kept(const ParsedLayer& layer, const Position& at) {
  return at.offset >=
         kThresholdOffsets[ThresholdCode(layer.thresholds, at.block)];
}

// Prefetches what a query at `at` reads: the threshold byte and the words of
// the start block and of the next one. Always inlined: GCC 12 finds a
// function that only prefetches "pure" (prefetches have no side effects it
// tracks) and deletes calls to it that it has not inlined.
__attribute__((always_inline)) inline void PrefetchPosition(
    const ParsedLayer& layer, const Position& at) {
  __builtin_prefetch(layer.thresholds + (at.block >> 2), 0, 1);
  const char* first = at.words;
  const char* last = at.words + 16 * at.columns - 1;
  for (const char* p = first; p <= last; p += 64) __builtin_prefetch(p, 0, 1);
  __builtin_prefetch(last, 0, 1);
}

inline uint64_t LoadWord(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

// Whether the solution gives the key's fingerprint in every column: column c
// of the 64 slots from the start is the start block's word c shifted down by
// the offset, with the next block's word c above it. The next block follows
// the start block's words directly, and is read only when offset > 0 (a
// start at offset 0 needs only its own block, which may be a segment's
// last).
__attribute__((always_inline)) inline bool ScalarCheck(const Position& at,
                                                       uint64_t coeff,
                                                       uint32_t fingerprint) {
  uint32_t acc = 0;
  // At offset 0 the next block's words are shifted out entirely: read the
  // start block's again instead, which is always inside the filter.
  const char* next = at.offset != 0 ? at.words + 8 * at.columns : at.words;
  for (int c = 0; c < at.columns; ++c) {
    const unsigned __int128 pair =
        (static_cast<unsigned __int128>(LoadWord(next + 8 * c)) << 64) |
        LoadWord(at.words + 8 * c);
    const uint64_t z = static_cast<uint64_t>(pair >> at.offset);
    acc |= static_cast<uint32_t>(__builtin_popcountll(z & coeff) & 1) << c;
  }
  const uint32_t mask =
      at.columns >= 32 ? ~uint32_t{0} : (uint32_t{1} << at.columns) - 1;
  return acc == (fingerprint & mask);
}

#if SSTFILTER_BLOOM_HAVE_AVX2_PATH
// ScalarCheck, 8 columns per round. Lanes past the block's columns are masked
// off at the load (so nothing past the filter is read), and the next block's
// words are not loaded when the offset is 0. Per 4 columns: AND with the
// coefficients, fold each 64-bit lane to 32 bits; two such vectors share one
// 32-bit fold down to the parity bit, compared with the fingerprint's bits in
// the same lanes.
__attribute__((target("avx2,popcnt"), always_inline)) inline bool Avx2Check(
    const Position& at, uint64_t coeff, uint32_t fingerprint) {
  const __m256i coeffs = _mm256_set1_epi64x(static_cast<int64_t>(coeff));
  const __m128i down = _mm_cvtsi32_si128(static_cast<int>(at.offset));
  // 64 - offset; a count of 64 shifts the next block's words out entirely.
  const __m128i up = _mm_cvtsi32_si128(64 - static_cast<int>(at.offset));
  const int next_columns = at.offset != 0 ? at.columns : 0;
  const char* next = at.words + 8 * at.columns;
  // The fingerprint bit each 32-bit lane of the folded pair checks: low halves
  // hold columns 0-3, high halves 4-7.
  const __m256i lane_column = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  const __m256i one = _mm256_set1_epi32(1);
  __m256i diff = _mm256_setzero_si256();
  for (int first = 0; first < at.columns; first += 8) {
    __m256i fold[2];
    for (int half = 0; half < 2; ++half) {
      const int base = first + 4 * half;
      const __m256i lanes = _mm256_setr_epi64x(base, base + 1, base + 2,
                                               base + 3);
      const __m256i here_mask =
          _mm256_cmpgt_epi64(_mm256_set1_epi64x(at.columns), lanes);
      const __m256i next_mask =
          _mm256_cmpgt_epi64(_mm256_set1_epi64x(next_columns), lanes);
      const __m256i here = _mm256_maskload_epi64(
          reinterpret_cast<const long long*>(at.words + 8 * base), here_mask);
      const __m256i above = _mm256_maskload_epi64(
          reinterpret_cast<const long long*>(next + 8 * base), next_mask);
      __m256i z = _mm256_or_si256(_mm256_srl_epi64(here, down),
                                  _mm256_sll_epi64(above, up));
      z = _mm256_and_si256(z, coeffs);
      fold[half] = _mm256_xor_si256(z, _mm256_srli_epi64(z, 32));
    }
    __m256i x = _mm256_blend_epi32(fold[0], _mm256_slli_epi64(fold[1], 32),
                                   0xAA);
    x = _mm256_xor_si256(x, _mm256_srli_epi32(x, 16));
    x = _mm256_xor_si256(x, _mm256_srli_epi32(x, 8));
    x = _mm256_xor_si256(x, _mm256_srli_epi32(x, 4));
    x = _mm256_xor_si256(x, _mm256_srli_epi32(x, 2));
    x = _mm256_xor_si256(x, _mm256_srli_epi32(x, 1));
    const __m256i column = _mm256_add_epi32(lane_column,
                                            _mm256_set1_epi32(first));
    const __m256i want = _mm256_srlv_epi32(
        _mm256_set1_epi32(static_cast<int>(fingerprint)), column);
    const __m256i active = _mm256_cmpgt_epi32(
        _mm256_set1_epi32(at.columns), column);
    diff = _mm256_or_si256(
        diff, _mm256_and_si256(_mm256_and_si256(_mm256_xor_si256(x, want), one),
                               active));
  }
  return _mm256_testz_si256(diff, diff) != 0;
}
#endif  // SSTFILTER_BLOOM_HAVE_AVX2_PATH

}  // namespace burr_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BURR_BURR_PROBE_H_
