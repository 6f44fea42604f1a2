// Setting and testing a key's probe bits in one regular 512-bit block of the
// native Bloom format (filter/bloom/bloom_format.h), the block held as eight
// std::atomic<uint64_t> words so that threads may add keys while others query.
// Bit b of a block is bit b % 64 of word b / 64, so a block's words written
// out little-endian are the native block. Every access is relaxed, and bits
// are only ever set: a query that happens after an Add's return sees the
// key's bits, with no fence (inmemory/mutable/README.md, "Memory ordering").
//
// Internal header of inmemory/mutable.

#ifndef SSTFILTER_INMEMORY_MUTABLE_ATOMIC_BLOCK_H_
#define SSTFILTER_INMEMORY_MUTABLE_ATOMIC_BLOCK_H_

#include <atomic>
#include <cstdint>

#include "filter/bloom/bloom_format.h"
#include "filter/bloom/bloom_probe.h"

namespace sstfilter {
namespace mutable_internal {

constexpr int kWordsPerBlock = 8;  // 64-bit words per 64-byte block
static_assert(kWordsPerBlock * 64 == bloom::kBlockBits,
              "a block is eight 64-bit words");

// The bit of a regular block that probe i of a key tests: the top 9 bits of
// the probe value, as bloom_format.h's ProbeBit does for a 512-bit block.
inline uint32_t ProbeBitInBlock(uint32_t probe_hash, int i) {
  return (probe_hash * bloom::kProbeMultipliers[i]) >>
         (32 - bloom::kLog2BlockBits);
}

// A key's k probe bits in a block, as one mask per word.
struct BlockMasks {
  uint64_t word[kWordsPerBlock];
};

inline BlockMasks ProbeMasks(uint32_t probe_hash, int k) {
  BlockMasks masks = {};
  for (int i = 0; i < k; ++i) {
    const uint32_t bit = ProbeBitInBlock(probe_hash, i);
    masks.word[bit >> 6] |= uint64_t{1} << (bit & 63);
  }
  return masks;
}

// Sets the bits of masks in block. Returns true iff this call set at least one
// bit that was clear (Guava's put contract: "the bits changed").
//
// One atomic read-modify-write per word that still lacks a bit: a word that
// already holds all of its bits (a key added again, or a word filled by other
// keys) is only read, so repeated keys neither pay for a locked instruction
// nor take the cache line away from the cores reading it. Each bit is set by
// exactly one fetch_or that saw it clear, so across all threads the Adds that
// return true set every bit of the filter between them.
//
// The block's words are all loaded first and the words lacking a bit found
// without a branch; then only those take a fetch_or. Testing word by word, a
// branch per word on a loaded value, mispredicted about half the time, costs
// more than the locked instructions (inmemory/mutable/README.md, "What an Add
// costs").
//
// Concurrent Adds of one key may both return true: the key's bits usually span
// several words, and two threads may each be the first to reach a different
// one. Both may also return false when other keys set the bits first.
inline bool AtomicAddToBlock(const BlockMasks& masks,
                             std::atomic<uint64_t>* block) {
  unsigned lacking = 0;  // bit w: word w lacks one of the key's bits
  for (int w = 0; w < kWordsPerBlock; ++w) {
    const uint64_t word = block[w].load(std::memory_order_relaxed);
    lacking |= static_cast<unsigned>((masks.word[w] & ~word) != 0) << w;
  }
  bool changed = false;
  while (lacking != 0) {
    const int w = __builtin_ctz(lacking);
    lacking &= lacking - 1;
    const uint64_t mask = masks.word[w];
    const uint64_t before = block[w].fetch_or(mask, std::memory_order_relaxed);
    changed |= (before & mask) != mask;
  }
  return changed;
}

// AtomicAddToBlock for a caller that is the only thread adding to the filter
// (queries may run concurrently): relaxed loads and relaxed stores, no
// read-modify-write. With one writer nothing can set a bit between the load
// and the store, so no bit is lost, and a reader's relaxed loads see a word's
// old or new value, both subsets of the final one: the argument at the top of
// this file holds as for fetch_or.
//
// One branch on the loaded words per key, not one per word: a mispredicted
// branch that waits for a cache miss discards the work of the keys after it,
// so consecutive keys' misses would not overlap. All eight words are stored,
// unchanged ones too: whether a key has a bit in a given word is a coin toss,
// and those mispredictions cost more than stores to a line being written
// anyway. A key whose bits are all set already stores nothing (repeated keys
// do not dirty a line that readers hold). With no locked instruction, one
// key's cache miss can overlap the next's (inmemory/mutable/README.md).
inline bool SingleWriterAddToBlock(const BlockMasks& masks,
                                   std::atomic<uint64_t>* block) {
  uint64_t words[kWordsPerBlock];
  uint64_t missing = 0;
  for (int w = 0; w < kWordsPerBlock; ++w) {
    words[w] = block[w].load(std::memory_order_relaxed);
    missing |= masks.word[w] & ~words[w];
  }
  if (missing == 0) return false;
  for (int w = 0; w < kWordsPerBlock; ++w) {
    block[w].store(words[w] | masks.word[w], std::memory_order_relaxed);
  }
  return true;
}

// Whether all k probe bits of a key are set in block. Tests every probe and
// combines the bits without a branch: whether an absent key fails on its
// first probe or its third is unpredictable, and a mispredicted exit costs
// more than the remaining loads (all in the one cache line already fetched),
// and stops the CPU from starting the next query's cache miss early.
inline bool AtomicBlockContains(uint32_t probe_hash, int k,
                                const std::atomic<uint64_t>* block) {
  uint64_t all = 1;
  for (int i = 0; i < k; ++i) {
    const uint32_t bit = ProbeBitInBlock(probe_hash, i);
    all &= block[bit >> 6].load(std::memory_order_relaxed) >> (bit & 63);
  }
  return (all & 1) != 0;
}

#if SSTFILTER_HAVE_AVX2_PATH
// Loads 16 bytes at `at`, 16-byte aligned, as one access. Other threads set
// bits in these words with fetch_or, so a C++ vector load would be a data
// race; the load is written in assembly, where what the CPU guarantees holds:
// an aligned 16-byte load is atomic on x86-64 CPUs with AVX (Intel SDM vol.
// 3A, 9.1.1; AMD APM vol. 2, 7.3.2), and a relaxed load asks only that each
// word be read whole.
__attribute__((target("avx2"), always_inline)) inline __m128i LoadAligned16(
    const std::atomic<uint64_t>* at) {
  __m128i value;
  asm volatile("vmovdqa %1, %0"
               : "=x"(value)
               : "m"(*reinterpret_cast<const __m128i*>(at)));
  return value;
}

// AtomicBlockContains with the native AVX2 probe (bloom_probe.h): the block
// read by four aligned 16-byte loads (LoadAligned16) into the two vectors the
// probe tests. REQUIRES: block 64-byte aligned. Call only after CpuHasAvx2(),
// from code that carries the same target attribute. kRounds as for
// Avx2ProbeWords.
template <int kRounds = 0>
__attribute__((target("avx2"), always_inline)) inline bool
Avx2AtomicBlockContains(uint32_t probe_hash, int k,
                        const std::atomic<uint64_t>* block) {
  return bloom::Avx2ProbeWords<kRounds>(
      probe_hash, k,
      _mm256_set_m128i(LoadAligned16(block + 2), LoadAligned16(block)),
      _mm256_set_m128i(LoadAligned16(block + 6), LoadAligned16(block + 4)));
}
#endif  // SSTFILTER_HAVE_AVX2_PATH

}  // namespace mutable_internal
}  // namespace sstfilter

#endif  // SSTFILTER_INMEMORY_MUTABLE_ATOMIC_BLOCK_H_
