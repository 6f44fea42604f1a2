// The native Bloom filter's readers: a portable one, an AVX2 one (chosen at run
// time on x86-64 CPUs that have AVX2; bloom_reader_avx2.cc) and a constant one
// for filters that match nothing or everything. Also the per-key query steps
// the readers share with the policy's KeyMayMatch, inline so that every caller
// compiles them into its own loop.
//
// Internal header: include filter/bloom/bloom.h instead.

#ifndef SSTFILTER_FILTER_BLOOM_BLOOM_READER_H_
#define SSTFILTER_FILTER_BLOOM_BLOOM_READER_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/strings/string_view.h"
#include "filter/bloom/bloom_format.h"
#include "filter/bloom/bloom_hash.h"
#include "filter/bloom/bloom_probe.h"
#include "filter/filter_policy.h"

namespace sstfilter {
namespace bloom_internal {

// A reader that answers `answer` to every key: false for a filter that matches
// nothing (no keys), true for one that may match everything (unreadable).
std::unique_ptr<FilterReader> NewConstantReader(bool answer);

// Readers of a well-formed filter (filter.verdict == Verdict::kProbe).
std::unique_ptr<FilterReader> NewScalarReader(const ParsedFilter& filter);
#if SSTFILTER_BLOOM_HAVE_AVX2_PATH
// REQUIRES: CpuHasAvx2().
std::unique_ptr<FilterReader> NewAvx2Reader(const ParsedFilter& filter);

// One query on the AVX2 path, for a caller compiled without AVX2 (the probe
// code inlines only into functions that carry target("avx2")).
// REQUIRES: CpuHasAvx2().
bool Avx2MayMatchOutOfLine(const ParsedFilter& filter, absl::string_view key);
#endif

// Shared by the readers of a well-formed filter. Aligned to a cache line, so
// that the fields a query reads first (ParsedFilter's leading ones, after the
// vtable pointer) are one line; bloom.h, "Alignment".
class alignas(64) LocalBloomReaderBase : public FilterReader {
 public:
  explicit LocalBloomReaderBase(const ParsedFilter& filter) : filter_(filter) {}

  // The formula's estimate; never 0, which the API reserves for a filter that
  // matches nothing (the estimate underflows for very sparse bodies, and a
  // crafted body can match keys it was not built from).
  double ExpectedFpp() const override;

 protected:
  const ParsedFilter filter_;
};

// Keys per batch step: all are hashed and their blocks prefetched before any is
// probed, so their cache misses overlap.
constexpr size_t kQueryBatch = 64;

struct BatchSlot {
  uint64_t block;
  uint32_t probe_hash;
};

inline void PrepareBatch(const ParsedFilter& filter,
                         const absl::string_view* keys, size_t count,
                         BatchSlot* slots) {
  // Every block has at least this many bytes (only a one-block body may be
  // shorter than kBlockBytes): the prefetches stay inside the body.
  const uint64_t last_byte =
      std::min<uint64_t>(kBlockBytes, filter.layout.body_bytes) - 1;
  // A block is one cache line only if the caller's buffer is 64-byte aligned;
  // otherwise it spans two, and both are needed (the AVX2 path loads all of
  // it), so its last byte is prefetched too.
  const bool blocks_span_two_lines =
      reinterpret_cast<uintptr_t>(filter.body) % kBlockBytes != 0;
  for (size_t i = 0; i < count; ++i) {
    const uint64_t hash = KeyHash(keys[i]);
    slots[i].block =
        BlockIndex(hash, filter.layout.body_bits, filter.layout.num_blocks);
    slots[i].probe_hash = ProbeHash(hash);
    const char* block = filter.body + slots[i].block * kBlockBytes;
    __builtin_prefetch(block, /*rw=*/0, /*locality=*/1);
    if (blocks_span_two_lines) {
      __builtin_prefetch(block + last_byte, /*rw=*/0, /*locality=*/1);
    }
  }
}

inline bool ScalarProbe(const ParsedFilter& filter, uint64_t block,
                        uint32_t probe_hash) {
  const char* data = filter.body + block * kBlockBytes;
  if (block < filter.layout.regular_blocks) {
    return ScalarProbeRegularBlock(probe_hash, filter.num_probes, data);
  }
  return ScalarProbeBlock(probe_hash, filter.num_probes,
                          filter.layout.last_block_bits, data);
}

inline bool ScalarMayMatch(const ParsedFilter& filter, absl::string_view key) {
  const uint64_t hash = KeyHash(key);
  return ScalarProbe(
      filter,
      BlockIndex(hash, filter.layout.body_bits, filter.layout.num_blocks),
      ProbeHash(hash));
}

}  // namespace bloom_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BLOOM_BLOOM_READER_H_
