// MutableBloomFilter::Freeze: the filter's words as a native filter
// ("sstfilter.LocalBloom2", or "sstfilter.LocalBloom1" without the CRC;
// filter/bloom/README.md, filter/format_version_2.md).

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <string>

#include "filter/bloom/bloom_format.h"
#include "filter/internal/checked_filter.h"
#include "inmemory/mutable/atomic_block.h"
#include "inmemory/mutable/fill_estimates.h"
#include "inmemory/mutable/mutable_bloom.h"
#include "inmemory/mutable/mutable_layout.h"
#include "util/coding.h"

namespace sstfilter {

std::string MutableBloomFilter::Freeze() const {
  std::string filter;
  // The trailer's room up front: appending it must not copy the body.
  filter.reserve(MemoryBytes() + mutable_internal::MaxFrozenTrailerBytes());
  filter.resize(MemoryBytes());
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
  mutable_internal::FinishFrozenFilter(bits_set, num_blocks_, num_probes_,
                                       self_checksum_, &filter);
  return filter;
}

}  // namespace sstfilter
