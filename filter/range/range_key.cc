#include "filter/range/range_key.h"

#include <algorithm>

namespace sstfilter {

uint64_t RangeKeyCode(absl::string_view key) {
  uint64_t code = 0;
  const size_t used = std::min<size_t>(key.size(), kRangeKeyCodeBytes);
  for (size_t i = 0; i < used; ++i) {
    code |= uint64_t{static_cast<uint8_t>(key[i])}
            << (8 * (kRangeKeyCodeBytes - 1 - i));
  }
  return code;
}

std::string KeyOfRangeCode(uint64_t code) {
  std::string key(kRangeKeyCodeBytes, '\0');
  for (int i = 0; i < kRangeKeyCodeBytes; ++i) {
    key[i] = static_cast<char>(code >> (8 * (kRangeKeyCodeBytes - 1 - i)));
  }
  return key;
}

std::optional<CodeRange> RangeKeyCodes(absl::string_view lo,
                                       absl::string_view hi,
                                       bool hi_inclusive) {
  if (hi_inclusive ? hi < lo : hi <= lo) return std::nullopt;
  const uint64_t first = RangeKeyCode(lo);
  uint64_t last = RangeKeyCode(hi);
  // A key below an exclusive bound of at most 8 bytes whose last byte is not
  // zero has a smaller code: either it differs from hi at a byte hi has, and
  // is smaller there, or it is a proper prefix of hi, whose code lacks hi's
  // last (nonzero) byte. Otherwise (a longer bound, or one ending in zero
  // bytes, which padding cannot tell from a shorter key) hi's own code stays.
  if (!hi_inclusive && hi.size() <= kRangeKeyCodeBytes && hi.back() != 0) {
    last -= 1;  // hi > lo >= "", so hi is not empty and its code is not 0
  }
  if (last < first) return std::nullopt;
  return CodeRange{first, last};
}

}  // namespace sstfilter
