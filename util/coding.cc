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

void PutBigEndian(std::string* dst, uint64_t value, int bytes) {
  char buf[8];
  for (int i = 0; i < bytes; ++i) {
    buf[i] = static_cast<char>(value >> (8 * (bytes - 1 - i)));
  }
  dst->append(buf, static_cast<size_t>(bytes));
}

uint64_t DecodeBigEndian(const char* src, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) {
    value = (value << 8) | static_cast<uint8_t>(src[i]);
  }
  return value;
}

void PutEscapedBytes(std::string* dst, absl::string_view bytes) {
  // Copies runs between zero bytes whole: text keys usually have none.
  while (!bytes.empty()) {
    const void* zero = std::memchr(bytes.data(), 0, bytes.size());
    if (zero == nullptr) {
      dst->append(bytes.data(), bytes.size());
      break;
    }
    const size_t run =
        static_cast<size_t>(static_cast<const char*>(zero) - bytes.data());
    dst->append(bytes.data(), run);
    dst->push_back(kEscapePrefix);
    dst->push_back(kEscapedZero);
    bytes.remove_prefix(run + 1);
  }
  dst->push_back(kEscapePrefix);
  dst->push_back(kEscapedTerminator);
}

bool GetEscapedBytes(absl::string_view* input, std::string* value) {
  std::string decoded;
  for (size_t i = 0; i < input->size(); ++i) {
    const char c = (*input)[i];
    if (c != kEscapePrefix) {
      decoded.push_back(c);
      continue;
    }
    if (i + 1 == input->size()) return false;  // ends inside a pair
    const char next = (*input)[i + 1];
    if (next == kEscapedZero) {
      decoded.push_back('\0');
      ++i;
    } else if (next == kEscapedTerminator) {
      value->swap(decoded);
      input->remove_prefix(i + 2);
      return true;
    } else {
      return false;  // not a pair this encoding writes
    }
  }
  return false;  // no terminator
}

}  // namespace sstfilter
