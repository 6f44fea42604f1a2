// The range filter's key code: its values, its order (checked against
// bytewise comparison on random and adversarial keys), and the code ranges of
// inclusive and exclusive bounds, against a brute-force oracle.

#include "filter/range/range_key.h"

#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

TEST(RangeKeyTest, CodeIsTheFirstEightBytesBigEndianZeroPadded) {
  EXPECT_EQ(RangeKeyCode(""), 0u);
  EXPECT_EQ(RangeKeyCode("a"), 0x6100000000000000u);
  EXPECT_EQ(RangeKeyCode("apple"), 0x6170706c65000000u);
  EXPECT_EQ(RangeKeyCode("apple pie, fresh"), 0x6170706c65207069u);
  EXPECT_EQ(RangeKeyCode(std::string(8, '\xff')), ~uint64_t{0});
}

TEST(RangeKeyTest, KeyOfRangeCodeIsTheInverse) {
  test::Random rng(3);
  for (int i = 0; i < 10000; ++i) {
    const uint64_t code = rng.Next64();
    ASSERT_EQ(RangeKeyCode(KeyOfRangeCode(code)), code);
  }
  EXPECT_EQ(KeyOfRangeCode(0x6170706c65000000u), std::string("apple\0\0\0", 8));
}

TEST(RangeKeyTest, KeysLongerThanEightBytesShareTheirPrefixCode) {
  // The stated rule: bytes after the 8th do not count, and neither do
  // trailing zero bytes within the first 8.
  EXPECT_EQ(RangeKeyCode("user0001-a"), RangeKeyCode("user0001-b"));
  EXPECT_EQ(RangeKeyCode("user0001"), RangeKeyCode("user0001\xff\xff"));
  EXPECT_EQ(RangeKeyCode("ab"), RangeKeyCode(std::string("ab\0\0", 4)));
  EXPECT_NE(RangeKeyCode("user0001"), RangeKeyCode("user0002"));
}

// Short keys over a small alphabet with zero bytes: where padding and
// truncation meet.
std::string AdversarialKey(test::Random* rng) {
  static constexpr char kAlphabet[] = {'\0', '\1', 'a', '\xff'};
  std::string key(rng->Uniform(11), '\0');
  for (char& c : key) c = kAlphabet[rng->Uniform(4)];
  return key;
}

TEST(RangeKeyTest, CodeKeepsBytewiseOrder) {
  test::Random rng(7);
  for (int i = 0; i < 200000; ++i) {
    const std::string a =
        rng.OneIn(2) ? AdversarialKey(&rng) : rng.Bytes(rng.Uniform(12));
    const std::string b =
        rng.OneIn(2) ? AdversarialKey(&rng) : rng.Bytes(rng.Uniform(12));
    if (a <= b) {
      ASSERT_LE(RangeKeyCode(a), RangeKeyCode(b));
    } else {
      ASSERT_GE(RangeKeyCode(a), RangeKeyCode(b));
    }
  }
}

TEST(RangeKeyTest, CodeRangesHoldEveryKeyOfTheRange) {
  // Oracle: for random bounds and keys, a key inside the bound range has its
  // code inside the code range; an empty code range has no key inside.
  test::Random rng(8);
  for (int i = 0; i < 200000; ++i) {
    const std::string lo = AdversarialKey(&rng);
    const std::string hi = AdversarialKey(&rng);
    const std::string key = AdversarialKey(&rng);
    for (bool inclusive : {true, false}) {
      const std::optional<CodeRange> codes = RangeKeyCodes(lo, hi, inclusive);
      const bool inside = lo <= key && (inclusive ? key <= hi : key < hi);
      if (!inside) continue;
      ASSERT_TRUE(codes.has_value())
          << "lo " << lo.size() << " hi " << hi.size() << " " << inclusive;
      ASSERT_LE(codes->first, RangeKeyCode(key));
      ASSERT_LE(RangeKeyCode(key), codes->last);
    }
  }
}

TEST(RangeKeyTest, ExclusiveBoundsNarrowOnlyWhenExact) {
  // "b" excludes every key below it, all of whose codes are below b's.
  EXPECT_EQ(RangeKeyCodes("a", "b", false)->last, RangeKeyCode("b") - 1);
  // "b\0" cannot be told from "b", which is below it: its code stays.
  EXPECT_EQ(RangeKeyCodes("a", std::string("b\0", 2), false)->last,
            RangeKeyCode("b"));
  // A bound longer than 8 bytes: keys below it may share its code.
  EXPECT_EQ(RangeKeyCodes("a", "bbbbbbbbb", false)->last,
            RangeKeyCode("bbbbbbbb"));
  EXPECT_FALSE(RangeKeyCodes("b", "a", true).has_value());
  EXPECT_FALSE(RangeKeyCodes("b", "b", false).has_value());
  EXPECT_TRUE(RangeKeyCodes("b", "b", true).has_value());
  // [a\x01, b) holds keys, but none whose code is below b's and at least
  // that of "a\x01"... it does: "a\x02". And [a, a\x01) holds "a", "a\0".
  EXPECT_TRUE(RangeKeyCodes("a", "a\x01", false).has_value());
}

}  // namespace
}  // namespace sstfilter
