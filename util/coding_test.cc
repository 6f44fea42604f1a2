// Tests of the fixed-width and varint encodings (util/coding.h): exact bytes,
// round trips across every length boundary, and rejection of truncated or
// oversized varints.

#include "util/coding.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

TEST(CodingTest, Fixed32IsLittleEndian) {
  std::string s;
  PutFixed32(&s, 0x04030201);
  EXPECT_EQ(s, std::string("\x01\x02\x03\x04", 4));
  PutFixed32(&s,
             0xfedcba98);  // appends; high bytes must not sign-extend on decode
  EXPECT_EQ(s, std::string("\x01\x02\x03\x04\x98\xba\xdc\xfe", 8));
  EXPECT_EQ(DecodeFixed32(s.data()), 0x04030201u);
  EXPECT_EQ(DecodeFixed32(s.data() + 4), 0xfedcba98u);

  char buf[4];
  EncodeFixed32(buf, 0xffffffff);
  EXPECT_EQ(std::string(buf, 4), std::string("\xff\xff\xff\xff", 4));
}

TEST(CodingTest, Fixed64IsLittleEndian) {
  std::string s;
  PutFixed64(&s, 0x0807060504030201);
  EXPECT_EQ(s, std::string("\x01\x02\x03\x04\x05\x06\x07\x08", 8));
  PutFixed64(&s, 0xf0debc9a78563412);
  EXPECT_EQ(s.substr(8), std::string("\x12\x34\x56\x78\x9a\xbc\xde\xf0", 8));
  EXPECT_EQ(DecodeFixed64(s.data()), 0x0807060504030201u);
  EXPECT_EQ(DecodeFixed64(s.data() + 8), 0xf0debc9a78563412u);
}

TEST(CodingTest, FixedRoundTripsAtUnalignedOffsets) {
  for (int shift = 0; shift < 64; ++shift) {
    const uint64_t v64 = (uint64_t{1} << shift) - 1;
    const uint32_t v32 = static_cast<uint32_t>(v64 ^ 0x80808080);
    std::string s = "x";  // odd offset
    PutFixed32(&s, v32);
    PutFixed64(&s, v64);
    ASSERT_EQ(s.size(), 13u);
    EXPECT_EQ(DecodeFixed32(s.data() + 1), v32);
    EXPECT_EQ(DecodeFixed64(s.data() + 5), v64);
  }
}

// Values on both sides of every varint length boundary (2^(7i)), plus the
// extremes.
std::vector<uint64_t> BoundaryValues64() {
  std::vector<uint64_t> values = {0, 1, 2, std::numeric_limits<uint64_t>::max(),
                                  std::numeric_limits<uint64_t>::max() - 1};
  for (int bits = 7; bits < 64; bits += 7) {
    const uint64_t power = uint64_t{1} << bits;
    values.insert(values.end(), {power - 1, power, power + 1});
  }
  for (int bits = 0; bits < 64; ++bits) values.push_back(uint64_t{1} << bits);
  return values;
}

// Number of 7-bit groups needed for v: the expected varint length.
int Groups(uint64_t v) {
  int n = 1;
  for (; v >= 128; v >>= 7) ++n;
  return n;
}

TEST(CodingTest, Varint32RoundTrips) {
  std::vector<uint32_t> values;
  for (uint64_t v : BoundaryValues64()) {
    if (v <= std::numeric_limits<uint32_t>::max()) {
      values.push_back(static_cast<uint32_t>(v));
    }
  }
  values.push_back(std::numeric_limits<uint32_t>::max());
  values.push_back(std::numeric_limits<uint32_t>::max() - 1);
  for (uint32_t v = 0; v < 40000; v += 7) values.push_back(v);

  std::string s;
  for (uint32_t v : values) {
    const size_t before = s.size();
    PutVarint32(&s, v);
    ASSERT_EQ(s.size() - before, static_cast<size_t>(VarintLength(v))) << v;
    ASSERT_EQ(VarintLength(v), Groups(v)) << v;
    ASSERT_LE(VarintLength(v), kMaxVarint32Bytes);
  }
  absl::string_view input(s);
  for (uint32_t expected : values) {
    uint32_t actual = 0;
    ASSERT_TRUE(GetVarint32(&input, &actual)) << expected;
    ASSERT_EQ(actual, expected);
  }
  EXPECT_TRUE(input.empty());
}

