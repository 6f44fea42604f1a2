// CRC32C (Castagnoli polynomial 0x1EDC6F41, reflected 0x82F63B78), the block
// checksum of LevelDB and RocksDB table files.
//
// Example:
//   uint32_t crc = crc32c::Value(data, n);
//   crc = crc32c::Extend(crc, more, m);        // == Value(data + more)
//   uint32_t stored = crc32c::Mask(crc);       // as tables store it
//
// Uses the fastest path the CPU has (carry-less folding, the crc32
// instruction, or a table-driven loop); all give the same values.

#ifndef SSTFILTER_UTIL_CRC32C_H_
#define SSTFILTER_UTIL_CRC32C_H_

#include <cstddef>
#include <cstdint>

namespace sstfilter {
namespace crc32c {

// The Castagnoli polynomial, bit-reflected: CRC32C's register shifts right.
inline constexpr uint32_t kReflectedPolynomial = 0x82f63b78;

// Returns the CRC32C of concat(A, data[0, n)) where init_crc is the CRC32C of
// A.
uint32_t Extend(uint32_t init_crc, const char* data, size_t n);

// Returns the CRC32C of data[0, n).
inline uint32_t Value(const char* data, size_t n) { return Extend(0, data, n); }

// LevelDB's and RocksDB's mask: computing the CRC of a string that embeds
// CRCs is weak, so a stored CRC is rotated and offset (util/crc32c.h of both
// projects).
constexpr uint32_t kMaskDelta = 0xa282ead8;

inline uint32_t Mask(uint32_t crc) {
  return ((crc >> 15) | (crc << 17)) + kMaskDelta;
}

inline uint32_t Unmask(uint32_t masked) {
  const uint32_t rot = masked - kMaskDelta;
  return (rot >> 17) | (rot << 15);
}

// The implementations Extend chooses from, for tests and benchmarks.
uint32_t ExtendPortable(uint32_t init_crc, const char* data, size_t n);
// The crc32 instruction, 8 bytes at a time. REQUIRES: HardwareAvailable().
uint32_t ExtendHardware(uint32_t init_crc, const char* data, size_t n);
bool HardwareAvailable();
// Folds 64 bytes a round with PCLMULQDQ; shorter inputs take ExtendHardware.
// REQUIRES: CarrylessAvailable() (PCLMULQDQ and SSE4.2).
uint32_t ExtendCarryless(uint32_t init_crc, const char* data, size_t n);
bool CarrylessAvailable();
// Folds 256 bytes a round with VPCLMULQDQ on AVX-512 registers; shorter
// inputs take ExtendCarryless. REQUIRES: WideCarrylessAvailable().
uint32_t ExtendWideCarryless(uint32_t init_crc, const char* data, size_t n);
bool WideCarrylessAvailable();

}  // namespace crc32c
}  // namespace sstfilter

#endif  // SSTFILTER_UTIL_CRC32C_H_
