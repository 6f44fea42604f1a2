// Setting and testing a key's probe bits in one block of the native Bloom
// filter, for the layers that keep blocks of the same layout (the mutable and
// counting filters, the Redis engine): a portable path for any block and an
// AVX2 path for regular 512-bit blocks, 8 probes per instruction sequence.
// Both compute the bits defined in bloom_format.h, bit for bit. The AVX2
// functions carry __attribute__((target("avx2"))): call them only after
// CpuHasAvx2() returned true, from code with the same attribute.

#ifndef SSTFILTER_FILTER_BLOOM_BLOOM_PROBE_H_
#define SSTFILTER_FILTER_BLOOM_BLOOM_PROBE_H_

#include <cstdint>
#include <cstring>

#include "filter/bloom/bloom_format.h"
#include "filter/internal/cpu_features.h"
#include "util/bloom_math.h"

namespace sstfilter {
namespace bloom {

// Returns whether this CPU runs AVX2 (filter/internal/cpu_features.h).
using ::sstfilter::filter_internal::CpuHasAvx2;

// Sets the k probe bits of a key (probe_hash = ProbeHash(hash)) in a block of
// block_bits bits.
inline void AddToBlock(uint32_t probe_hash, int k, uint64_t block_bits,
                       char* block) {
  for (int i = 0; i < k; ++i) {
    const uint32_t bit =
        ProbeBit(probe_hash * kProbeMultipliers[i], block_bits);
    block[bit >> 3] = static_cast<char>(block[bit >> 3] | (1 << (bit & 7)));
  }
}

}  // namespace bloom

namespace bloom_internal {

using bloom::AddToBlock;
using bloom::CpuHasAvx2;

// Whether all k probe bits of a key are set in a block of block_bits bits.
// Stops at the first clear bit. Byte loads only: never reads past the block.
// Any block size (the irregular last block); see below for regular ones.
inline bool ScalarProbeBlock(uint32_t probe_hash, int k, uint64_t block_bits,
                             const char* block) {
  for (int i = 0; i < k; ++i) {
    const uint32_t bit =
        ProbeBit(probe_hash * kProbeMultipliers[i], block_bits);
    if (((static_cast<uint8_t>(block[bit >> 3]) >> (bit & 7)) & 1) == 0)
      return false;
  }
  return true;
}

// The same two functions for a regular block (kBlockBits bits, so 8 whole
// 64-bit words), on little-endian 64-bit words: bit b of the block is bit b %
// 64 of word b / 64, the same bit as byte addressing. One read-modify-write per
// probe instead of a byte load, shift and store. memcpy: the block may have any
// alignment.
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
inline void AddToRegularBlock(uint32_t probe_hash, int k, char* block) {
  // Unrolled when k is a compile-time constant (the builder instantiates
  // k = 1..16): the multipliers become immediates.
#pragma GCC unroll 16
  for (int i = 0; i < k; ++i) {
    const uint32_t bit =
        (probe_hash * kProbeMultipliers[i]) >> (32 - kLog2BlockBits);
    char* const at = block + (bit >> 6) * 8;
    uint64_t word;
    std::memcpy(&word, at, 8);
    word |= uint64_t{1} << (bit & 63);
    std::memcpy(at, &word, 8);
  }
}

inline bool ScalarProbeRegularBlock(uint32_t probe_hash, int k,
                                    const char* block) {
  for (int i = 0; i < k; ++i) {
    const uint32_t bit =
        (probe_hash * kProbeMultipliers[i]) >> (32 - kLog2BlockBits);
    uint64_t word;
    std::memcpy(&word, block + (bit >> 6) * 8, 8);
    if (((word >> (bit & 63)) & 1) == 0) return false;
  }
  return true;
}
#else
inline void AddToRegularBlock(uint32_t probe_hash, int k, char* block) {
  AddToBlock(probe_hash, k, kBlockBits, block);
}
inline bool ScalarProbeRegularBlock(uint32_t probe_hash, int k,
                                    const char* block) {
  return ScalarProbeBlock(probe_hash, k, kBlockBits, block);
}
#endif

#if SSTFILTER_HAVE_AVX2_PATH
// kMaxLanes ones then kMaxLanes zeros: from kLaneOnes + kMaxLanes - k, the
// first k 32-bit lanes are 1, the rest 0.
constexpr int kMaxLanes = 32;
static_assert(kMaxProbes <= kMaxLanes, "every k fits the lane table");
alignas(32) constexpr uint32_t kLaneOnes[2 * kMaxLanes] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};

}  // namespace bloom_internal

