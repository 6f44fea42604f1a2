// CRC32C of a filter's bytes, computed three streams at a time.
//
// A checked filter's CRC (checked_filter.h) is computed every time a reader
// is created, and RocksDB creates one for every filter partition it loads
// into its block cache: with partitions evicted as fast as they are loaded,
// the CRC is paid on most lookups (docs/rocksdb_releases.md measures it).
// util/crc32c.h's hardware loop issues one crc32 instruction after another,
// each waiting for the last (3 cycles of latency, 1 of throughput on x86), so
// it reaches a third of the instruction's throughput. Here three independent
// streams of one stride each run side by side and are joined by shifting a
// stream's CRC over the strides after it (a 32x32 GF(2) matrix applied as four
// table lookups). The value is crc32c::Extend's, on every input.

#ifndef SSTFILTER_FILTER_INTERNAL_CRC32C_INTERLEAVED_H_
#define SSTFILTER_FILTER_INTERNAL_CRC32C_INTERLEAVED_H_

#include <cstddef>
#include <cstdint>

namespace sstfilter {
namespace filter_internal {

// Equals crc32c::Extend(init_crc, data, n) (util/crc32c.h). Uses the
// interleaved hardware loop when the CPU has SSE4.2, else crc32c::Extend.
uint32_t ExtendCrc32cInterleaved(uint32_t init_crc, const char* data, size_t n);

// The bytes of each of the three streams. What is left under three strides
// takes crc32c::Extend's serial loop: rounds of shorter strides were slower
// there, their shift tables cold after RocksDB has streamed a block through
// the cache. Exposed for tests, which cover lengths around its multiples.
inline constexpr size_t kCrcStreamStrideBytes = 256;

}  // namespace filter_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_INTERNAL_CRC32C_INTERLEAVED_H_
