// MutableBloomFilter's AVX2 query path (see query_paths.h). Every function
// that runs the AVX2 probe carries target("avx2"), so that the probe inlines
// and the library needs no global -mavx2; BestQueryPath picks this path only
// when CpuHasAvx2(). The loops repeat query_paths.cc's: GCC inlines a
// target("avx2") function only into callers that carry the attribute too, so a
// loop shared as a template would call the probe out of line (the native
// readers, bloom_reader.cc and bloom_reader_avx2.cc, are written the same
// way).

#include <algorithm>

#include "inmemory/mutable/query_paths.h"

#if SSTFILTER_HAVE_AVX2_PATH

namespace sstfilter {
namespace mutable_internal {
namespace {

// kRounds: see bloom_probe.h's Avx2ProbeWords.
template <int kRounds>
__attribute__((target("avx2"))) bool Avx2ContainsHash(const BodyView& body,
                                                      uint64_t hash) {
  return Avx2AtomicBlockContains<kRounds>(bloom::ProbeHash(hash),
                                          body.num_probes, body.BlockOf(hash));
}

template <int kRounds>
__attribute__((target("avx2"))) bool Avx2Contains(const BodyView& body,
                                                  absl::string_view key) {
  const uint64_t hash = bloom::KeyHash(key);
  return Avx2AtomicBlockContains<kRounds>(bloom::ProbeHash(hash),
                                          body.num_probes, body.BlockOf(hash));
}

template <int kRounds>
__attribute__((target("avx2"))) void Avx2ContainsBatch(
    const BodyView& body, absl::Span<const absl::string_view> keys,
    bool* results) {
  const std::atomic<uint64_t>* blocks[kQueryGroup];
  uint32_t probe_hashes[kQueryGroup];
  for (size_t start = 0; start < keys.size(); start += kQueryGroup) {
    const size_t count = std::min(kQueryGroup, keys.size() - start);
    PrepareGroup(body, keys.data() + start, count, blocks, probe_hashes);
    for (size_t i = 0; i < count; ++i) {
      results[start + i] = Avx2AtomicBlockContains<kRounds>(
          probe_hashes[i], body.num_probes, blocks[i]);
    }
  }
}

template <int kRounds>
constexpr QueryPath kAvx2Path = {Avx2Contains<kRounds>,
                                 Avx2ContainsHash<kRounds>,
                                 Avx2ContainsBatch<kRounds>};

}  // namespace

const QueryPath& Avx2QueryPath(int num_probes) {
  switch (bloom::ProbeRounds(num_probes)) {
    case 1:
      return kAvx2Path<1>;
    case 2:
      return kAvx2Path<2>;
    case 3:
      return kAvx2Path<3>;
    default:
      return kAvx2Path<4>;
  }
}

}  // namespace mutable_internal
}  // namespace sstfilter

#endif  // SSTFILTER_HAVE_AVX2_PATH
