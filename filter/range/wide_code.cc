#include "filter/range/wide_code.h"

namespace sstfilter {
namespace grafite_internal {
namespace {

using u128 = unsigned __int128;
constexpr int kLimb60Bits = 60;
constexpr uint64_t kLimb60Mask = (uint64_t{1} << kLimb60Bits) - 1;

}  // namespace

WideCode WideCode::Of(u128 value) {
  WideCode code;
  code.limbs_[0] = static_cast<uint64_t>(value);
  code.limbs_[1] = static_cast<uint64_t>(value >> 64);
  code.size_ = 2;
  code.Trim();
  return code;
}

void WideCode::Trim() {
  while (size_ > 0 && limbs_[size_ - 1] == 0) --size_;
}

void WideCode::MulAdd(uint64_t radix, uint64_t digit) {
  uint64_t carry = digit;
  for (size_t i = 0; i < size_; ++i) {
    const u128 product = static_cast<u128>(limbs_[i]) * radix + carry;
    limbs_[i] = static_cast<uint64_t>(product);
    carry = static_cast<uint64_t>(product >> 64);
  }
  if (carry != 0 && size_ < kMaxLimbs) limbs_[size_++] = carry;
  Trim();  // radix 0 leaves zero limbs
}

void WideCode::Add(const WideCode& other) {
  uint64_t carry = 0;
  const size_t n = size_ > other.size_ ? size_ : other.size_;
  for (size_t i = 0; i < n; ++i) {
    const u128 sum =
        static_cast<u128>(LimbOrZero(i)) + other.LimbOrZero(i) + carry;
    limbs_[i] = static_cast<uint64_t>(sum);
    carry = static_cast<uint64_t>(sum >> 64);
  }
  size_ = n;
  if (carry != 0 && size_ < kMaxLimbs) limbs_[size_++] = carry;
}

void WideCode::Increment() {
  for (size_t i = 0; i < size_; ++i) {
    if (++limbs_[i] != 0) return;
  }
  if (size_ < kMaxLimbs) limbs_[size_++] = 1;
}

void WideCode::Decrement() { Subtract(1); }

void WideCode::Subtract(uint64_t value) {
  uint64_t borrow = value;
  for (size_t i = 0; i < size_ && borrow != 0; ++i) {
    const uint64_t before = limbs_[i];
    limbs_[i] -= borrow;
    borrow = before < borrow ? 1 : 0;
  }
  Trim();
}

u128 WideCode::Low128() const {
  return (static_cast<u128>(LimbOrZero(1)) << 64) | LimbOrZero(0);
}

uint64_t WideCode::DivMod(uint64_t divisor, WideCode* quotient) const {
  WideCode result;
  result.size_ = size_;
  uint64_t remainder = 0;
  for (size_t i = size_; i-- > 0;) {
    const u128 dividend = (static_cast<u128>(remainder) << 64) | limbs_[i];
    result.limbs_[i] = static_cast<uint64_t>(dividend / divisor);
    remainder = static_cast<uint64_t>(dividend % divisor);
  }
  if (quotient != nullptr) {
    result.Trim();
    *quotient = result;
  }
  return remainder;
}

uint64_t WideCode::Limb60(size_t i) const {
  const size_t bit = i * kLimb60Bits;
  const size_t word = bit / 64;
  const int shift = static_cast<int>(bit % 64);
  if (word >= size_) return 0;
  uint64_t bits = limbs_[word] >> shift;
  if (shift > 64 - kLimb60Bits) bits |= LimbOrZero(word + 1) << (64 - shift);
  return bits & kLimb60Mask;
}

size_t WideCode::NumLimbs60() const {
  if (size_ == 0) return 0;
  const size_t bits =
      64 * size_ - static_cast<size_t>(__builtin_clzll(limbs_[size_ - 1]));
  return (bits + kLimb60Bits - 1) / kLimb60Bits;
}

uint64_t DifferenceUpTo(const WideCode& a, const WideCode& b, uint64_t cap) {
  uint64_t borrow = 0;
  uint64_t low = 0;
  for (size_t i = 0; i < a.size_; ++i) {
    const uint64_t bi = b.LimbOrZero(i);
    const u128 subtrahend = static_cast<u128>(bi) + borrow;
    const uint64_t limb = static_cast<uint64_t>(a.limbs_[i] - subtrahend);
    borrow = a.limbs_[i] < subtrahend ? 1 : 0;
    if (i == 0) {
      low = limb;
    } else if (limb != 0) {
      return cap;
    }
  }
  return low >= cap ? cap : low;
}

int Compare(const WideCode& a, const WideCode& b) {
  if (a.size_ != b.size_) return a.size_ < b.size_ ? -1 : 1;
  for (size_t i = a.size_; i-- > 0;) {
    if (a.limbs_[i] != b.limbs_[i]) return a.limbs_[i] < b.limbs_[i] ? -1 : 1;
  }
  return 0;
}

}  // namespace grafite_internal
}  // namespace sstfilter
