#include "filter/internal/crc32c_interleaved.h"

#include <array>
#include <cstring>

#include "util/crc32c.h"

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace sstfilter {
namespace filter_internal {
namespace {

// The CRC register (no inversion) after `reg` is followed by n zero bytes.
// Linear in reg, which is what lets streams computed apart be joined.
constexpr uint32_t ShiftOverZeros(uint32_t reg, size_t n) {
  for (size_t bit = 0; bit < n * 8; ++bit) {
    reg = (reg >> 1) ^ ((reg & 1) ? crc32c::kReflectedPolynomial : 0);
  }
  return reg;
}

// tables[j][b]: ShiftOverZeros(b << (8 * j), stride), so a register is
// shifted over one stride by four lookups.
using ShiftTables = std::array<std::array<uint32_t, 256>, 4>;

ShiftTables MakeShiftTables(size_t stride) {
  uint32_t basis[32];
  for (int i = 0; i < 32; ++i) {
    basis[i] = ShiftOverZeros(uint32_t{1} << i, stride);
  }
  ShiftTables tables{};
  for (int j = 0; j < 4; ++j) {
    for (uint32_t b = 0; b < 256; ++b) {
      uint32_t shifted = 0;
      for (int bit = 0; bit < 8; ++bit) {
        if ((b >> bit) & 1) shifted ^= basis[8 * j + bit];
      }
      tables[j][b] = shifted;
    }
  }
  return tables;
}

template <size_t kStride>
const ShiftTables& TablesFor() {
  static const ShiftTables tables = MakeShiftTables(kStride);
  return tables;
}

uint32_t ShiftOverStride(const ShiftTables& t, uint32_t reg) {
  return t[0][reg & 0xff] ^ t[1][(reg >> 8) & 0xff] ^ t[2][(reg >> 16) & 0xff] ^
         t[3][reg >> 24];
}

#if defined(__x86_64__)
uint64_t Load64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

// Folds every whole round of three strides of data[0, *n) into reg, and
// advances data and n past them.
template <size_t kStride>
__attribute__((target("sse4.2"))) uint32_t FoldRounds(uint32_t reg,
                                                      const char** data,
                                                      size_t* n) {
  static_assert(kStride % 8 == 0, "streams advance 8 bytes at a time");
  const ShiftTables& tables = TablesFor<kStride>();
  const char* p = *data;
  size_t left = *n;
  for (; left >= 3 * kStride; left -= 3 * kStride, p += 3 * kStride) {
    // Every stream starts from zero and reg joins last, so a round's crc32
    // instructions never wait for the round before: only the three shifts of
    // reg are carried from round to round.
    uint64_t a = 0, b = 0, c = 0;
    for (size_t i = 0; i < kStride; i += 8) {
      a = _mm_crc32_u64(a, Load64(p + i));
      b = _mm_crc32_u64(b, Load64(p + kStride + i));
      c = _mm_crc32_u64(c, Load64(p + 2 * kStride + i));
    }
    const uint32_t through_a =
        ShiftOverStride(tables, reg) ^ static_cast<uint32_t>(a);
    const uint32_t through_b =
        ShiftOverStride(tables, through_a) ^ static_cast<uint32_t>(b);
    reg = ShiftOverStride(tables, through_b) ^ static_cast<uint32_t>(c);
  }
  *data = p;
  *n = left;
  return reg;
}

uint32_t ExtendInterleaved(uint32_t init_crc, const char* data, size_t n) {
  uint32_t reg = ~init_crc;
  reg = FoldRounds<kCrcStreamStrideBytes>(reg, &data, &n);
  return crc32c::Extend(~reg, data, n);
}
#endif

}  // namespace

uint32_t ExtendCrc32cInterleaved(uint32_t init_crc, const char* data,
                                 size_t n) {
#if defined(__x86_64__)
  if (crc32c::HardwareAvailable()) return ExtendInterleaved(init_crc, data, n);
#endif
  return crc32c::Extend(init_crc, data, n);
}

}  // namespace filter_internal
}  // namespace sstfilter
