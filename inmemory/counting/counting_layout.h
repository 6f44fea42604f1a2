// The counting Bloom filter's memory layout, as constants and the pure
// functions that map a key hash to its counters. inmemory/counting/README.md
// draws it. CountingBloomFilter::Save writes the blocks byte for byte (format
// version 1 of saved filters): a change here needs a new version there.
//
// Internal header: include inmemory/counting/counting_bloom.h instead.

#ifndef SSTFILTER_INMEMORY_COUNTING_COUNTING_LAYOUT_H_
#define SSTFILTER_INMEMORY_COUNTING_COUNTING_LAYOUT_H_

#include <cstdint>

#include "filter/bloom/bloom_format.h"
#include "filter/internal/cpu_features.h"

namespace sstfilter {
namespace counting_internal {

constexpr int kBlockBytes = 64;           // bytes per block: one cache line
constexpr int kCounterBits = 4;           // bits per counter
constexpr int kCountersPerBlock = 128;    // kBlockBytes * 8 / kCounterBits
constexpr int kLog2CountersPerBlock = 7;  // log2(kCountersPerBlock)
// A counter at kSaturated is stuck: never incremented nor decremented again.
constexpr int kSaturated = 15;  // largest value of a 4-bit counter

static_assert(kCountersPerBlock * kCounterBits == kBlockBytes * 8);
static_assert(kBlockBytes == filter_internal::kCacheLineBytes,
              "a block is one cache line");
static_assert(1 << kLog2CountersPerBlock == kCountersPerBlock);

// One cache line of counters. Counter c is the low nibble of byte c / 2 when c
// is even, the high nibble when it is odd. alignas: a block never straddles two
// cache lines.
struct alignas(kBlockBytes) Block {
  uint8_t bytes[kBlockBytes];
};

inline int GetCounter(const Block& block, uint32_t counter) {
  return (block.bytes[counter >> 1] >> ((counter & 1) * kCounterBits)) & 0xf;
}

// REQUIRES: 0 <= value <= kSaturated.
inline void SetCounter(Block* block, uint32_t counter, int value) {
  const int shift = (counter & 1) * kCounterBits;
  uint8_t& byte = block->bytes[counter >> 1];
  byte = static_cast<uint8_t>((byte & ~(0xf << shift)) | (value << shift));
}

// The block of a key: multiply-shift of the whole 64-bit hash onto the blocks,
// as the native filter's BlockIndex does (there onto bits, then their block):
// uniform for any number of blocks, dominated by the hash's high bits.
// REQUIRES: num_blocks > 0.
inline uint64_t BlockIndex(uint64_t hash, uint64_t num_blocks) {
  return static_cast<uint64_t>(
      (static_cast<unsigned __int128>(hash) * num_blocks) >> 64);
}

// Counter of probe i within the block: the native filter's probe values
// (bloom::ProbeHash, the hash's low half, times the probe's odd
// multiplier), top 7 bits. REQUIRES: 0 <= i < kMaxProbes.
inline uint32_t ProbeCounter(uint32_t probe_hash, int i) {
  return (probe_hash * bloom::kProbeMultipliers[i]) >>
         (32 - kLog2CountersPerBlock);
}

}  // namespace counting_internal
}  // namespace sstfilter

#endif  // SSTFILTER_INMEMORY_COUNTING_COUNTING_LAYOUT_H_