TEST(CodingTest, Varint64RoundTrips) {
  const std::vector<uint64_t> values = BoundaryValues64();
  std::string s;
  for (uint64_t v : values) {
    const size_t before = s.size();
    PutVarint64(&s, v);
    ASSERT_EQ(s.size() - before, static_cast<size_t>(VarintLength(v))) << v;
    ASSERT_EQ(VarintLength(v), Groups(v)) << v;
    ASSERT_LE(VarintLength(v), kMaxVarint64Bytes);
  }
  absl::string_view input(s);
  for (uint64_t expected : values) {
    uint64_t actual = 0;
    ASSERT_TRUE(GetVarint64(&input, &actual)) << expected;
    ASSERT_EQ(actual, expected);
  }
  EXPECT_TRUE(input.empty());
}

TEST(CodingTest, VarintExactEncodings) {
  const struct {
    uint64_t value;
    std::string bytes;
  } kCases[] = {
      {0, std::string("\x00", 1)},
      {1, "\x01"},
      {127, "\x7f"},
      {128, "\x80\x01"},
      {300, "\xac\x02"},
      {(1 << 14) - 1, "\xff\x7f"},
      {1 << 14, "\x80\x80\x01"},
      {(1 << 21) - 1, "\xff\xff\x7f"},
      {1 << 21, "\x80\x80\x80\x01"},
      {(1 << 28) - 1, "\xff\xff\xff\x7f"},
      {1 << 28, "\x80\x80\x80\x80\x01"},
      {0xffffffff, "\xff\xff\xff\xff\x0f"},
      {uint64_t{1} << 32, "\x80\x80\x80\x80\x10"},
      {std::numeric_limits<uint64_t>::max(),
       "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"},
  };
  for (const auto& c : kCases) {
    std::string s64;
    PutVarint64(&s64, c.value);
    EXPECT_EQ(s64, c.bytes) << c.value;
    char buf[kMaxVarint64Bytes];
    EXPECT_EQ(std::string(buf, EncodeVarint64(buf, c.value)), c.bytes);
    if (c.value <= std::numeric_limits<uint32_t>::max()) {
      std::string s32;
      PutVarint32(&s32, static_cast<uint32_t>(c.value));
      EXPECT_EQ(s32, c.bytes) << c.value;
      EXPECT_EQ(
          std::string(buf, EncodeVarint32(buf, static_cast<uint32_t>(c.value))),
          c.bytes);
    }
  }
}

TEST(CodingTest, VarintLength) {
  EXPECT_EQ(VarintLength(0), 1);
  EXPECT_EQ(VarintLength(127), 1);
  EXPECT_EQ(VarintLength(128), 2);
  EXPECT_EQ(VarintLength((uint64_t{1} << 14) - 1), 2);
  EXPECT_EQ(VarintLength(uint64_t{1} << 14), 3);
  EXPECT_EQ(VarintLength(0xffffffff), kMaxVarint32Bytes);
  EXPECT_EQ(VarintLength((uint64_t{1} << 63) - 1), 9);
  EXPECT_EQ(VarintLength(uint64_t{1} << 63), kMaxVarint64Bytes);
  EXPECT_EQ(VarintLength(std::numeric_limits<uint64_t>::max()),
            kMaxVarint64Bytes);
}

