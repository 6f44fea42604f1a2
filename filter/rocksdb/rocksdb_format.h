// The on-disk constants of RocksDB 7.8.3's built-in full filters, shared by the
// FastLocalBloom and legacy Bloom code and the trailer parser
// (DescribeRocksDbFilter in rocksdb_format.cc). filter/rocksdb/README.md draws
// the layout; every fact cites RocksDB's table/block_based/filter_policy.cc or
// util/bloom_impl.h at tag v7.8.3.
//
// Internal header: include filter/rocksdb/rocksdb_bloom.h or
// filter/rocksdb/rocksdb_reader.h instead.

#ifndef SSTFILTER_FILTER_ROCKSDB_ROCKSDB_FORMAT_H_
#define SSTFILTER_FILTER_ROCKSDB_ROCKSDB_FORMAT_H_

#include <cstddef>
#include <cstdint>

namespace sstfilter {
namespace rocksdb_internal {

// Every built-in filter ends in this many bytes of metadata (kMetadataLen); the
// first of them says which format the body is.
constexpr size_t kTrailerBytes = 5;  // bytes

// First trailer byte, read as a signed char: 1..127 is the probe count of a
// legacy Bloom filter, 0 means "no probes" (matches everything), and negative
// values are markers.
constexpr uint8_t kNewBloomMarker = 0xFF;  // -1: the FastLocalBloom family
constexpr uint8_t kRibbonMarker = 0xFE;    // -2: Standard128Ribbon
constexpr uint8_t kZeroProbesMarker = 0x00;

// Second trailer byte of the 0xFF family: the sub-implementation.
constexpr uint8_t kFastLocalBloomSubImpl = 0x00;  // others reserved

// Third trailer byte of the 0xFF family: log2(block bytes) - 6 in the top 3
// bits, the probe count in the low 5.
constexpr int kBlockSizeShift = 5;          // bits below the block-size field
constexpr uint8_t kProbesFieldMask = 0x1F;  // low 5 bits: num_probes
constexpr int kMinLog2BlockBytes = 6;  // field value 0 means 64-byte blocks

// Probes per key each reader accepts: FastLocalBloom reserves 0 and 31; the
// legacy reader takes any positive signed byte.
constexpr int kFastLocalBloomMinProbes = 1;
constexpr int kFastLocalBloomMaxProbes = 30;
constexpr int kLegacyBloomMaxProbes = 127;

// Both Blooms keep each key's probes in one 64-byte line (CACHE_LINE_SIZE on
// x86-64; legacy filters written on machines with other line sizes record it
// through their line count, see DescribeRocksDbFilter).
constexpr uint32_t kCacheLineBytes = 64;  // bytes
constexpr uint32_t kCacheLineBits = 512;  // bits
constexpr int kLog2CacheLineBytes = 6;    // log2(kCacheLineBytes)
constexpr int kLog2CacheLineBits = 9;     // log2(kCacheLineBits)

// Ribbon trailer: the marker, one byte of hash seed, then the number of
// 128-slot blocks as a 24-bit little-endian integer.
constexpr uint32_t kRibbonSlotsPerBlock = 128;  // slots (coefficient bits)
constexpr uint32_t kRibbonMinBlocks = 2;        // fewer is reserved

// Keys per step of a batched query: each step hashes and prefetches all its
// keys before probing any, so their cache misses overlap. RocksDB's MultiGet
// batches are at most 32 keys (MultiGetContext::MAX_BATCH_SIZE).
constexpr size_t kBatchStep = 32;

// Reads byte i of a filter as unsigned.
inline uint8_t ByteAt(const char* p, size_t i) {
  return static_cast<uint8_t>(p[i]);
}

}  // namespace rocksdb_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ROCKSDB_ROCKSDB_FORMAT_H_
