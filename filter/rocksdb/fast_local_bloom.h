// RocksDB's FastLocalBloom filter (format_version 5): sizing, the probe rule,
// and its builder and reader. A key's 64-bit hash picks one 64-byte line with
// its low 32 bits and gives the k probes inside the line with its high 32.
// filter/rocksdb/README.md ("FastLocalBloom") has the rule and the RocksDB
// sources it comes from.
//
// Internal header: include filter/rocksdb/rocksdb_bloom.h instead.

#ifndef SSTFILTER_FILTER_ROCKSDB_FAST_LOCAL_BLOOM_H_
#define SSTFILTER_FILTER_ROCKSDB_FAST_LOCAL_BLOOM_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "filter/filter_policy.h"
#include "filter/rocksdb/rocksdb_format.h"

namespace sstfilter {
namespace rocksdb_internal {

// The golden ratio as a 32-bit odd constant: each probe's value is the
// previous one times this.
constexpr uint32_t kProbeMultiplier = 0x9e3779b9;
// A probe's bit within the line: the top 9 bits of its 32-bit value.
constexpr int kProbeShift = 32 - kLog2CacheLineBits;  // bits
// RocksDB caps the body so that its byte length fits 32 bits.
constexpr uint64_t kMaxFastLocalBloomBodyBytes = 0xffffffc0;  // bytes

// RocksDB's choice of k for a configured millibits per key
// (FastLocalBloomImpl::ChooseNumProbes): the most accurate k for a 512-bit
// line as measured by RocksDB, 1..24.
int FastLocalBloomProbes(int millibits_per_key);

// Body bytes for num_hashes distinct keys (CalculateSpace without the
// trailer): ceil(num_hashes * millibits / 8000) bytes, capped at
// kMaxFastLocalBloomBodyBytes, rounded up to whole 64-byte lines. 0 for no
// keys.
uint64_t FastLocalBloomBodyBytes(uint64_t num_hashes, int millibits_per_key);

// Byte offset of the line a hash selects in a body of num_lines lines.
inline uint32_t FastLocalBloomLineOffset(uint64_t hash, uint32_t num_lines) {
  const uint64_t line =
      (uint64_t{static_cast<uint32_t>(hash)} * num_lines) >> 32;
  return static_cast<uint32_t>(line << kLog2CacheLineBytes);
}

inline void FastLocalBloomAddToLine(uint64_t hash, int k, char* line) {
  uint32_t x = static_cast<uint32_t>(hash >> 32);
  for (int i = 0; i < k; ++i, x *= kProbeMultiplier) {
    const uint32_t bit = x >> kProbeShift;
    line[bit / 8] = static_cast<char>(line[bit / 8] | (1 << (bit % 8)));
  }
}

inline bool FastLocalBloomLineMatches(uint64_t hash, int k, const char* line) {
  uint32_t x = static_cast<uint32_t>(hash >> 32);
  for (int i = 0; i < k; ++i, x *= kProbeMultiplier) {
    const uint32_t bit = x >> kProbeShift;
    if ((line[bit / 8] & (1 << (bit % 8))) == 0) return false;
  }
  return true;
}

// The whole query of one hash against a body of num_lines lines.
inline bool FastLocalBloomMayMatch(uint64_t hash, int k, const char* body,
                                   uint32_t num_lines) {
  return FastLocalBloomLineMatches(
      hash, k, body + FastLocalBloomLineOffset(hash, num_lines));
}

// A builder writing RocksDB's exact bytes for millibits_per_key (as
// BloomLikeFilterPolicy rounds it) and optimize_filters_for_memory = false.
// Like RocksDB, a key whose hash equals the previous key's is not counted
// again (sorted keys often repeat a prefix). REQUIRES: millibits_per_key >=
// 1000.
std::unique_ptr<FilterBuilder> NewFastLocalBloomBuilder(int millibits_per_key);

// A reader of a FastLocalBloom body of num_lines 64-byte lines and k probes
// (as DescribeRocksDbFilter found them). REQUIRES: body holds num_lines * 64
// bytes and outlives the reader; num_lines >= 1; k in 1..30.
std::unique_ptr<FilterReader> NewFastLocalBloomReader(const char* body,
                                                      uint32_t num_lines,
                                                      int k);

}  // namespace rocksdb_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ROCKSDB_FAST_LOCAL_BLOOM_H_
