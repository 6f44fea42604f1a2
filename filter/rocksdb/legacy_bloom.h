// RocksDB's legacy full-filter Bloom (format_version < 5): sizing, the probe
// rule, and its builder and reader. A key's 32-bit hash picks a line and
// steps through it; RocksDB writes 64-byte lines, and its reader (like this
// one) also takes the other power-of-two line sizes of machines with longer
// cache lines. filter/rocksdb/README.md ("Legacy Bloom") has the rule and the
// RocksDB sources it comes from.
//
// Internal header: include filter/rocksdb/rocksdb_bloom.h instead.

#ifndef SSTFILTER_FILTER_ROCKSDB_LEGACY_BLOOM_H_
#define SSTFILTER_FILTER_ROCKSDB_LEGACY_BLOOM_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "filter/filter_policy.h"
#include "filter/rocksdb/rocksdb_format.h"

namespace sstfilter {
namespace rocksdb_internal {

// delta = hash rotated right by this many bits.
constexpr int kLegacyDeltaRotation = 17;
// RocksDB caps n * bits/key so that the bit count fits 32 bits.
constexpr uint64_t kMaxLegacyTotalBits = 0xffff0000;  // bits

// RocksDB's k for whole bits per key (LegacyNoLocalityBloomImpl::
// ChooseNumProbes): floor(0.69 * bits), clamped to [1, 30].
int LegacyBloomProbes(int whole_bits_per_key);

// Lines for num_hashes distinct keys (CalculateSpace): ceil(min(num_hashes *
// bits, kMaxLegacyTotalBits) / 512), made odd by adding one if even ("so that
// more bits are involved when determining which block"); 0 for no keys. The
// body is that many 64-byte lines.
uint32_t LegacyBloomLines(uint64_t num_hashes, int whole_bits_per_key);

inline uint32_t LegacyBloomDelta(uint32_t hash) {
  return (hash >> kLegacyDeltaRotation) | (hash << (32 - kLegacyDeltaRotation));
}

// Probes of one hash in its line of 2^log2_line_bits bits.
inline void LegacyBloomAddToLine(uint32_t hash, int k, int log2_line_bits,
                                 char* line) {
  const uint32_t delta = LegacyBloomDelta(hash);
  const uint32_t mask = (uint32_t{1} << log2_line_bits) - 1;
  for (int i = 0; i < k; ++i, hash += delta) {
    const uint32_t bit = hash & mask;
    line[bit / 8] = static_cast<char>(line[bit / 8] | (1 << (bit % 8)));
  }
}

inline bool LegacyBloomLineMatches(uint32_t hash, int k, int log2_line_bits,
                                   const char* line) {
  const uint32_t delta = LegacyBloomDelta(hash);
  const uint32_t mask = (uint32_t{1} << log2_line_bits) - 1;
  for (int i = 0; i < k; ++i, hash += delta) {
    const uint32_t bit = hash & mask;
    if ((line[bit / 8] & (1 << (bit % 8))) == 0) return false;
  }
  return true;
}

// The whole query of one hash against a body of num_lines lines of
// 2^log2_line_bytes bytes.
inline bool LegacyBloomMayMatch(uint32_t hash, int k, const char* body,
                                uint32_t num_lines, int log2_line_bytes) {
  const char* line = body + (uint64_t{hash % num_lines} << log2_line_bytes);
  return LegacyBloomLineMatches(hash, k, log2_line_bytes + 3, line);
}

// A builder writing RocksDB's exact bytes for whole_bits_per_key (as
// BloomLikeFilterPolicy rounds bits/key for this format). Like RocksDB, a key
// whose hash equals the previous key's is not counted again. REQUIRES:
// whole_bits_per_key >= 1.
std::unique_ptr<FilterBuilder> NewLegacyBloomBuilder(int whole_bits_per_key);

// A reader of a legacy body of num_lines lines of line_bytes bytes and k
// probes (as DescribeRocksDbFilter found them). REQUIRES: body holds num_lines
// * line_bytes bytes and outlives the reader; num_lines >= 1; line_bytes a
// power of two at most 2^27; k in 1..127.
std::unique_ptr<FilterReader> NewLegacyBloomReader(const char* body,
                                                   uint32_t num_lines,
                                                   uint32_t line_bytes, int k);

}  // namespace rocksdb_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ROCKSDB_LEGACY_BLOOM_H_