namespace bloom {

// Returns the rounds of 8 probes that Avx2ProbeWords runs for k probes: 1 to 4.
constexpr int ProbeRounds(int k) { return (k + 7) / 8; }

// Returns whether all k probe bits of a key (probe_hash = ProbeHash(hash)) are
// set in a regular block (kBlockBits bits) held as its 16 little-endian 32-bit
// words in two vectors (words 0-7 and 8-15). No early exit: every round runs.
// kRounds > 0 promises ProbeRounds(k) == kRounds and unrolls the rounds;
// kRounds == 0 takes any k. filter/bloom/README.md (namespace bloom) explains.
template <int kRounds = 0>
__attribute__((target("avx2"), always_inline)) inline bool Avx2ProbeWords(
    uint32_t probe_hash, int k, __m256i low_words, __m256i high_words) {
  using bloom_internal::kLaneOnes;
  using bloom_internal::kMaxLanes;
  static_assert(kBlockBytes == 64 && kLog2BlockBits == 9,
                "two 256-bit halves of 9-bit bits");
  static_assert(kRounds >= 0 && kRounds * 8 <= kMaxLanes, "rounds of 8 lanes");
  const __m256i hash = _mm256_set1_epi32(static_cast<int>(probe_hash));
  // Lane i of the round starting at probe `first` is active iff first + i < k.
  const uint32_t* const active = kLaneOnes + kMaxLanes - k;
  const int rounds = kRounds > 0 ? kRounds : ProbeRounds(k);
  int result = 1;
#pragma GCC unroll 4
  for (int round = 0; round < rounds; ++round) {
    const int first = round * 8;
    const __m256i multipliers = _mm256_load_si256(
        reinterpret_cast<const __m256i*>(kProbeMultipliers + first));
    const __m256i p = _mm256_mullo_epi32(hash, multipliers);
    const __m256i word_index = _mm256_srli_epi32(p, 28);
    const __m256i from_low = _mm256_permutevar8x32_epi32(low_words, word_index);
    const __m256i from_high =
        _mm256_permutevar8x32_epi32(high_words, word_index);
    const __m256i words = _mm256_castps_si256(_mm256_blendv_ps(
        _mm256_castsi256_ps(from_low), _mm256_castsi256_ps(from_high),
        _mm256_castsi256_ps(p)));
    // Bit (p >> 23) & 31 of each word: shifting 1 (0 in inactive lanes) there.
    const __m256i bit_in_word = _mm256_srli_epi32(_mm256_slli_epi32(p, 4), 27);
    const __m256i bits = _mm256_sllv_epi32(
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(active + first)),
        bit_in_word);
    result &= _mm256_testc_si256(words, bits);
  }
  return result != 0;
}

}  // namespace bloom

namespace bloom_internal {

using bloom::Avx2ProbeWords;
using bloom::ProbeRounds;

// Avx2ProbeWords on a block in memory, at any alignment.
template <int kRounds = 0>
__attribute__((target("avx2"), always_inline)) inline bool
Avx2ProbeRegularBlock(uint32_t probe_hash, int k, const char* block) {
  return Avx2ProbeWords<kRounds>(
      probe_hash, k,
      _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block)),
      _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + 32)));
}
#endif  // SSTFILTER_HAVE_AVX2_PATH

}  // namespace bloom_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BLOOM_BLOOM_PROBE_H_
