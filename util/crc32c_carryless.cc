// CRC32C by folding with carry-less multiplication (PCLMULQDQ, and VPCLMULQDQ
// over AVX-512 registers): the message is reduced to 128 bits congruent to it
// modulo the polynomial, which two crc32 instructions then finish. The method
// is Gopal et al., "Fast CRC Computation for Generic Polynomials Using
// PCLMULQDQ Instruction" (Intel, 2009); the constants are derived below.
//
// In the bit-reflected order CRC32C uses, a 128-bit lane loaded little-endian
// holds a polynomial A = H * x^64 + L: its low 64 bits are H (bit i the
// coefficient of x^(63-i)), its high 64 bits L. Moving A forward by d bits of
// message is A * x^d = H * x^(d+64) + L * x^d, congruent to
// H * (x^(d+64) mod P) + L * (x^d mod P), which is under 96 bits. The product
// of two reflected 64-bit operands comes out as the reflection of the product
// times x, so each constant is x^(n-1) mod P, reflected into the upper half
// of a 64-bit operand.

#include <cstring>

#include "util/crc32c.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace sstfilter {
namespace crc32c {
namespace {

// The Castagnoli polynomial's low 32 coefficients; x^32 is implied.
constexpr uint32_t kPolynomial = 0x1edc6f41;

// x^n mod P, bit d the coefficient of x^d.
constexpr uint32_t XPowerModP(unsigned n) {
  uint64_t remainder = 1;
  for (unsigned i = 0; i < n; ++i) {
    remainder <<= 1;
    if (remainder >> 32) remainder ^= (uint64_t{1} << 32) | kPolynomial;
  }
  return static_cast<uint32_t>(remainder);
}

constexpr uint32_t Reverse32(uint32_t v) {
  uint32_t reversed = 0;
  for (int bit = 0; bit < 32; ++bit) reversed |= ((v >> bit) & 1) << (31 - bit);
  return reversed;
}

// The operand that multiplies 64 reflected bits by x^n mod P.
constexpr uint64_t Multiplier(unsigned n) {
  return uint64_t{Reverse32(XPowerModP(n - 1))} << 32;
}

// A lane's two multipliers for a fold forward by `bits`: H's and L's.
struct FoldPair {
  uint64_t high_half;
  uint64_t low_half;
};
constexpr FoldPair FoldBy(unsigned bits) {
  return {Multiplier(bits + 64), Multiplier(bits)};
}

#if defined(__x86_64__)
#define SSTFILTER_CARRYLESS_TARGET __attribute__((target("pclmul,sse4.2")))
#define SSTFILTER_WIDE_TARGET \
  __attribute__((target("avx512f,avx512vl,vpclmulqdq,pclmul,sse4.2")))

// The fold distances used below, computed by the compiler: called where no
// constant is required, FoldBy's loops (thousands of steps) would run on every
// call in unoptimized and sanitizer builds.
constexpr FoldPair kBy128 = FoldBy(128);
constexpr FoldPair kBy256 = FoldBy(256);
constexpr FoldPair kBy384 = FoldBy(384);
constexpr FoldPair kBy512 = FoldBy(512);
constexpr FoldPair kBy1024 = FoldBy(1024);
constexpr FoldPair kBy1536 = FoldBy(1536);
constexpr FoldPair kBy2048 = FoldBy(2048);

SSTFILTER_CARRYLESS_TARGET __m128i Constants(FoldPair fold) {
  return _mm_set_epi64x(static_cast<int64_t>(fold.low_half),
                        static_cast<int64_t>(fold.high_half));
}

SSTFILTER_CARRYLESS_TARGET __m128i Load(const char* p) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}

// acc moved forward by the distance `constants` was made for.
SSTFILTER_CARRYLESS_TARGET __m128i Fold(__m128i acc, __m128i constants) {
  return _mm_xor_si128(_mm_clmulepi64_si128(acc, constants, 0x00),
                       _mm_clmulepi64_si128(acc, constants, 0x11));
}

// Folds the 16-byte blocks left into acc, then lets the crc32 instruction
// reduce acc (the register is the CRC of acc's bytes from zero) and take the
// last bytes.
SSTFILTER_CARRYLESS_TARGET uint32_t Finish(__m128i acc, const char* p,
                                           size_t n) {
  const __m128i by_128 = Constants(kBy128);
  for (; n >= 16; n -= 16, p += 16) {
    acc = _mm_xor_si128(Fold(acc, by_128), Load(p));
  }
  uint64_t reg =
      _mm_crc32_u64(0, static_cast<uint64_t>(_mm_cvtsi128_si64(acc)));
  reg = _mm_crc32_u64(reg, static_cast<uint64_t>(_mm_extract_epi64(acc, 1)));
  return ExtendHardware(~static_cast<uint32_t>(reg), p, n);
}

// The zero-masked forms of broadcast and extract: GCC 12 warns that the plain
// ones' undefined upper bits may be used uninitialized.
SSTFILTER_WIDE_TARGET __m512i Constants512(FoldPair fold) {
  return _mm512_maskz_broadcast_i32x4(0xffff, Constants(fold));
}

SSTFILTER_WIDE_TARGET __m128i Lane(__m512i z, int lane) {
  switch (lane) {
    case 0:
      return _mm512_maskz_extracti32x4_epi32(0xf, z, 0);
    case 1:
      return _mm512_maskz_extracti32x4_epi32(0xf, z, 1);
    case 2:
      return _mm512_maskz_extracti32x4_epi32(0xf, z, 2);
    default:
      return _mm512_maskz_extracti32x4_epi32(0xf, z, 3);
  }
}

SSTFILTER_WIDE_TARGET __m512i Load512(const char* p) {
  return _mm512_loadu_si512(p);
}

SSTFILTER_WIDE_TARGET __m512i Fold512(__m512i acc, __m512i constants) {
  return _mm512_xor_si512(_mm512_clmulepi64_epi128(acc, constants, 0x00),
                          _mm512_clmulepi64_epi128(acc, constants, 0x11));
}

SSTFILTER_WIDE_TARGET __m512i Xor3(__m512i a, __m512i b, __m512i c) {
  return _mm512_ternarylogic_epi64(a, b, c, 0x96);
}
#endif

}  // namespace

