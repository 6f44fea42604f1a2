// MutableBloomFilter::Freeze: the filter's words as a native filter
// ("sstfilter.LocalBloom2", or "sstfilter.LocalBloom1" without the CRC;
// filter/bloom/README.md, filter/README.md).

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <string>

#include "filter/bloom/bloom_format.h"
#include "filter/internal/checked_filter.h"
#include "filter/mutable/atomic_block.h"
#include "filter/mutable/fill_estimates.h"
#include "filter/mutable/mutable_bloom.h"
#include "util/coding.h"

namespace sstfilter {
namespace {

using bloom_internal::kMaxStoredBitsPerKey;
using bloom_internal::kMinStoredBitsPerKey;

// The key count a reader accepts for a body of body_bits bits nearest to
// estimate: ParseFilter reads a body of n keys only if
// n * kMinStoredBitsPerKey <= body_bits < n * kMaxStoredBitsPerKey + 8.
// REQUIRES: body_bits >= kBlockBits.
uint64_t TrailerKeyCount(double estimate, uint64_t body_bits) {
  const uint64_t lowest = (body_bits - 8) / kMaxStoredBitsPerKey + 1;
  const uint64_t highest = body_bits / kMinStoredBitsPerKey;
  if (!(estimate < static_cast<double>(highest))) return highest;  // and NaN
  return std::clamp<uint64_t>(static_cast<uint64_t>(std::llround(estimate)),
                              lowest, highest);
}

}  // namespace

std::string MutableBloomFilter::Freeze() const {
  std::string filter;
  const uint64_t body_bytes = MemoryBytes();
  // The trailer's room up front: appending it must not copy the body.
  filter.reserve(body_bytes + kMaxVarint64Bytes +
                 bloom_internal::kFixedTrailerBytes +
                 filter_internal::kCheckedTrailerBytes + 1);
  filter.resize(body_bytes);
  // One relaxed load per word, written little-endian: bit b % 64 of word b / 64
  // is bit b % 8 of byte b / 8, the native layout (atomic_block.h). The count
  // comes from these very words, so the trailer describes the body it follows
  // even while other threads add.
  uint64_t bits_set = 0;
  const std::atomic<uint64_t>* words = words_.data();
  for (uint64_t w = 0; w < words_.size(); ++w) {
    const uint64_t word = words[w].load(std::memory_order_relaxed);
    EncodeFixed64(&filter[w * 8], word);
    bits_set += __builtin_popcountll(word);
  }
  if (bits_set == 0) {
    // The native filter of no keys: an empty body and a count of 0 (a fresh
    // string, not one holding the body's capacity).
    std::string empty;
    bloom_internal::AppendTrailer(0, num_probes_, &empty);
    if (self_checksum_) filter_internal::AppendCheckedTrailer(0, &empty);
    return empty;
  }
  const double estimate =
      mutable_internal::EstimateKeys(bits_set, num_blocks_, num_probes_);
  bloom_internal::AppendTrailer(TrailerKeyCount(estimate, NumBits()),
                                num_probes_, &filter);
  if (self_checksum_) filter_internal::AppendCheckedTrailer(0, &filter);
  return filter;
}

}  // namespace sstfilter