// Each prefix of a valid encoding ends inside the varint.
TEST(CodingTest, TruncatedVarintsAreRejected) {
  for (uint64_t v : BoundaryValues64()) {
    std::string s;
    PutVarint64(&s, v);
    for (size_t len = 0; len < s.size(); ++len) {
      uint64_t value64 = 12345;
      EXPECT_EQ(GetVarint64Ptr(s.data(), s.data() + len, &value64), nullptr)
          << v << " cut to " << len;
      EXPECT_EQ(value64, 12345u);  // untouched on failure
      absl::string_view input(s.data(), len);
      EXPECT_FALSE(GetVarint64(&input, &value64));
      EXPECT_EQ(input, absl::string_view(s.data(), len));

      if (v > std::numeric_limits<uint32_t>::max()) continue;
      uint32_t value32 = 12345;
      EXPECT_EQ(GetVarint32Ptr(s.data(), s.data() + len, &value32), nullptr);
      EXPECT_EQ(value32, 12345u);
      input = absl::string_view(s.data(), len);
      EXPECT_FALSE(GetVarint32(&input, &value32));
      EXPECT_EQ(input, absl::string_view(s.data(), len));
    }
  }
}

// Well-formed input followed by more bytes: the decoder stops at the varint's
// end.
TEST(CodingTest, DecodersStopAtTheEndOfTheVarint) {
  const std::string s("\xac\x02\xff\xff", 4);
  uint32_t value32 = 0;
  EXPECT_EQ(GetVarint32Ptr(s.data(), s.data() + s.size(), &value32),
            s.data() + 2);
  EXPECT_EQ(value32, 300u);
  uint64_t value64 = 0;
  absl::string_view input(s);
  ASSERT_TRUE(GetVarint64(&input, &value64));
  EXPECT_EQ(value64, 300u);
  EXPECT_EQ(input, s.substr(2));
}

// Encodings longer than the type allows, or whose value does not fit it, are
// corrupt, even when the input continues past them. (LevelDB's 32-bit decoder
// silently drops the high bits of a fifth byte; these decoders refuse it.)
TEST(CodingTest, OversizedVarint32sAreRejected) {
  const std::string kBad[] = {
      // Five bytes whose last one carries bits 32 and up.
      std::string("\xff\xff\xff\xff\x10", 5),
      std::string("\x80\x80\x80\x80\x7f", 5),
      // The fifth byte still says "more follows".
      std::string("\xff\xff\xff\xff\xff\x00", 6),
      std::string("\x80\x80\x80\x80\x80\x00", 6),
      // A 64-bit value.
      std::string("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 10),
  };
  for (const std::string& s : kBad) {
    uint32_t value = 777;
    EXPECT_EQ(GetVarint32Ptr(s.data(), s.data() + s.size(), &value), nullptr)
        << absl::CEscape(s);
    EXPECT_EQ(value, 777u);
    absl::string_view input(s);
    EXPECT_FALSE(GetVarint32(&input, &value));
    EXPECT_EQ(input, s);  // unchanged
  }
  // The largest valid value, for contrast.
  const std::string max32("\xff\xff\xff\xff\x0f", 5);
  uint32_t value = 0;
  EXPECT_EQ(GetVarint32Ptr(max32.data(), max32.data() + 5, &value),
            max32.data() + 5);
  EXPECT_EQ(value, 0xffffffffu);
}

TEST(CodingTest, OversizedVarint64sAreRejected) {
  const std::string kBad[] = {
      // Ten bytes whose last one carries bits 64 and up.
      std::string("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", 10),
      std::string("\x80\x80\x80\x80\x80\x80\x80\x80\x80\x7f", 10),
      // The tenth byte still says "more follows".
      std::string("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x81\x00", 11),
      std::string("\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x00", 11),
  };
  for (const std::string& s : kBad) {
    uint64_t value = 777;
    EXPECT_EQ(GetVarint64Ptr(s.data(), s.data() + s.size(), &value), nullptr)
        << absl::CEscape(s);
    EXPECT_EQ(value, 777u);
    absl::string_view input(s);
    EXPECT_FALSE(GetVarint64(&input, &value));
    EXPECT_EQ(input, s);
  }
}

// Padding with 0x80 bytes inside the length limit is accepted as LevelDB
// accepts it: the decoders check bounds and width, not canonical form.
TEST(CodingTest, NonCanonicalVarintsWithinTheLimitDecode) {
  const std::string padded_zero("\x80\x80\x80\x80\x00", 5);
  uint32_t value32 = 1;
  EXPECT_EQ(
      GetVarint32Ptr(padded_zero.data(), padded_zero.data() + 5, &value32),
      padded_zero.data() + 5);
  EXPECT_EQ(value32, 0u);
}

TEST(CodingTest, EmptyInputIsRejected) {
  absl::string_view input;
  uint32_t value32 = 0;
  uint64_t value64 = 0;
  EXPECT_FALSE(GetVarint32(&input, &value32));
  EXPECT_FALSE(GetVarint64(&input, &value64));
}

TEST(CodingTest, BigEndianExactEncodings) {
  std::string s;
  PutBigEndian(&s, 0x0102030405060708, 8);
  EXPECT_EQ(s, std::string("\x01\x02\x03\x04\x05\x06\x07\x08", 8));
  s.clear();
  PutBigEndian(&s, 0xfedcba98, 4);
  EXPECT_EQ(s, "\xfe\xdc\xba\x98");
  s.clear();
  PutBigEndian(&s, 0xabcd, 2);  // only the low bytes
  PutBigEndian(&s, 0x1234567f, 1);
  EXPECT_EQ(s, "\xab\xcd\x7f");
  EXPECT_EQ(DecodeBigEndian(s.data(), 2), 0xabcdu);
  EXPECT_EQ(DecodeBigEndian(s.data() + 2, 1), 0x7fu);
  s.clear();
  PutBigEndian(&s, 0, 4);
  EXPECT_EQ(s, std::string(4, '\0'));
}

TEST(CodingTest, BigEndianRoundTripsAndSortsLikeTheValues) {
  for (int bytes : {1, 2, 4, 8}) {
    const uint64_t max =
        bytes == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * bytes)) - 1;
    std::vector<uint64_t> values = {0, 1, max, max - 1, max / 2, max / 2 + 1};
    for (int shift = 0; shift < 8 * bytes; ++shift) {
      values.push_back(uint64_t{1} << shift);
      values.push_back((uint64_t{1} << shift) - 1);
    }
    for (uint64_t a : values) {
      std::string ea;
      PutBigEndian(&ea, a, bytes);
      ASSERT_EQ(ea.size(), static_cast<size_t>(bytes));
      EXPECT_EQ(DecodeBigEndian(ea.data(), bytes), a);
      for (uint64_t b : values) {
        std::string eb;
        PutBigEndian(&eb, b, bytes);
        EXPECT_EQ(ea < eb, a < b) << bytes << " " << a << " " << b;
      }
    }
  }
}

