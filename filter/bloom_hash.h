// The native Bloom filter's key hash, XXH3-64 with seed 0, compiled inline from
// libxxhash's own header so that hashing a short key costs no function call. It
// is the same function as util::Hash64 (the library call); bloom_format_test.cc
// checks that.
//
// Internal header: include filter/bloom.h instead.

#ifndef SSTFILTER_FILTER_BLOOM_HASH_H_
#define SSTFILTER_FILTER_BLOOM_HASH_H_

#include <cstdint>

#include "absl/strings/string_view.h"

#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include "xxhash.h"

namespace sstfilter {
namespace bloom_internal {

inline uint64_t KeyHash(absl::string_view key) {
  return XXH3_64bits(key.data(), key.size());
}

}  // namespace bloom_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BLOOM_HASH_H_
