// The query code of MutableBloomFilter, in two versions chosen once per filter
// (as the native policy chooses its reader): the portable probe of
// atomic_block.h, and the native AVX2 probe on atomically loaded words
// (query_paths_avx2.cc) when the CPU has AVX2. Both answer alike, bit for bit
// (query_paths_test.cc).
//
// Internal header of inmemory/mutable.

#ifndef SSTFILTER_INMEMORY_MUTABLE_QUERY_PATHS_H_
#define SSTFILTER_INMEMORY_MUTABLE_QUERY_PATHS_H_

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/bloom/bloom_format.h"
#include "inmemory/mutable/atomic_block.h"

namespace sstfilter {
namespace mutable_internal {

// What a query needs of a filter: its words and shape.
struct BodyView {
  const std::atomic<uint64_t>* words = nullptr;
  uint64_t num_blocks = 0;
  int num_probes = 0;

  const std::atomic<uint64_t>* BlockOf(uint64_t hash) const {
    return words +
           bloom::BlockIndex(hash, num_blocks * bloom::kBlockBits, num_blocks) *
               kWordsPerBlock;
  }
};

struct QueryPath {
  bool (*contains)(const BodyView& body, absl::string_view key);
  // hash = bloom::KeyHash(key).
  bool (*contains_hash)(const BodyView& body, uint64_t hash);
  // results[i] = contains(keys[i]).
  void (*contains_batch)(const BodyView& body,
                         absl::Span<const absl::string_view> keys,
                         bool* results);
};

const QueryPath& ScalarQueryPath();
#if SSTFILTER_HAVE_AVX2_PATH
// The AVX2 path for filters of num_probes probes: one per number of 8-probe
// rounds, as the native reader has (bloom_probe.h's Avx2ProbeWords).
// REQUIRES: bloom::CpuHasAvx2(), num_probes in [kMinProbes,
// kMaxProbes].
const QueryPath& Avx2QueryPath(int num_probes);
#endif
// The AVX2 path when this CPU has AVX2, else the scalar one.
const QueryPath& BestQueryPath(int num_probes);

// Keys per batch step: all are hashed and their blocks prefetched before any
// is probed, so that their cache misses overlap (the native reader's batch
// uses the same number).
constexpr size_t kQueryGroup = 64;

// Hashes keys[0..count-1], prefetches their blocks (one cache line each: the
// words are cache-aligned) and keeps each block and probe hash.
inline void PrepareGroup(const BodyView& body, const absl::string_view* keys,
                         size_t count, const std::atomic<uint64_t>** blocks,
                         uint32_t* probe_hashes) {
  for (size_t i = 0; i < count; ++i) {
    const uint64_t hash = bloom::KeyHash(keys[i]);
    blocks[i] = body.BlockOf(hash);
    probe_hashes[i] = bloom::ProbeHash(hash);
    __builtin_prefetch(blocks[i], /*rw=*/0, /*locality=*/1);
  }
}

}  // namespace mutable_internal
}  // namespace sstfilter

#endif  // SSTFILTER_INMEMORY_MUTABLE_QUERY_PATHS_H_
