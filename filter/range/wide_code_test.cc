#include "filter/range/wide_code.h"

#include <algorithm>
#include <vector>

#include "gtest/gtest.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace grafite_internal {
namespace {

using u128 = unsigned __int128;

// A value below 2^bits, its bits drawn from random.
u128 Below(int bits, test::Random* random) {
  u128 value = (static_cast<u128>(random->Next64()) << 64) | random->Next64();
  return bits >= 128 ? value : value & ((u128{1} << bits) - 1);
}

// Values that fit 128 bits behave as unsigned __int128 does.
TEST(WideCodeTest, MatchesNativeArithmeticBelow2To128) {
  test::Random random(7);
  for (int i = 0; i < 20000; ++i) {
    const int bits = 1 + static_cast<int>(random.Uniform(127));
    const u128 a = Below(bits, &random);
    const u128 b = Below(1 + static_cast<int>(random.Uniform(127)), &random);
    const WideCode wa = WideCode::Of(a), wb = WideCode::Of(b);
    ASSERT_EQ(wa.Low128(), a);
    ASSERT_EQ(Compare(wa, wb), a < b ? -1 : (a > b ? 1 : 0));
    ASSERT_EQ(wa.IsZero(), a == 0);
    if (a >= b) {
      const uint64_t cap = 1 + random.Uniform(1000);
      const u128 difference = a - b;
      ASSERT_EQ(DifferenceUpTo(wa, wb, cap),
                difference >= cap ? cap : static_cast<uint64_t>(difference));
    }
    const uint64_t divisor = 1 + random.Next64() % (uint64_t{1} << 40);
    WideCode quotient;
    ASSERT_EQ(wa.DivMod(divisor, &quotient),
              static_cast<uint64_t>(a % divisor));
    ASSERT_EQ(quotient.Low128(), a / divisor);
    // Below 2^64, so the product fits.
    const u128 small = a & ~uint64_t{0};
    WideCode grown = WideCode::Of(small);
    const uint64_t radix = 1 + random.Uniform(257),
                   digit = random.Uniform(radix);
    grown.MulAdd(radix, digit);
    ASSERT_EQ(grown.Low128(), small * radix + digit);
    for (size_t limb = 0; limb < 3; ++limb) {
      ASSERT_EQ(wa.Limb60(limb), static_cast<uint64_t>(a >> (60 * limb)) &
                                     ((uint64_t{1} << 60) - 1));
    }
    size_t limbs = 0;
    for (u128 rest = a; rest != 0; rest >>= 60) ++limbs;
    ASSERT_EQ(wa.NumLimbs60(), limbs);
  }
}

// Past 2^128: mixed-radix digits written with MulAdd read back with DivMod,
// and order, increments and differences carry across limbs.
TEST(WideCodeTest, WideValuesKeepTheirDigits) {
  test::Random random(11);
  for (int i = 0; i < 2000; ++i) {
    std::vector<uint64_t> radices, digits;
    WideCode code;
    for (int j = 0, n = 1 + static_cast<int>(random.Uniform(256)); j < n; ++j) {
      radices.push_back(1 + random.Uniform(257));
      digits.push_back(random.Uniform(radices.back()));
      code.MulAdd(radices.back(), digits.back());
    }
    WideCode rest = code;
    for (size_t j = radices.size(); j-- > 0;) {
      WideCode quotient;
      ASSERT_EQ(rest.DivMod(radices[j], &quotient), digits[j]);
      rest = quotient;
    }
    ASSERT_TRUE(rest.IsZero());

    WideCode next = code;
    next.Increment();
    ASSERT_LT(code, next);
    ASSERT_EQ(DifferenceUpTo(next, code, 5), 1u);
    WideCode back = next;
    back.Decrement();
    ASSERT_EQ(back, code);
    WideCode farther = code;
    farther.MulAdd(2, 0);  // 2 code, far above code unless code is 0
    if (!code.IsZero()) {
      ASSERT_EQ(DifferenceUpTo(farther, code, 1000),
                code.NumLimbs60() > 1
                    ? 1000u
                    : std::min<uint64_t>(1000, code.Low128()));
    }
  }
}

TEST(WideCodeTest, BorrowsAndCarriesCrossEveryLimb) {
  WideCode full;  // 2^192 - 1: six 32-bit digits of all ones
  for (int i = 0; i < 6; ++i)
    full.MulAdd(uint64_t{1} << 32, (uint64_t{1} << 32) - 1);
  WideCode power = full;
  power.Increment();                  // 2^192
  EXPECT_EQ(power.NumLimbs60(), 4u);  // 193 bits
  EXPECT_EQ(DifferenceUpTo(power, full, 10), 1u);
  EXPECT_EQ(DifferenceUpTo(power, WideCode(), 10), 10u);
  power.Decrement();
  EXPECT_EQ(power, full);
  WideCode quotient;
  EXPECT_EQ(full.DivMod(3, &quotient), 0u);  // 2^192 - 1 = 3 * 0x5555...
  quotient.MulAdd(3, 0);
  EXPECT_EQ(quotient, full);
}

}  // namespace
}  // namespace grafite_internal
}  // namespace sstfilter
