// Keys shaped as stores shape them, for measuring range filters on them:
// random 16-byte keys, YCSB's "user" and 19 digits, a tenant's prefix before a
// named collection and an id (24 to 40 bytes), and microseconds under a shared
// date. Each shape writes numbers as keys in the same order, so the keys of a
// range of numbers are exactly the keys between its ends' keys.

#ifndef SSTFILTER_UTIL_KEY_SHAPES_H_
#define SSTFILTER_UTIL_KEY_SHAPES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/types/span.h"

namespace sstfilter {
namespace key_shapes {

using KeyNumber = unsigned __int128;

struct KeyShape {
  const char* name;
  std::string (*key)(KeyNumber number);
  KeyNumber max_number;  // keys are numbers below it
  // Bytes at the end of every key that a range at the keys' finest position,
  // up to kMaxRangeWidth possible keys wide, may cover: 1 for random bytes,
  // 2 for decimal digits. A prefix Bloom filter of the rest serves the ranges
  // that fit one prefix.
  size_t finest_bytes;
};

// Widest range, in possible keys, that the shapes are measured with.
constexpr uint64_t kMaxRangeWidth = 64;

absl::Span<const KeyShape> KeyShapes();

// Draws from a seed; the same seed gives the same draws.
class NumberDraws {
 public:
  explicit NumberDraws(uint64_t seed) : state_(seed) {}
  uint64_t Next();
  // Uniform below bound (~KeyNumber{0} stands for 2^128).
  KeyNumber Below(KeyNumber bound);

 private:
  uint64_t state_;
};

// count distinct numbers below the shape's last kMaxRangeWidth, sorted, so
// that a range may always start right after a key.
std::vector<KeyNumber> DrawKeyNumbers(const KeyShape& shape, uint64_t count,
                                      NumberDraws* draws);

struct NumberRange {
  KeyNumber lo, hi;  // both possible keys of the range
};

// A range of width possible keys that holds none of sorted: just after a key
// (correlated) or anywhere (uniform).
NumberRange DrawEmptyRange(const KeyShape& shape,
                           const std::vector<KeyNumber>& sorted, uint64_t width,
                           bool correlated, NumberDraws* draws);

}  // namespace key_shapes
}  // namespace sstfilter

#endif  // SSTFILTER_UTIL_KEY_SHAPES_H_