TEST(CodingTest, OrderedFromSignedExactValues) {
  EXPECT_EQ(OrderedFromSigned(-128, 1), 0x00u);
  EXPECT_EQ(OrderedFromSigned(-1, 1), 0x7fu);
  EXPECT_EQ(OrderedFromSigned(0, 1), 0x80u);
  EXPECT_EQ(OrderedFromSigned(127, 1), 0xffu);
  EXPECT_EQ(OrderedFromSigned(-1, 4), 0x7fffffffu);
  EXPECT_EQ(OrderedFromSigned(1, 2), 0x8001u);
  EXPECT_EQ(OrderedFromSigned(std::numeric_limits<int64_t>::min(), 8), 0u);
  EXPECT_EQ(OrderedFromSigned(-1, 8), 0x7fffffffffffffffu);
  EXPECT_EQ(OrderedFromSigned(std::numeric_limits<int64_t>::max(), 8),
            ~uint64_t{0});
}

TEST(CodingTest, OrderedFromSignedRoundTripsAndKeepsTheOrder) {
  for (int bytes : {1, 2, 4, 8}) {
    const int64_t max = bytes == 8 ? std::numeric_limits<int64_t>::max()
                                   : (int64_t{1} << (8 * bytes - 1)) - 1;
    const int64_t min = -max - 1;
    std::vector<int64_t> values = {min, min + 1, -2, -1, 0, 1, 2, max - 1, max};
    for (int shift = 0; shift < 8 * bytes - 1; ++shift) {
      values.push_back(int64_t{1} << shift);
      values.push_back(-(int64_t{1} << shift));
    }
    for (int64_t a : values) {
      const uint64_t oa = OrderedFromSigned(a, bytes);
      if (bytes < 8) {
        EXPECT_LT(oa, uint64_t{1} << (8 * bytes)) << a;
      }
      EXPECT_EQ(SignedFromOrdered(oa, bytes), a) << bytes;
      for (int64_t b : values) {
        EXPECT_EQ(oa < OrderedFromSigned(b, bytes), a < b)
            << bytes << " " << a << " " << b;
      }
    }
  }
}

