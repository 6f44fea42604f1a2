// The description of a RedisBloomFilter, stored as the value of the filter's
// own Redis key (its segments are the keys "<name>:0", "<name>:1", ...): 46
// bytes, integers little-endian, ending in a masked CRC32C of the rest. The
// layout, field by field: README.md ("Layout in Redis").

#ifndef SSTFILTER_ENGINES_REDIS_REDIS_BLOOM_META_H_
#define SSTFILTER_ENGINES_REDIS_REDIS_BLOOM_META_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sstfilter {
namespace redis_internal {

// A segment is at most this long (the last one may add its wide last block,
// under 64 bytes more): a quarter of Redis's 512 MB string limit.
constexpr uint64_t kMaxSegmentBytes = uint64_t{256} << 20;
// Body sizes a description may give: at least one block, at most 2^50 bytes.
constexpr uint64_t kMaxBodyBytes = uint64_t{1} << 50;

struct RedisBloomMeta {
  uint64_t body_bytes = 0;
  uint64_t blocks_per_segment = 0;
  uint64_t expected_keys = 0;
  double bits_per_key = 0;
  int num_probes = 0;
  bool self_checksum = true;
};

constexpr size_t kMetaBytes = 46;

std::string EncodeMeta(const RedisBloomMeta& meta);

// Total: any bytes give a description or a DataLossError naming the field
// that is wrong, including ranges (a body of at least one block, segments
// within kMaxSegmentBytes, k in [1, 30], bits/key in [1, 100]).
absl::StatusOr<RedisBloomMeta> DecodeMeta(absl::string_view bytes);

}  // namespace redis_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_REDIS_REDIS_BLOOM_META_H_