#if defined(__x86_64__)
SSTFILTER_CARRYLESS_TARGET uint32_t ExtendCarryless(uint32_t init_crc,
                                                    const char* data,
                                                    size_t n) {
  constexpr size_t kRound = 64;  // four lanes of 16 bytes side by side
  static_assert(8 * kRound == 512, "a round folds by kBy512");
  if (n < kRound) return ExtendHardware(init_crc, data, n);
  // The starting register joins the message's first four bytes.
  __m128i a0 =
      _mm_xor_si128(Load(data), _mm_cvtsi32_si128(static_cast<int>(~init_crc)));
  __m128i a1 = Load(data + 16), a2 = Load(data + 32), a3 = Load(data + 48);
  const __m128i by_round = Constants(kBy512);
  for (data += kRound, n -= kRound; n >= kRound; data += kRound, n -= kRound) {
    a0 = _mm_xor_si128(Fold(a0, by_round), Load(data));
    a1 = _mm_xor_si128(Fold(a1, by_round), Load(data + 16));
    a2 = _mm_xor_si128(Fold(a2, by_round), Load(data + 32));
    a3 = _mm_xor_si128(Fold(a3, by_round), Load(data + 48));
  }
  const __m128i acc = _mm_xor_si128(
      _mm_xor_si128(Fold(a0, Constants(kBy384)), Fold(a1, Constants(kBy256))),
      _mm_xor_si128(Fold(a2, Constants(kBy128)), a3));
  return Finish(acc, data, n);
}

SSTFILTER_WIDE_TARGET uint32_t ExtendWideCarryless(uint32_t init_crc,
                                                   const char* data, size_t n) {
  constexpr size_t kRound = 256;  // four registers of four 16-byte lanes
  static_assert(8 * kRound == 2048, "a round folds by kBy2048");
  if (n < kRound) return ExtendCarryless(init_crc, data, n);
  __m512i z0 = _mm512_xor_si512(
      Load512(data),
      _mm512_inserti32x4(_mm512_setzero_si512(),
                         _mm_cvtsi32_si128(static_cast<int>(~init_crc)), 0));
  __m512i z1 = Load512(data + 64), z2 = Load512(data + 128),
          z3 = Load512(data + 192);
  const __m512i by_round = Constants512(kBy2048);
  for (data += kRound, n -= kRound; n >= kRound; data += kRound, n -= kRound) {
    z0 = _mm512_xor_si512(Fold512(z0, by_round), Load512(data));
    z1 = _mm512_xor_si512(Fold512(z1, by_round), Load512(data + 64));
    z2 = _mm512_xor_si512(Fold512(z2, by_round), Load512(data + 128));
    z3 = _mm512_xor_si512(Fold512(z3, by_round), Load512(data + 192));
  }
  const __m512i by_64_bytes = Constants512(kBy512);
  __m512i z = Xor3(Fold512(z0, Constants512(kBy1536)),
                   Fold512(z1, Constants512(kBy1024)),
                   _mm512_xor_si512(Fold512(z2, by_64_bytes), z3));
  for (; n >= 64; data += 64, n -= 64) {
    z = _mm512_xor_si512(Fold512(z, by_64_bytes), Load512(data));
  }
  // Lanes 0..2 move forward to lane 3's place; lane 3 is multiplied by zero.
  const __m512i to_last_lane =
      _mm512_set_epi64(0, 0, static_cast<int64_t>(kBy128.low_half),
                       static_cast<int64_t>(kBy128.high_half),
                       static_cast<int64_t>(kBy256.low_half),
                       static_cast<int64_t>(kBy256.high_half),
                       static_cast<int64_t>(kBy384.low_half),
                       static_cast<int64_t>(kBy384.high_half));
  const __m512i moved = Fold512(z, to_last_lane);
  const __m128i acc =
      _mm_xor_si128(_mm_xor_si128(Lane(moved, 0), Lane(moved, 1)),
                    _mm_xor_si128(Lane(moved, 2), Lane(z, 3)));
  return Finish(acc, data, n);
}

bool CarrylessAvailable() {
  static const bool available = [] {
    __builtin_cpu_init();
    return HardwareAvailable() && __builtin_cpu_supports("pclmul") != 0;
  }();
  return available;
}

bool WideCarrylessAvailable() {
  static const bool available = [] {
    __builtin_cpu_init();
    return CarrylessAvailable() && __builtin_cpu_supports("avx512f") != 0 &&
           __builtin_cpu_supports("avx512vl") != 0 &&
           __builtin_cpu_supports("vpclmulqdq") != 0;
  }();
  return available;
}
#else
uint32_t ExtendCarryless(uint32_t init_crc, const char* data, size_t n) {
  return ExtendPortable(init_crc, data, n);
}
uint32_t ExtendWideCarryless(uint32_t init_crc, const char* data, size_t n) {
  return ExtendPortable(init_crc, data, n);
}
bool CarrylessAvailable() { return false; }
bool WideCarrylessAvailable() { return false; }
#endif

}  // namespace crc32c
}  // namespace sstfilter
