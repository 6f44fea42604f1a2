#include "util/coding.h"

namespace sstfilter {

namespace {
constexpr uint8_t kVarintMore = 0x80;  // high bit: another byte follows
constexpr uint8_t kVarintPayload = 0x7f;
}  // namespace

void PutFixed32(std::string* dst, uint32_t value) {
  char buf[4];
  EncodeFixed32(buf, value);
  dst->append(buf, sizeof(buf));
}

void PutFixed64(std::string* dst, uint64_t value) {
  char buf[8];
  EncodeFixed64(buf, value);
  dst->append(buf, sizeof(buf));
}

char* EncodeVarint64(char* dst, uint64_t value) {
  while (value >= kVarintMore) {
    *dst++ = static_cast<char>((value & kVarintPayload) | kVarintMore);
    value >>= 7;
  }
  *dst++ = static_cast<char>(value);
  return dst;
}

char* EncodeVarint32(char* dst, uint32_t value) {
  return EncodeVarint64(dst, value);
}

void PutVarint32(std::string* dst, uint32_t value) {
  char buf[kMaxVarint32Bytes];
  dst->append(buf, EncodeVarint32(buf, value) - buf);
}

void PutVarint64(std::string* dst, uint64_t value) {
  char buf[kMaxVarint64Bytes];
  dst->append(buf, EncodeVarint64(buf, value) - buf);
}

int VarintLength(uint64_t value) {
  int length = 1;
  while (value >= kVarintMore) {
    value >>= 7;
    ++length;
  }
  return length;
}

const char* GetVarint64Ptr(const char* p, const char* limit, uint64_t* value) {
  uint64_t result = 0;
  for (int shift = 0; shift <= 63 && p < limit; shift += 7) {
    const uint64_t byte = static_cast<uint8_t>(*p++);
    if (shift == 63 && byte > 1) return nullptr;  // would overflow 64 bits
    result |= (byte & kVarintPayload) << shift;
    if ((byte & kVarintMore) == 0) {
      *value = result;
      return p;
    }
  }
  return nullptr;
}

const char* GetVarint32Ptr(const char* p, const char* limit, uint32_t* value) {
  // At most 5 bytes; the value must fit in 32 bits.
  const char* const capped =
      (limit - p > kMaxVarint32Bytes) ? p + kMaxVarint32Bytes : limit;
  uint64_t wide = 0;
  const char* next = GetVarint64Ptr(p, capped, &wide);
  if (next == nullptr || wide > UINT32_MAX) return nullptr;
  *value = static_cast<uint32_t>(wide);
  return next;
}

bool GetVarint32(absl::string_view* input, uint32_t* value) {
  const char* end = input->data() + input->size();
  const char* next = GetVarint32Ptr(input->data(), end, value);
  if (next == nullptr) return false;
  *input = absl::string_view(next, static_cast<size_t>(end - next));
  return true;
}

bool GetVarint64(absl::string_view* input, uint64_t* value) {
  const char* end = input->data() + input->size();
  const char* next = GetVarint64Ptr(input->data(), end, value);
  if (next == nullptr) return false;
  *input = absl::string_view(next, static_cast<size_t>(end - next));
  return true;
}

}  // namespace sstfilter
