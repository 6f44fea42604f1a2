// The native Bloom filter's builder, for wrappers that write native filters
// themselves (the hybrid filter): it keeps the 64-bit hash of each key added,
// then sets every key's probe bits in a zeroed body, a block at a time in hash
// order, and appends the trailer. Format in bloom_format.h; sizing in
// bloom_sizing.h.

#ifndef SSTFILTER_FILTER_BLOOM_BLOOM_BUILDER_H_
#define SSTFILTER_FILTER_BLOOM_BLOOM_BUILDER_H_

#include <cstdint>
#include <memory>
#include <string>

#include "filter/filter_policy.h"
#include "filter/internal/chunk_list.h"

namespace sstfilter {
namespace bloom {

// Returns a builder of filters with bits_per_key bits per key and num_probes
// probes per key (as the policy's sizing chose them).
std::unique_ptr<FilterBuilder> NewLocalBloomBuilder(double bits_per_key,
                                                    int num_probes);

// Appends the filter of the keys whose hashes (KeyHash, a key added again
// right away kept once) are in hashes, as a builder's Finish does, for
// wrappers that keep the hashes themselves (the hybrid builder,
// filter/hybrid/). Sets bits in the order of the list: for a filter much
// larger than the L2 cache, slower than a builder, which visits its hashes in
// body order.
void AppendFilterFromHashes(const filter_internal::ChunkList& hashes,
                            double bits_per_key, int num_probes,
                            std::string* dst);

}  // namespace bloom

namespace bloom_internal {

using bloom::AppendFilterFromHashes;
using bloom::NewLocalBloomBuilder;

}  // namespace bloom_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BLOOM_BLOOM_BUILDER_H_
