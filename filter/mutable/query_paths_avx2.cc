// MutableBloomFilter's AVX2 query path (see query_paths.h). Every function
// that runs the AVX2 probe carries target("avx2"), so that the probe inlines
// and the library needs no global -mavx2; BestQueryPath picks this path only
// when CpuHasAvx2(). The loops repeat query_paths.cc's: GCC inlines a
// target("avx2") function only into callers that carry the attribute too, so a
// loop shared as a template would call the probe out of line (the native
// readers, bloom_reader.cc and bloom_reader_avx2.cc, are written the same
// way).

#include <algorithm>

#include "filter/mutable/query_paths.h"

#if SSTFILTER_BLOOM_HAVE_AVX2_PATH

namespace sstfilter {
namespace mutable_internal {
namespace {

__attribute__((target("avx2"))) bool Avx2ContainsHash(const BodyView& body,
                                                      uint64_t hash) {
  return Avx2AtomicBlockContains(bloom_internal::ProbeHash(hash),
                                 body.num_probes, body.BlockOf(hash));
}

__attribute__((target("avx2"))) bool Avx2Contains(const BodyView& body,
                                                  absl::string_view key) {
  const uint64_t hash = bloom_internal::KeyHash(key);
  return Avx2AtomicBlockContains(bloom_internal::ProbeHash(hash),
                                 body.num_probes, body.BlockOf(hash));
}

__attribute__((target("avx2"))) void Avx2ContainsBatch(
    const BodyView& body, absl::Span<const absl::string_view> keys,
    bool* results) {
  const std::atomic<uint64_t>* blocks[kQueryGroup];
  uint32_t probe_hashes[kQueryGroup];
  for (size_t start = 0; start < keys.size(); start += kQueryGroup) {
    const size_t count = std::min(kQueryGroup, keys.size() - start);
    PrepareGroup(body, keys.data() + start, count, blocks, probe_hashes);
    for (size_t i = 0; i < count; ++i) {
      results[start + i] =
          Avx2AtomicBlockContains(probe_hashes[i], body.num_probes, blocks[i]);
    }
  }
}

}  // namespace

const QueryPath& Avx2QueryPath() {
  static constexpr QueryPath kPath = {Avx2Contains, Avx2ContainsHash,
                                      Avx2ContainsBatch};
  return kPath;
}

}  // namespace mutable_internal
}  // namespace sstfilter

#endif  // SSTFILTER_BLOOM_HAVE_AVX2_PATH
