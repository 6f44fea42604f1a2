// CRC32C of a filter's bytes, computed three streams at a time: the value is
// crc32c::Extend's on every input, at up to three times the throughput of
// util/crc32c.h's loop, for the CRC a checked filter's reader verifies on
// creation. filter/format_version_2.md ("Cost") says why and how.

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
