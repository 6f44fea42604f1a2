// Checking a key's equation against one layer of the bumped Ribbon filter:
// where the equation lies, what to prefetch, and the parity of its
// coefficients with each solution column. Everything is inline and written
// once: the AVX2 and AVX-512 readers replace only the column check
// (burr_probe_avx2.h, burr_probe_avx512.h), and keep this one, compiled with
// popcnt, for filters with no lower column; tests check that the three paths
// agree.
//
// Internal header: include filter/burr/burr.h instead.

#ifndef SSTFILTER_FILTER_BURR_BURR_PROBE_H_
#define SSTFILTER_FILTER_BURR_BURR_PROBE_H_

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "filter/burr/burr_format.h"
#include "filter/internal/cpu_features.h"

namespace sstfilter {
namespace burr_internal {

// Where a key's equation lies in a layer: pure arithmetic on the hash, so a
// batch can prefetch before it reads anything.
struct Position {
  uint64_t block;     // in the layer's numbering
  uint32_t offset;    // start slot within the block, 0..63
  int columns;        // solution columns of the block
  const char* words;  // first word of the block
};

// Whether a block is lower or upper is as unpredictable as a coin with the
// upper share's bias, so nothing here branches on it (GCC turned the plain
// conditional expressions into branches, which mispredicted on about a third of
// queries).
__attribute__((always_inline)) inline Position PositionOf(
    const ParsedLayer& layer, int lower_columns, uint64_t layer_hash) {
  const LayerShape& shape = layer.shape;
  const uint64_t slot =
      StartSlotInLayer(layer_hash, shape.num_segments, layer.layer_starts);
  Position at;
  at.block = slot >> kLog2BlockSlots;
  at.offset = static_cast<uint32_t>(slot & (kBlockSlots - 1));
  const uint64_t upper_before =
      std::max(at.block, shape.upper_start) - shape.upper_start;
  at.columns = lower_columns + static_cast<int>(at.block >= shape.upper_start);
  at.words =
      layer.words +
      (at.block * static_cast<uint64_t>(lower_columns) + upper_before) * 8;
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

// The key's coefficients split over the two blocks its 64 slots span: the
// bits that fall in the start block (shifted up by the offset) and those that
// fall in the next (none at offset 0). Then column c's parity is that of
// (word c of the start block AND low) XOR (word c of the next block AND high):
// no shift per column.
struct SplitRow {
  uint64_t low;
  uint64_t high;
};

// Without a branch on the offset (0 in one query of 64, so a branch would
// mispredict about once in 64 queries and cost instructions in every one):
// at offset 0, (coeff >> 1) >> 63 is 0.
__attribute__((always_inline)) inline SplitRow SplitCoeffs(uint64_t coeff,
                                                           uint32_t offset) {
  return SplitRow{coeff << offset, (coeff >> 1) >> (63 - offset)};
}

__attribute__((always_inline)) inline uint32_t ColumnParity(
    const char* words, const char* next, int c, const SplitRow& row) {
  return static_cast<uint32_t>(
      __builtin_parityll((LoadWord(words + 8 * c) & row.low) ^
                         (LoadWord(next + 8 * c) & row.high)));
}

// The words of the block after the start block, which follow the start
// block's words directly. At offset 0 the start block is read in its place (a
// start at offset 0 may be in a segment's last block): SplitCoeffs gives it
// no bits there. Arithmetic, not a conditional, for the reason SplitCoeffs
// gives.
__attribute__((always_inline)) inline const char* FollowingWords(
    const Position& at) {
  const uint64_t block_bytes = uint64_t{8} * static_cast<uint64_t>(at.columns);
  const uint64_t past_start = uint64_t{0} - uint64_t{at.offset != 0};
  return at.words + (block_bytes & past_start);
}

// Whether the solution gives the key's fingerprint in every column of its
// block.
__attribute__((always_inline)) inline bool ScalarCheck(const Position& at,
                                                       uint64_t coeff,
                                                       uint32_t fingerprint) {
  const char* next = FollowingWords(at);
  const SplitRow row = SplitCoeffs(coeff, at.offset);
  uint32_t acc = 0;
  for (int c = 0; c < at.columns; ++c) {
    acc |= ColumnParity(at.words, next, c, row) << c;
  }
  const uint32_t mask =
      at.columns >= 32 ? ~uint32_t{0} : (uint32_t{1} << at.columns) - 1;
  return acc == (fingerprint & mask);
}

// ScalarCheck for a filter whose lower blocks have kLower >= 1 columns (so a
// block has kLower or kLower + 1): the loop unrolls, and the extra column of an
// upper block is computed without a branch (an upper block is about as
// likely as a lower one, so a branch on it would mispredict often).
template <int kLower>
__attribute__((always_inline)) inline bool FixedCheck(const Position& at,
                                                      uint64_t coeff,
                                                      uint32_t fingerprint) {
  const bool upper = at.columns > kLower;
  const char* next = FollowingWords(at);
  const SplitRow row = SplitCoeffs(coeff, at.offset);
  uint32_t acc = 0;
#pragma GCC unroll 32
  for (int c = 0; c < kLower; ++c) {
    acc |= ColumnParity(at.words, next, c, row) << c;
  }
  static_assert(kLower >= 1 && kLower < kMaxColumns,
                "lower blocks have 1..kMaxColumns-1 columns");
  // In a lower block, read column 0 again instead (always inside the filter)
  // and drop the bit.
  const int extra = kLower & -static_cast<int>(upper);  // no branch
  acc |= (ColumnParity(at.words, next, extra, row) & upper) << kLower;
  const int columns = kLower + (upper ? 1 : 0);
  const uint32_t mask =
      columns >= 32 ? ~uint32_t{0} : (uint32_t{1} << columns) - 1;
  return acc == (fingerprint & mask);
}

// Either check, for a filter whose lower blocks have kLower columns.
template <int kLower>
__attribute__((always_inline)) inline bool CheckAt(const Position& at,
                                                   uint64_t coeff,
                                                   uint32_t fingerprint) {
  if constexpr (kLower == 0) {
    return ScalarCheck(at, coeff, fingerprint);
  } else {
    return FixedCheck<kLower>(at, coeff, fingerprint);
  }
}

}  // namespace burr_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BURR_BURR_PROBE_H_
