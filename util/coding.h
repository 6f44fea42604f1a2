// Little-endian fixed-width and varint encodings, as LevelDB and RocksDB write
// them; and order-preserving encodings (big-endian integers, escaped byte
// strings), whose bytes compare like the values they encode.
//
// Encoders append to a std::string or write to a buffer the caller sized.
// Decoders of variable-length values take the end of the input and never read
// past it.

#ifndef SSTFILTER_UTIL_CODING_H_
#define SSTFILTER_UTIL_CODING_H_

#include <cstdint>
#include <cstring>
#include <string>

#include "absl/strings/string_view.h"

namespace sstfilter {

// Longest encodings, in bytes.
constexpr int kMaxVarint32Bytes = 5;
constexpr int kMaxVarint64Bytes = 10;

// The fixed-width encodings are little-endian; on a little-endian machine they
// are plain unaligned copies, which compilers turn into single loads and
// stores.
constexpr bool kLittleEndian = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

// REQUIRES: dst has room for 4 (resp. 8) bytes.
inline void EncodeFixed32(char* dst, uint32_t value) {
  if (kLittleEndian) {
    std::memcpy(dst, &value, sizeof(value));
    return;
  }
  for (int i = 0; i < 4; ++i) dst[i] = static_cast<char>(value >> (8 * i));
}
inline void EncodeFixed64(char* dst, uint64_t value) {
  if (kLittleEndian) {
    std::memcpy(dst, &value, sizeof(value));
    return;
  }
  for (int i = 0; i < 8; ++i) dst[i] = static_cast<char>(value >> (8 * i));
}

// REQUIRES: src holds at least 4 (resp. 8) readable bytes.
inline uint32_t DecodeFixed32(const char* src) {
  uint32_t value = 0;
  if (kLittleEndian) {
    std::memcpy(&value, src, sizeof(value));
    return value;
  }
  for (int i = 0; i < 4; ++i) {
    value |= static_cast<uint32_t>(static_cast<uint8_t>(src[i])) << (8 * i);
  }
  return value;
}
inline uint64_t DecodeFixed64(const char* src) {
  uint64_t value = 0;
  if (kLittleEndian) {
    std::memcpy(&value, src, sizeof(value));
    return value;
  }
  for (int i = 0; i < 8; ++i) {
    value |= static_cast<uint64_t>(static_cast<uint8_t>(src[i])) << (8 * i);
  }
  return value;
}

void PutFixed32(std::string* dst, uint32_t value);
void PutFixed64(std::string* dst, uint64_t value);

// Writes the varint encoding of value to dst and returns the byte after it.
// REQUIRES: dst has room for kMaxVarint32Bytes (resp. kMaxVarint64Bytes).
char* EncodeVarint32(char* dst, uint32_t value);
char* EncodeVarint64(char* dst, uint64_t value);

void PutVarint32(std::string* dst, uint32_t value);
void PutVarint64(std::string* dst, uint64_t value);

// Number of bytes the varint encoding of value takes.
int VarintLength(uint64_t value);

// Decodes a varint from [p, limit). Returns the byte after it, or nullptr when
// the input ends inside the varint or the encoding is longer than the type
// allows (or, for 32 bits, overflows it).
const char* GetVarint32Ptr(const char* p, const char* limit, uint32_t* value);
const char* GetVarint64Ptr(const char* p, const char* limit, uint64_t* value);

// Decodes a varint from the front of *input and advances past it. Returns false
// (and leaves *input unchanged) on malformed or truncated input.
bool GetVarint32(absl::string_view* input, uint32_t* value);
bool GetVarint64(absl::string_view* input, uint64_t* value);

// Order-preserving encodings: the encoded bytes compare (memcmp, as LevelDB's
// and RocksDB's bytewise comparator does) in the order of the values, so they
// may serve as sort keys. filter/typed_key.h builds typed keys from them.

// Appends the low `bytes` bytes of value, most significant first.
// REQUIRES: 1 <= bytes <= 8.
void PutBigEndian(std::string* dst, uint64_t value, int bytes);

// The inverse: `bytes` bytes, most significant first.
// REQUIRES: src holds `bytes` readable bytes; 1 <= bytes <= 8.
uint64_t DecodeBigEndian(const char* src, int bytes);

// A signed integer `bytes` wide as the unsigned integer of the same width in
// the same order: its two's complement with the sign bit flipped (minimum -> 0,
// -1 -> 0x7f..ff, 0 -> 0x80..00, maximum -> 0xff..ff).
// REQUIRES: 1 <= bytes <= 8, and value fits in `bytes` bytes.
inline uint64_t OrderedFromSigned(int64_t value, int bytes) {
  const uint64_t sign = uint64_t{1} << (8 * bytes - 1);
  const uint64_t mask = sign | (sign - 1);  // the low 8 * bytes bits
  return (static_cast<uint64_t>(value) & mask) ^ sign;
}

// The inverse of OrderedFromSigned. REQUIRES: 1 <= bytes <= 8, and bits fits in
// `bytes` bytes.
inline int64_t SignedFromOrdered(uint64_t bits, int bytes) {
  const uint64_t sign = uint64_t{1} << (8 * bytes - 1);
  const uint64_t mask = sign | (sign - 1);
  uint64_t twos = (bits ^ sign) & mask;
  if ((twos & sign) != 0) twos |= ~mask;  // sign-extend to 64 bits
  // Unsigned to signed is modular (guaranteed by GCC and Clang, and by C++20).
  return static_cast<int64_t>(twos);
}

// A byte string as a self-delimiting, order-preserving sequence: each 0x00 byte
// is written 0x00 0xFF, and the terminator 0x00 0x01 follows the last byte. A
// 0x00 inside the encoding is therefore always followed by 0xFF, so the first
// 0x00 0x01 ends it (no length needed in front, and what follows may be
// anything); a proper prefix of a string sorts first, since the terminator's
// 0x00 0x01 is below every continuation (0x00 0xFF, or a nonzero byte).
constexpr char kEscapePrefix = '\x00';       // starts an escape pair
constexpr char kEscapedZero = '\xff';        // 0x00 0xFF: a 0x00 byte
constexpr char kEscapedTerminator = '\x01';  // 0x00 0x01: end of string
void PutEscapedBytes(std::string* dst, absl::string_view bytes);

// Decodes an escaped byte string from the front of *input into *value and
// advances past its terminator. Returns false (and leaves *input unchanged)
// when the input ends before the terminator or holds 0x00 followed by anything
// but 0xFF or 0x01.
bool GetEscapedBytes(absl::string_view* input, std::string* value);

}  // namespace sstfilter

#endif  // SSTFILTER_UTIL_CODING_H_
