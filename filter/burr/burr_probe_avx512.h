// The column check of burr_probe.h for x86-64 CPUs with AVX-512F and
// VPOPCNTDQ: eight columns per instruction sequence (two masked loads, two
// ternary-logic AND-XORs, a vector popcount and a test of the low bits),
// where the scalar check spends about nine instructions per column.
//
// Every function here carries target(SSTFILTER_BURR_AVX512_TARGET): call them
// only after filter_internal::CpuHasAvx512Popcnt() returned true, from code
// that carries the same attribute (so they inline).
//
// Internal header: include filter/burr/burr.h instead.

#ifndef SSTFILTER_FILTER_BURR_BURR_PROBE_AVX512_H_
#define SSTFILTER_FILTER_BURR_BURR_PROBE_AVX512_H_

#include <cstdint>

#include "filter/burr/burr_probe.h"

#if SSTFILTER_HAVE_AVX2_PATH
#include <immintrin.h>

#define SSTFILTER_BURR_AVX512_TARGET \
  "avx512f,avx512dq,avx512vpopcntdq,avx2,bmi,bmi2,popcnt"

namespace sstfilter {
namespace burr_internal {

// The columns of a block in groups of eight 64-bit lanes: masked loads read
// only the block's own words (a masked-off lane is neither read nor able to
// fault), so a group may run past the filter's end.
//
// The fingerprint is folded into the parities rather than compared with them
// afterwards: lane c also gets bit c of the fingerprint (as that bit, in
// place), so a column that gives the fingerprint's bit has even parity, and
// the key matches iff no lane is odd. The test of the lanes then sets the
// flags the answer needs directly (kortest), where a comparison needed the
// mask moved to a general register first: a shorter chain after the loads.
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
  const __m512i lane_bit = _mm512_setr_epi64(1, 2, 4, 8, 16, 32, 64, 128);
  const uint32_t column_mask =
      at.columns >= 32 ? ~uint32_t{0} : (uint32_t{1} << at.columns) - 1;
  __mmask8 odd = 0;
#pragma GCC unroll 4
  for (int g = 0; g < kGroups; ++g) {
    const __mmask8 lanes = static_cast<__mmask8>(column_mask >> (8 * g));
    const __m512i expected = _mm512_maskz_and_epi64(
        lanes,
        _mm512_set1_epi64(static_cast<long long>(fingerprint >> (8 * g))),
        lane_bit);
    const __m512i start = _mm512_maskz_loadu_epi64(lanes, at.words + 64 * g);
    const __m512i follow = _mm512_maskz_loadu_epi64(lanes, next + 64 * g);
    // Truth tables over the operands (a, b, c): 0x6a is (a & b) ^ c, 0x78 is
    // a ^ (b & c).
    const __m512i start_bits =
        _mm512_ternarylogic_epi64(start, low, expected, 0x6a);
    const __m512i bits =
        _mm512_ternarylogic_epi64(start_bits, follow, high, 0x78);
    odd = static_cast<__mmask8>(
        odd | _mm512_test_epi64_mask(_mm512_popcnt_epi64(bits), one));
  }
  return _kortestz_mask8_u8(odd, odd) != 0;  // no lane odd
}

}  // namespace burr_internal
}  // namespace sstfilter

#endif  // SSTFILTER_HAVE_AVX2_PATH
#endif  // SSTFILTER_FILTER_BURR_BURR_PROBE_AVX512_H_
