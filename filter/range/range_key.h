// How the range filter sees a byte-string key: as a 64-bit code, the
// big-endian value of its first kRangeKeyCodeBytes bytes, zero-padded
// ("apple" -> 0x6170706c65000000). The code is monotone: a <= b bytewise
// implies code(a) <= code(b), so a filter that finds no code in
// [code(lo), code(hi)] has no key in [lo, hi]. Keys that share their first 8
// bytes share a code, which costs accuracy, never a key. Keys that share a
// prefix or vary past 8 bytes: the keyed format (key_coder.h) codes them per
// table.

#ifndef SSTFILTER_FILTER_RANGE_RANGE_KEY_H_
#define SSTFILTER_FILTER_RANGE_RANGE_KEY_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"

namespace sstfilter {

constexpr int kRangeKeyCodeBytes = 8;

uint64_t RangeKeyCode(absl::string_view key);

// The 8-byte key whose code is code (its big-endian bytes): the smallest key
// of that code but for trailing zero bytes. RangeKeyCode(KeyOfRangeCode(c))
// == c.
std::string KeyOfRangeCode(uint64_t code);

// The codes a key k with lo <= k <= hi (hi_inclusive) or lo <= k < hi can
// have: [first, last]. nullopt when no key lies in the range (hi < lo, or an
// exclusive bound at or below lo).
struct CodeRange {
  uint64_t first;
  uint64_t last;
};
std::optional<CodeRange> RangeKeyCodes(absl::string_view lo,
                                       absl::string_view hi, bool hi_inclusive);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_RANGE_RANGE_KEY_H_
