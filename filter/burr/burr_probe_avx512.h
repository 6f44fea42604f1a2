// The column check of burr_probe.h for x86-64 CPUs with AVX-512F and
// VPOPCNTDQ: eight columns per instruction sequence (two masked loads, an
// AND, a ternary-logic XOR, a vector popcount and a test of the low bits),
// where the scalar check spends about nine instructions per column.
//
// Every function here carries target(SSTFILTER_BURR_AVX512_TARGET): call them
// only after CpuHasAvx512Popcnt() returned true, from code that carries the
// same attribute (so they inline).
//
// Internal header: include filter/burr/burr.h instead.

#ifndef SSTFILTER_FILTER_BURR_BURR_PROBE_AVX512_H_
#define SSTFILTER_FILTER_BURR_BURR_PROBE_AVX512_H_

#include <cstdint>

#include "filter/burr/burr_probe.h"

#if SSTFILTER_BLOOM_HAVE_AVX2_PATH
#include <immintrin.h>

#define SSTFILTER_BURR_AVX512_TARGET \
  "avx512f,avx512vpopcntdq,avx2,bmi,bmi2,popcnt"

namespace sstfilter {
namespace burr_internal {

// The columns of a block in groups of eight 64-bit lanes: masked loads read
// only the block's own words (a masked-off lane is neither read nor able to
// fault), so a group may run past the filter's end.
template <int kLower>
__attribute__((always_inline, target(SSTFILTER_BURR_AVX512_TARGET))) inline bool
VectorCheck(const Position& at, uint64_t coeff, uint32_t fingerprint) {
  static_assert(kLower >= 1 && kLower < kMaxColumns,
                "lower blocks have 1..kMaxColumns-1 columns");
  constexpr int kGroups = (kLower + 1 + 7) / 8;  // up to kLower + 1 columns
  const char* next = FollowingWords(at);
  const SplitRow row = SplitCoeffs(coeff, at.offset);
  const __m512i low = _mm512_set1_epi64(static_cast<long long>(row.low));
  const __m512i high = _mm512_set1_epi64(static_cast<long long>(row.high));
  const __m512i one = _mm512_set1_epi64(1);
  const uint32_t column_mask =
      at.columns >= 32 ? ~uint32_t{0} : (uint32_t{1} << at.columns) - 1;
  uint32_t parities = 0;
#pragma GCC unroll 4
  for (int g = 0; g < kGroups; ++g) {
    const __mmask8 lanes = static_cast<__mmask8>(column_mask >> (8 * g));
    const __m512i start = _mm512_maskz_loadu_epi64(lanes, at.words + 64 * g);
    const __m512i follow = _mm512_maskz_loadu_epi64(lanes, next + 64 * g);
    // (start AND low) XOR (follow AND high): 0x78 is the truth table of
    // a ^ (b & c) over the operands (a, b, c).
    const __m512i bits = _mm512_ternarylogic_epi64(_mm512_and_si512(start, low),
                                                   follow, high, 0x78);
    const __mmask8 odd = _mm512_test_epi64_mask(_mm512_popcnt_epi64(bits), one);
    parities |= static_cast<uint32_t>(odd) << (8 * g);
  }
  return parities == (fingerprint & column_mask);
}

}  // namespace burr_internal
}  // namespace sstfilter

#endif  // SSTFILTER_BLOOM_HAVE_AVX2_PATH
#endif  // SSTFILTER_FILTER_BURR_BURR_PROBE_AVX512_H_
