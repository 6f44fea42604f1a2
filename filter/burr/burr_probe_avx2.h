// The column check of burr_probe.h for x86-64 CPUs with AVX2: four columns
// per 256-bit vector. AVX2 has no vector popcount, so a column's parity comes
// from its bytes: a nibble lookup (vpshufb) gives each byte's parity, and a
// sum of absolute differences (vpsadbw) adds up each lane's odd bytes.
//
// Every function here carries target("avx2,popcnt"): call them only after
// CpuHasAvx2() returned true, from code that carries the same attribute (so
// they inline). Internal header: include filter/burr/burr.h instead.

#ifndef SSTFILTER_FILTER_BURR_BURR_PROBE_AVX2_H_
#define SSTFILTER_FILTER_BURR_BURR_PROBE_AVX2_H_

#include <cstdint>

#include "filter/burr/burr_probe.h"

#if SSTFILTER_HAVE_AVX2_PATH
#include <immintrin.h>

namespace sstfilter {
namespace burr_internal {

// The parity of the four 64-bit lanes of v, as bits 0..3.
__attribute__((always_inline, target("avx2,popcnt"))) inline uint32_t
LaneParities(__m256i v) {
  // Parity of each nibble value 0..15, once per 128-bit half (vpshufb looks
  // up within its half).
  const __m256i nibble_parity =
      _mm256_setr_epi8(0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0,  //
                       0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0);
  const __m256i low_nibbles = _mm256_set1_epi8(0x0f);
  const __m256i byte_parity = _mm256_xor_si256(
      _mm256_shuffle_epi8(nibble_parity, _mm256_and_si256(v, low_nibbles)),
      _mm256_shuffle_epi8(
          nibble_parity,
          _mm256_and_si256(_mm256_srli_epi16(v, 4), low_nibbles)));
  const __m256i odd_bytes =
      _mm256_sad_epu8(byte_parity, _mm256_setzero_si256());
  return static_cast<uint32_t>(_mm256_movemask_pd(
      _mm256_castsi256_pd(_mm256_slli_epi64(odd_bytes, 63))));
}

// CheckAt for a filter whose lower blocks have kLower >= 1 columns, four
// columns per step. Masked loads read only the block's own words (a
// masked-off lane is neither read nor able to fault), so a step may run past
// the filter's end.
template <int kLower>
__attribute__((always_inline, target("avx2,popcnt"))) inline bool
Avx2VectorCheck(const Position& at, uint64_t coeff, uint32_t fingerprint) {
  static_assert(kLower >= 1 && kLower < kMaxColumns,
                "lower blocks have 1..kMaxColumns-1 columns");
  constexpr int kSteps = (kLower + 1 + 3) / 4;  // up to kLower + 1 columns
  const char* next = FollowingWords(at);
  const SplitRow row = SplitCoeffs(coeff, at.offset);
  const __m256i low = _mm256_set1_epi64x(static_cast<long long>(row.low));
  const __m256i high = _mm256_set1_epi64x(static_cast<long long>(row.high));
  const __m256i lane = _mm256_setr_epi64x(0, 1, 2, 3);
  uint32_t parities = 0;
#pragma GCC unroll 8
  for (int s = 0; s < kSteps; ++s) {
    const int first = 4 * s;
    // Lanes of columns the block has: columns - first > lane.
    const __m256i present =
        _mm256_cmpgt_epi64(_mm256_set1_epi64x(at.columns - first), lane);
    const __m256i start = _mm256_maskload_epi64(
        reinterpret_cast<const long long*>(at.words + 8 * first), present);
    const __m256i follow = _mm256_maskload_epi64(
        reinterpret_cast<const long long*>(next + 8 * first), present);
    const __m256i bits = _mm256_xor_si256(_mm256_and_si256(start, low),
                                          _mm256_and_si256(follow, high));
    parities |= LaneParities(bits) << first;
  }
  const uint32_t column_mask =
      at.columns >= 32 ? ~uint32_t{0} : (uint32_t{1} << at.columns) - 1;
  return parities == (fingerprint & column_mask);
}

}  // namespace burr_internal
}  // namespace sstfilter

#endif  // SSTFILTER_HAVE_AVX2_PATH
#endif  // SSTFILTER_FILTER_BURR_BURR_PROBE_AVX2_H_
