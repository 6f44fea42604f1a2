// Little-endian fixed-width and varint encodings, as LevelDB and RocksDB write
// them.
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

}  // namespace sstfilter

#endif  // SSTFILTER_UTIL_CODING_H_
