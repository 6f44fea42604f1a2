// Unsigned integers as wide as a keyed range filter's codes need
// (key_coder.h): one digit per position the table's keys vary at, up to 256
// positions of up to 257 symbols, so up to 2,049 bits.
//
// Internal header: include filter/range/range_filter.h instead.

#ifndef SSTFILTER_FILTER_RANGE_WIDE_CODE_H_
#define SSTFILTER_FILTER_RANGE_WIDE_CODE_H_

#include <cstddef>
#include <cstdint>

namespace sstfilter {
namespace grafite_internal {

class WideCode {
 public:
  // 2,049 bits, in 64-bit limbs.
  static constexpr size_t kMaxLimbs = 33;

  WideCode() = default;  // zero
  WideCode(const WideCode& other) { *this = other; }
  WideCode& operator=(const WideCode& other) {
    size_ = other.size_;
    for (size_t i = 0; i < size_; ++i) limbs_[i] = other.limbs_[i];
    return *this;
  }
  static WideCode Of(unsigned __int128 value);

  // *this = *this * radix + digit.
  void MulAdd(uint64_t radix, uint64_t digit);
  void Add(const WideCode& other);
  void Increment();
  // Requires *this > 0.
  void Decrement();
  // Requires *this >= value.
  void Subtract(uint64_t value);

  bool IsZero() const { return size_ == 0; }
  // The low 128 bits.
  unsigned __int128 Low128() const;
  // The remainder of the division by divisor (> 0); the quotient into
  // *quotient when it is not null.
  uint64_t DivMod(uint64_t divisor, WideCode* quotient) const;
  // Bits [60 i, 60 i + 60) of the value, and how many such 60-bit limbs the
  // value has (0 for zero).
  uint64_t Limb60(size_t i) const;
  size_t NumLimbs60() const;

  // a - b where a >= b, or cap where that is at least cap.
  friend uint64_t DifferenceUpTo(const WideCode& a, const WideCode& b,
                                 uint64_t cap);
  friend int Compare(const WideCode& a, const WideCode& b);
  friend bool operator==(const WideCode& a, const WideCode& b) {
    return Compare(a, b) == 0;
  }
  friend bool operator!=(const WideCode& a, const WideCode& b) {
    return !(a == b);
  }
  friend bool operator<(const WideCode& a, const WideCode& b) {
    return Compare(a, b) < 0;
  }
  friend bool operator<=(const WideCode& a, const WideCode& b) {
    return Compare(a, b) <= 0;
  }
  friend bool operator>(const WideCode& a, const WideCode& b) {
    return Compare(a, b) > 0;
  }
  friend bool operator>=(const WideCode& a, const WideCode& b) {
    return Compare(a, b) >= 0;
  }

 private:
  void Trim();
  uint64_t LimbOrZero(size_t i) const { return i < size_ ? limbs_[i] : 0; }

  // size_ 64-bit limbs, least significant first, with no zero limb on top.
  // Past kMaxLimbs, MulAdd drops the carry: codes never get there.
  uint64_t limbs_[kMaxLimbs];
  size_t size_ = 0;
};

}  // namespace grafite_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_RANGE_WIDE_CODE_H_
