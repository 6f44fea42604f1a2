#include "util/crc32c.h"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace sstfilter {
namespace crc32c {
namespace {

// Slicing-by-8 tables: kTables[j][b] is the CRC of byte b followed by j zero
// bytes, so eight bytes are folded with eight lookups.
using Tables = std::array<std::array<uint32_t, 256>, 8>;

constexpr Tables MakeTables() {
  Tables t{};
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t crc = b;
    for (int i = 0; i < 8; ++i) {
      crc = (crc >> 1) ^ ((crc & 1) ? kReflectedPolynomial : 0);
    }
    t[0][b] = crc;
  }
  for (int j = 1; j < 8; ++j) {
    for (uint32_t b = 0; b < 256; ++b) {
      t[j][b] = (t[j - 1][b] >> 8) ^ t[0][t[j - 1][b] & 0xff];
    }
  }
  return t;
}

constexpr Tables kTables = MakeTables();

uint64_t Load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;  // little-endian: the byte order the tables assume
}

}  // namespace

uint32_t ExtendPortable(uint32_t init_crc, const char* data, size_t n) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(data);
  uint32_t crc = ~init_crc;
  for (; n >= 8; n -= 8, p += 8) {
    const uint64_t v = Load64(p) ^ crc;
    crc = kTables[7][v & 0xff] ^ kTables[6][(v >> 8) & 0xff] ^
          kTables[5][(v >> 16) & 0xff] ^ kTables[4][(v >> 24) & 0xff] ^
          kTables[3][(v >> 32) & 0xff] ^ kTables[2][(v >> 40) & 0xff] ^
          kTables[1][(v >> 48) & 0xff] ^ kTables[0][v >> 56];
  }
  for (; n > 0; --n, ++p) crc = (crc >> 8) ^ kTables[0][(crc ^ *p) & 0xff];
  return ~crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t ExtendHardware(uint32_t init_crc,
                                                          const char* data,
                                                          size_t n) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(data);
  uint64_t crc = ~init_crc;
  for (; n >= 8; n -= 8, p += 8) crc = _mm_crc32_u64(crc, Load64(p));
  uint32_t crc32 = static_cast<uint32_t>(crc);
  for (; n > 0; --n, ++p) crc32 = _mm_crc32_u8(crc32, *p);
  return ~crc32;
}

bool HardwareAvailable() {
  static const bool available = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2") != 0;
  }();
  return available;
}
#else
uint32_t ExtendHardware(uint32_t init_crc, const char* data, size_t n) {
  return ExtendPortable(init_crc, data, n);
}
bool HardwareAvailable() { return false; }
#endif

uint32_t Extend(uint32_t init_crc, const char* data, size_t n) {
  using Implementation = uint32_t (*)(uint32_t, const char*, size_t);
  static const Implementation fastest =
      WideCarrylessAvailable() ? &ExtendWideCarryless
      : CarrylessAvailable()   ? &ExtendCarryless
      : HardwareAvailable()    ? &ExtendHardware
                               : &ExtendPortable;
  return fastest(init_crc, data, n);
}

}  // namespace crc32c
}  // namespace sstfilter
