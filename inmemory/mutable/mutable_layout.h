// What a growing native-layout Bloom filter needs from its options and when it
// is frozen, shared by MutableBloomFilter (in memory) and RedisBloomFilter
// (in Redis, engines/redis): the body's shape for FilterOptions and an expected
// key count, and the native trailer that turns the body into a filter.
//
// Internal header of inmemory/mutable.

#ifndef SSTFILTER_INMEMORY_MUTABLE_MUTABLE_LAYOUT_H_
#define SSTFILTER_INMEMORY_MUTABLE_MUTABLE_LAYOUT_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "filter/filter_policy.h"

namespace sstfilter {
namespace mutable_internal {

struct MutableShape {
  double bits_per_key = 0;
  int num_probes = 0;
  uint64_t num_blocks = 0;  // whole 64-byte blocks, at least one
};

// bits/key and k exactly as NewBloomFilterPolicy sizes them, and
// ceil(expected_keys * bits/key / 8) bytes rounded up to whole blocks.
// InvalidArgumentError naming the value, prefixed by `who`, for invalid
// options, expected_keys == 0, or a body above max_bytes (the message names
// the limit as max_bytes_name).
absl::StatusOr<MutableShape> ShapeFor(const FilterOptions& options,
                                      uint64_t expected_keys,
                                      uint64_t max_bytes,
                                      absl::string_view max_bytes_name,
                                      absl::string_view who);

// The body of expected_keys keys at bits_per_key: ceil(expected_keys *
// bits_per_key / 8) bytes rounded up to whole 64-byte blocks, at least one.
// InvalidArgumentError, prefixed by `who`, for a body above max_bytes (the
// message names the limit as max_bytes_name).
absl::StatusOr<uint64_t> BodyBlocksFor(uint64_t expected_keys,
                                       double bits_per_key, uint64_t max_bytes,
                                       absl::string_view max_bytes_name,
                                       absl::string_view who);

// Makes *filter, which holds a native body of num_blocks blocks (the last may
// be wide, as MakeBodyLayout allows) with bits_set bits set, into a native
// filter: the trailer with the key count estimated from the fill (clamped to
// what a reader accepts), and the CRC32C trailer of format version 2 when
// self_checksum. A body with no bit set becomes the native empty filter,
// which matches nothing, as the body does.
void FinishFrozenFilter(uint64_t bits_set, uint64_t num_blocks, int num_probes,
                        bool self_checksum, std::string* filter);

// Bytes FinishFrozenFilter may append, to reserve before filling the body.
size_t MaxFrozenTrailerBytes();

}  // namespace mutable_internal
}  // namespace sstfilter

#endif  // SSTFILTER_INMEMORY_MUTABLE_MUTABLE_LAYOUT_H_
