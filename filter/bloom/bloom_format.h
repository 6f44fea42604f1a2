// The native Bloom filter's layout (format kLocalBloomName, version 1): its
// constants, the key hash, and the pure functions that map a hash to a block
// and bits, for the layers built on the same layout (the mutable and counting
// filters, the Redis engine, the hybrid filter). Frozen: a change is a new
// format. filter/bloom/README.md draws the layout.
//
//   const uint64_t hash = bloom::KeyHash(key);
//   const uint64_t block = bloom::BlockIndex(hash, body_bits, num_blocks);

#ifndef SSTFILTER_FILTER_BLOOM_BLOOM_FORMAT_H_
#define SSTFILTER_FILTER_BLOOM_BLOOM_FORMAT_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "filter/filter_policy.h"
#include "filter/internal/key_hash.h"
#include "filter/internal/verdict.h"

namespace sstfilter {
namespace bloom_internal {

// The bit of the body (0 .. body_bits-1) a key's hash maps to: the first step
// of bloom::BlockIndex.
inline uint64_t BodyBitOfHash(uint64_t hash, uint64_t body_bits) {
  return static_cast<uint64_t>(
      (static_cast<unsigned __int128>(hash) * body_bits) >> 64);
}

}  // namespace bloom_internal

namespace bloom {

// The format's name, persisted beside the filter; changes iff kFormatMarker
// does.
constexpr char kLocalBloomName[] = "sstfilter.LocalBloom1";

// Format version 2: a version-1 filter with a CRC32C of its bytes
// (filter/internal/checked_filter.h, filter/format_version_2.md).
constexpr char kCheckedLocalBloomName[] = "sstfilter.LocalBloom2";

// Second-to-last byte of every filter of this format. Another value is a format
// this reader does not know, read as "may match".
constexpr uint8_t kFormatMarker = 0xB1;  // "Bloom, version 1"

constexpr uint64_t kBlockBytes = 64;  // bytes per block: one cache line
constexpr uint64_t kBlockBits = 512;  // bits per regular block
constexpr int kLog2BlockBits = 9;     // log2(kBlockBits)

// Trailer after the body: varint64 num_keys (1 to kMaxVarint64Bytes bytes,
// util/coding.h), then these three bytes.
constexpr size_t kFixedTrailerBytes = 3;  // varint length byte, marker, k

// Bits per key a writer may use; a filter whose body implies more or fewer is
// corrupt.
constexpr int kMinStoredBitsPerKey = 1;    // bits per key
constexpr int kMaxStoredBitsPerKey = 100;  // bits per key
// Every setting FilterOptions allows writes a filter the reader accepts.
static_assert(kMinStoredBitsPerKey <= kMinBitsPerKey &&
                  kMaxBitsPerKey <= kMaxStoredBitsPerKey,
              "filter_policy.h's bits/key range lies within the format's");

// Probe i of a key tests bit ProbeBit(ProbeHash(hash) * kProbeMultipliers[i],
// block bits) of its block. 32 odd constants (30 used, padded to four 8-lane
// vectors), the high 32 bits of successive splitmix64 outputs from seed
// 0x5eed51f1, made odd.
alignas(32) constexpr uint32_t kProbeMultipliers[32] = {
    0x43142b49, 0x89c1ec25, 0x6ebf2d0f, 0xdba2db73, 0x2a329501, 0xb66cde05,
    0xf39a22e1, 0x3d6e471f, 0x45ba1129, 0x7de33d11, 0x16eba621, 0x21e1a217,
    0xd5920de7, 0x3a31ea5b, 0x529b0e13, 0xcd82e34b, 0x3ac4a995, 0xebda5867,
    0x4e3dccdb, 0x71310e95, 0x124420e5, 0x3433553b, 0x7fa9020b, 0x34291c83,
    0xcad7a629, 0xb9d786f1, 0x52399ed1, 0xcd4a859b, 0x27ab73fb, 0xed48d737,
    0x9d585f3d, 0x349622b3};

// The body of a filter: num_blocks blocks; all but the last are kBlockBytes
// long, the last one takes the rest (kBlockBytes..2*kBlockBytes-1 bytes, or the
// whole body when it is shorter than one block).
struct BodyLayout {
  uint64_t body_bytes = 0;
  uint64_t body_bits = 0;
  uint64_t num_blocks = 0;
  uint64_t last_block_bits = 0;
  // Leading blocks of exactly kBlockBits bits (num_blocks, or num_blocks - 1
  // when the last block is irregular): the ones the vector probe path handles.
  uint64_t regular_blocks = 0;
};

// Returns the layout of a body of body_bytes bytes.
// REQUIRES: body_bytes > 0 and body_bytes < 2^61.
inline BodyLayout MakeBodyLayout(uint64_t body_bytes) {
  BodyLayout layout;
  layout.body_bytes = body_bytes;
  layout.body_bits = body_bytes * 8;
  layout.num_blocks = std::max<uint64_t>(1, body_bytes / kBlockBytes);
  layout.last_block_bits =
      layout.body_bits - (layout.num_blocks - 1) * kBlockBits;
  layout.regular_blocks = layout.last_block_bits == kBlockBits
                              ? layout.num_blocks
                              : layout.num_blocks - 1;
  return layout;
}

// Returns the block of a key, below num_blocks: multiply-shift of the whole
// 64-bit hash onto the body's bits (so a block's share of keys is its share of
// bits, the wide last block included), then the regular block containing that
// bit. 128-bit product: exact for any body size. REQUIRES: num_blocks == max(1,
// body_bits / kBlockBits) (as MakeBodyLayout computes).
inline uint64_t BlockIndex(uint64_t hash, uint64_t body_bits,
                           uint64_t num_blocks) {
  return std::min<uint64_t>(
      bloom_internal::BodyBitOfHash(hash, body_bits) >> kLog2BlockBits,
      num_blocks - 1);
}

// Returns the 32 bits of the hash that drive the probes within the block: the
// low half, which the block choice (dominated by the high bits) leaves close to
// independent.
inline uint32_t ProbeHash(uint64_t hash) { return static_cast<uint32_t>(hash); }

// Returns the bit of a block (0 .. block_bits-1) for a 32-bit probe value:
// fastrange, i.e. the top 9 bits for a regular 512-bit block. Bit b is bit (b %
// 8) of byte b / 8 of the block.
inline uint32_t ProbeBit(uint32_t probe, uint64_t block_bits) {
  return static_cast<uint32_t>((static_cast<uint64_t>(probe) * block_bits) >>
                               32);
}

// What a reader makes of a filter's bytes (filter/internal/verdict.h).
using ::sstfilter::filter_internal::Verdict;

// Returns the 64-bit hash of a key (XXH3-64, seed 0; filter/internal/
// key_hash.h), which the compact filter shares.
using ::sstfilter::filter_internal::KeyHash;

// A filter's trailer, decoded: verdict kProbe means the other fields describe
// a well-formed filter whose body starts at body.
struct ParsedFilter {
  // What a query reads first: in a reader object, after its vtable pointer,
  // these fill the rest of one 64-byte line.
  const char* body = nullptr;
  BodyLayout layout;
  int num_probes = 0;
  Verdict verdict = Verdict::kMatchNothing;
  uint64_t num_keys = 0;
};

// Returns the decoded trailer, checked against the length. Total: any bytes
// give a verdict.
ParsedFilter ParseFilter(absl::string_view filter);

// Appends the trailer for a body of the given number of keys and probes.
void AppendTrailer(uint64_t num_keys, int num_probes, std::string* dst);

}  // namespace bloom

namespace bloom_internal {

// Smallest well-formed filter: an empty body and a 1-byte varint. Anything
// shorter is not a filter of any key set and matches nothing.
constexpr size_t kMinFilterBytes = 1 + bloom::kFixedTrailerBytes;  // bytes

using ::sstfilter::filter_internal::kMaxShortKeyBytes;
using ::sstfilter::filter_internal::ShortKeyHash;

// The public layout, under the names this package's own code uses.
using bloom::AppendTrailer;
using bloom::BlockIndex;
using bloom::BodyLayout;
using bloom::kBlockBits;
using bloom::kBlockBytes;
using bloom::kCheckedLocalBloomName;
using bloom::KeyHash;
using bloom::kFixedTrailerBytes;
using bloom::kFormatMarker;
using bloom::kLocalBloomName;
using bloom::kLog2BlockBits;
using bloom::kMaxStoredBitsPerKey;
using bloom::kMinStoredBitsPerKey;
using bloom::kProbeMultipliers;
using bloom::MakeBodyLayout;
using bloom::ParsedFilter;
using bloom::ParseFilter;
using bloom::ProbeBit;
using bloom::ProbeHash;
using bloom::Verdict;

}  // namespace bloom_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BLOOM_BLOOM_FORMAT_H_
