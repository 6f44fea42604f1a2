// How the range filter sees a byte-string key: as a 64-bit code that keeps
// the keys' bytewise order (the order of LevelDB's and RocksDB's default
// comparator). The code of a key is the big-endian value of its first
// kRangeKeyCodeBytes bytes, shorter keys padded with zero bytes:
//
//   "a"                 -> 0x6100000000000000
//   "apple"             -> 0x6170706c65000000
//   "apple pie, fresh"  -> 0x6170706c65207069  (bytes after the 8th ignored)
//
// The code is monotone: a <= b bytewise implies code(a) <= code(b). So every
// key k in [lo, hi] has a code in [code(lo), code(hi)], and a filter that finds
// no code there has no such key. Keys longer than 8 bytes that share their
// first 8 share a code; so do a key and the same key with zero bytes
// appended. A filter cannot tell such keys apart, which costs accuracy (a
// range between them matches when any of them is present), never a key.
//
// A host whose keys all begin with the same bytes (a table id, a tenant)
// should pass the keys' varying part; the filter has 8 bytes to look at.

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