TEST(CodingTest, EscapedBytesExactEncodings) {
  const struct {
    std::string value;
    std::string bytes;
  } kCases[] = {
      {"", std::string("\x00\x01", 2)},
      {"ab", std::string("ab\x00\x01", 4)},
      {std::string(1, '\0'), std::string("\x00\xff\x00\x01", 4)},
      {std::string("a\0\0b", 4), std::string("a\x00\xff\x00\xff"
                                             "b\x00\x01",
                                             8)},
      {"\x01\xff", std::string("\x01\xff\x00\x01", 4)},
  };
  for (const auto& c : kCases) {
    std::string s = "prefix";
    PutEscapedBytes(&s, c.value);
    EXPECT_EQ(s, "prefix" + c.bytes) << absl::CEscape(c.value);
    absl::string_view input(s);
    input.remove_prefix(6);
    std::string decoded = "junk";
    ASSERT_TRUE(GetEscapedBytes(&input, &decoded)) << absl::CEscape(c.value);
    EXPECT_EQ(decoded, c.value);
    EXPECT_TRUE(input.empty());
  }
}

// Concatenated encodings decode one at a time, and encodings sort like the
// strings, whatever bytes they hold.
TEST(CodingTest, EscapedBytesRoundTripAndSortLikeTheStrings) {
  test::Random rng(0xe5c);
  std::vector<std::string> values = {"", std::string(1, '\0'),
                                     std::string(2, '\0'), "\x01", "\xff"};
  for (int i = 0; i < 300; ++i) {
    // Bytes from a small alphabet around the escape bytes, so that prefixes,
    // zeros and 0x01/0xff meet often.
    std::string value;
    const size_t len = rng.Uniform(6);
    for (size_t j = 0; j < len; ++j) {
      value.push_back(
          "\x00\x01\xff\x02"
          "a"[rng.Uniform(5)]);
    }
    values.push_back(value);
  }
  std::string all;
  for (const std::string& v : values) PutEscapedBytes(&all, v);
  absl::string_view input(all);
  for (const std::string& expected : values) {
    std::string decoded;
    ASSERT_TRUE(GetEscapedBytes(&input, &decoded));
    ASSERT_EQ(decoded, expected);
  }
  EXPECT_TRUE(input.empty());

  for (const std::string& a : values) {
    std::string ea;
    PutEscapedBytes(&ea, a);
    for (const std::string& b : values) {
      std::string eb;
      PutEscapedBytes(&eb, b);
      ASSERT_EQ(ea < eb, a < b) << absl::CEscape(a) << " " << absl::CEscape(b);
    }
  }
}

TEST(CodingTest, MalformedEscapedBytesAreRejected) {
  const std::string kBad[] = {
      "",                                   // no terminator
      "abc",                                // no terminator
      std::string("a\x00", 2),              // ends inside a pair
      std::string("a\x00\xff", 3),          // an escaped zero, then nothing
      std::string("a\x00\x02\x00\x01", 5),  // 0x00 0x02 is not a pair
      std::string("\x00\x00\x01", 3),       // 0x00 0x00 is not a pair
  };
  for (const std::string& s : kBad) {
    absl::string_view input(s);
    std::string value = "untouched";
    EXPECT_FALSE(GetEscapedBytes(&input, &value)) << absl::CEscape(s);
    EXPECT_EQ(input, s);
    EXPECT_EQ(value, "untouched");
  }
}

}  // namespace
}  // namespace sstfilter
