// MutableBloomFilter's portable query path, and the choice of path (see
// query_paths.h).

#include "inmemory/mutable/query_paths.h"

#include "filter/bloom/bloom_probe.h"

namespace sstfilter {
namespace mutable_internal {
namespace {

bool ScalarContainsHash(const BodyView& body, uint64_t hash) {
  return AtomicBlockContains(bloom::ProbeHash(hash), body.num_probes,
                             body.BlockOf(hash));
}

bool ScalarContains(const BodyView& body, absl::string_view key) {
  return ScalarContainsHash(body, bloom::KeyHash(key));
}

void ScalarContainsBatch(const BodyView& body,
                         absl::Span<const absl::string_view> keys,
                         bool* results) {
  const std::atomic<uint64_t>* blocks[kQueryGroup];
  uint32_t probe_hashes[kQueryGroup];
  for (size_t start = 0; start < keys.size(); start += kQueryGroup) {
    const size_t count = std::min(kQueryGroup, keys.size() - start);
    PrepareGroup(body, keys.data() + start, count, blocks, probe_hashes);
    for (size_t i = 0; i < count; ++i) {
      results[start + i] =
          AtomicBlockContains(probe_hashes[i], body.num_probes, blocks[i]);
    }
  }
}

}  // namespace

const QueryPath& ScalarQueryPath() {
  static constexpr QueryPath kPath = {ScalarContains, ScalarContainsHash,
                                      ScalarContainsBatch};
  return kPath;
}

const QueryPath& BestQueryPath(int num_probes) {
#if SSTFILTER_HAVE_AVX2_PATH
  if (bloom::CpuHasAvx2()) return Avx2QueryPath(num_probes);
#endif
  return ScalarQueryPath();
}

}  // namespace mutable_internal
}  // namespace sstfilter
