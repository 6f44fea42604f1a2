// Typed keys (filter/typed_key.h): the exact bytes of a set of values, every
// byte-string type giving the same key, and injectivity and order checked by
// decoding random tuples back with the documented grammar.

#include "filter/typed_key.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/bloom/bloom.h"
#include "filter/filter_policy.h"
#include "gtest/gtest.h"
#include "util/coding.h"
#include "util/testing/golden.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

std::string Hex(absl::string_view bytes) {
  return absl::BytesToHexString(bytes);
}

// The encoding is frozen, so a difference is a bug unless a new format is
// meant. To regenerate the golden bytes after such a change: set kRegenerate to
// true, run
//   bazel test //filter:typed_key_test --test_output=all
// paste the printed values, and set it back (while it is on, the test fails).
constexpr bool kRegenerate = false;

TEST(TypedKeyTest, GoldenBytes) {
  const struct {
    const char* what;
    std::string key;
    const char* hex;
  } kCases[] = {
      {"nothing", EncodeKey(), ""},
      {"uint8 0", EncodeKey(uint8_t{0}), "1100"},
      {"uint8 255", EncodeKey(uint8_t{255}), "11ff"},
      {"uint16 0x1234", EncodeKey(uint16_t{0x1234}), "121234"},
      {"uint32 1", EncodeKey(uint32_t{1}), "1400000001"},
      {"uint64 42", EncodeKey(uint64_t{42}), "18000000000000002a"},
      {"uint64 max", EncodeKey(std::numeric_limits<uint64_t>::max()),
       "18ffffffffffffffff"},
      {"int8 -128", EncodeKey(int8_t{-128}), "2100"},
      {"int8 -1", EncodeKey(int8_t{-1}), "217f"},
      {"int8 0", EncodeKey(int8_t{0}), "2180"},
      {"int8 127", EncodeKey(int8_t{127}), "21ff"},
      {"int16 -2", EncodeKey(int16_t{-2}), "227ffe"},
      {"int32 -1", EncodeKey(int32_t{-1}), "247fffffff"},
      {"int32 1", EncodeKey(int32_t{1}), "2480000001"},
      {"int64 min", EncodeKey(std::numeric_limits<int64_t>::min()),
       "280000000000000000"},
      {"int64 -1", EncodeKey(int64_t{-1}), "287fffffffffffffff"},
      {"int64 1", EncodeKey(int64_t{1}), "288000000000000001"},
      {"empty string", EncodeKey(""), "300001"},
      {"user", EncodeKey("user"), "30757365720001"},
      {"string with NUL", EncodeKey(std::string("a\0b", 3)), "306100ff620001"},
      {"string of 0x00 0x01", EncodeKey(std::string("\0\1", 2)),
       "3000ff010001"},
      {"4-byte string 0 0 0 1", EncodeKey(std::string("\0\0\0\1", 4)),
       "3000ff00ff00ff010001"},
      {"README's example", EncodeKey(uint64_t{42}, "user", int32_t{-1}),
       "18000000000000002a"
       "30757365720001"
       "247fffffff"},
      {"(ab, c)", EncodeKey("ab", "c"),
       "3061620001"
       "30630001"},
      {"(a, bc)", EncodeKey("a", "bc"),
       "30610001"
       "3062630001"},
      {"tuple (uint16 7, -7)", EncodeKey(std::make_tuple(uint16_t{7}, -7)),
       "120007"
       "247ffffff9"},
  };
  for (const auto& c : kCases) {
    test::CheckGolden(kRegenerate, c.what, Hex(c.key), std::string(c.hex));
  }
}

// Every way of holding bytes gives the same key, and text and binary are not
// told apart.
TEST(TypedKeyTest, EveryByteStringTypeGivesTheSameKey) {
  const std::string expected = EncodeKey(std::string("ab"));
  const std::string s = "ab";
  const char* c_string = "ab";
  std::string buffer = s;
  char* mutable_c_string = buffer.data();
  const char array[] = "ab";
  const std::vector<uint8_t> bytes = {'a', 'b'};
  const std::vector<char> chars = {'a', 'b'};
  const std::array<uint8_t, 2> std_array = {'a', 'b'};
  EXPECT_EQ(EncodeKey(absl::string_view(s)), expected);
  EXPECT_EQ(EncodeKey(std::string_view(s)), expected);
  EXPECT_EQ(EncodeKey(c_string), expected);
  EXPECT_EQ(EncodeKey(array), expected);
  EXPECT_EQ(EncodeKey("ab"), expected);
  EXPECT_EQ(EncodeKey(bytes), expected);
  EXPECT_EQ(EncodeKey(absl::MakeConstSpan(bytes)), expected);
  EXPECT_EQ(EncodeKey(chars), expected);
  EXPECT_EQ(EncodeKey(std_array), expected);
  EXPECT_EQ(EncodeKey(mutable_c_string), expected);
  EXPECT_EQ(EncodeKey(buffer), expected);
}

TEST(TypedKeyTest, CStringsAndCharArraysEndAtTheirFirstNul) {
  const char* null_string = nullptr;
  EXPECT_EQ(EncodeKey(null_string), EncodeKey(""));
  const char with_nul[] = "a\0b";
  EXPECT_EQ(EncodeKey(with_nul), EncodeKey("a"));
  // No NUL at all: the array's whole length, and nothing past it (ASan would
  // report a read past the array).
  const char no_nul[3] = {'x', 'y', 'z'};
  EXPECT_EQ(EncodeKey(no_nul), EncodeKey(std::string("xyz")));
  // Bytes with NULs, given with their size, are kept whole.
  EXPECT_EQ(EncodeKey(absl::string_view(with_nul, 3)),
            EncodeKey(std::string("a\0b", 3)));
  EXPECT_NE(EncodeKey(absl::string_view(with_nul, 3)), EncodeKey("a"));
}

TEST(TypedKeyTest, TypesAreKeptApart) {
  const std::vector<std::string> keys = {
      EncodeKey(int32_t{1}),
      EncodeKey(uint32_t{1}),
      EncodeKey(int64_t{1}),
      EncodeKey(uint64_t{1}),
      EncodeKey(int8_t{1}),
      EncodeKey(uint8_t{1}),
      EncodeKey(int16_t{1}),
      EncodeKey(uint16_t{1}),
      EncodeKey(std::string("\1")),
      EncodeKey(std::string("\0\0\0\1", 4)),
      EncodeKey(uint16_t{0}, uint16_t{1}),
  };
  for (size_t i = 0; i < keys.size(); ++i) {
    for (size_t j = i + 1; j < keys.size(); ++j) {
      EXPECT_NE(keys[i], keys[j]) << i << " " << j;
    }
  }
  // Same width and signedness under another name: the same key.
  EXPECT_EQ(EncodeKey(static_cast<long long>(5)), EncodeKey(int64_t{5}));
  EXPECT_EQ(EncodeKey(static_cast<unsigned long>(5)), EncodeKey(uint64_t{5}));
  EXPECT_EQ(EncodeKey(5), EncodeKey(int32_t{5}));  // an int literal
}

TEST(TypedKeyTest, AppendingFieldByFieldGivesTheTuplesKey) {
  std::string key = "stale";
  key.clear();
  AppendKey(&key, uint64_t{42});
  AppendKey(&key, "user");
  AppendKey(&key, int32_t{-1});
  EXPECT_EQ(key, EncodeKey(uint64_t{42}, "user", int32_t{-1}));
  EXPECT_EQ(key, EncodeKey(std::make_tuple(uint64_t{42}, "user", int32_t{-1})));
  EXPECT_EQ(EncodeKey(std::tuple<>()), "");
}

// A random typed value: what the tests encode, decode and compare.
struct Element {
  enum Kind { kUnsigned = 1, kSigned = 2, kBytes = 3 };
  Kind kind = kUnsigned;
  int width = 1;  // integers: bytes
  uint64_t u = 0;
  int64_t s = 0;
  std::string bytes;

  // Lexicographic by kind, width, then value: for same-shape tuples, the order
  // their keys must have.
  bool operator<(const Element& o) const {
    return std::tie(kind, width, u, s, bytes) <
           std::tie(o.kind, o.width, o.u, o.s, o.bytes);
  }
  bool operator==(const Element& o) const {
    return std::tie(kind, width, u, s, bytes) ==
           std::tie(o.kind, o.width, o.u, o.s, o.bytes);
  }
};
using Tuple = std::vector<Element>;

std::string Describe(const Tuple& tuple) {
  std::string out = "(";
  for (const Element& e : tuple) {
    switch (e.kind) {
      case Element::kUnsigned:
        absl::StrAppend(&out, "u", 8 * e.width, " ", e.u, ", ");
        break;
      case Element::kSigned:
        absl::StrAppend(&out, "i", 8 * e.width, " ", e.s, ", ");
        break;
      case Element::kBytes:
        absl::StrAppend(&out, "\"", absl::CEscape(e.bytes), "\", ");
        break;
    }
  }
  return out + ")";
}

// Encodes through the public templates with the C++ type the element stands
// for, so the test exercises what callers compile.
void AppendElement(std::string* key, const Element& e) {
  switch (e.kind) {
    case Element::kUnsigned:
      switch (e.width) {
        case 1:
          return AppendKey(key, static_cast<uint8_t>(e.u));
        case 2:
          return AppendKey(key, static_cast<uint16_t>(e.u));
        case 4:
          return AppendKey(key, static_cast<uint32_t>(e.u));
        default:
          return AppendKey(key, e.u);
      }
    case Element::kSigned:
      switch (e.width) {
        case 1:
          return AppendKey(key, static_cast<int8_t>(e.s));
        case 2:
          return AppendKey(key, static_cast<int16_t>(e.s));
        case 4:
          return AppendKey(key, static_cast<int32_t>(e.s));
        default:
          return AppendKey(key, e.s);
      }
    case Element::kBytes:
      return AppendKey(key, e.bytes);
  }
}

std::string Encode(const Tuple& tuple) {
  std::string key;
  for (const Element& e : tuple) AppendElement(&key, e);
  return key;
}

// The grammar of typed_key.h, read left to right. Returns false for bytes that
// no tuple encodes to.
bool Decode(absl::string_view key, Tuple* tuple) {
  tuple->clear();
  while (!key.empty()) {
    const uint8_t tag = static_cast<uint8_t>(key[0]);
    key.remove_prefix(1);
    Element e;
    e.kind = static_cast<Element::Kind>(tag >> 4);
    e.width = tag & 0x0f;
    if (e.kind == Element::kBytes && e.width == 0) {
      e.width = 1;  // Element's default for strings
      if (!GetEscapedBytes(&key, &e.bytes)) return false;
    } else if ((e.kind == Element::kUnsigned || e.kind == Element::kSigned) &&
               (e.width == 1 || e.width == 2 || e.width == 4 || e.width == 8)) {
      if (key.size() < static_cast<size_t>(e.width)) return false;
      const uint64_t bits = DecodeBigEndian(key.data(), e.width);
      key.remove_prefix(e.width);
      if (e.kind == Element::kUnsigned) {
        e.u = bits;
      } else {
        e.s = SignedFromOrdered(bits, e.width);
      }
    } else {
      return false;
    }
    tuple->push_back(std::move(e));
  }
  return true;
}

// Values from small domains around the edges (zero, -1, extremes, 0x00, 0x01
// and 0xff bytes, short strings), so that distinct tuples whose bytes could
// collide under a careless encoding come up often.
Element RandomElement(test::Random* rng) {
  Element e;
  const int widths[] = {1, 2, 4, 8};
  switch (rng->Uniform(3)) {
    case 0: {
      e.kind = Element::kUnsigned;
      e.width = widths[rng->Uniform(4)];
      const uint64_t max =
          e.width == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * e.width)) - 1;
      const uint64_t picks[] = {0, 1, 2, 0x30, 0xff, 0x100, max, max - 1};
      e.u = picks[rng->Uniform(8)] & max;
      break;
    }
    case 1: {
      e.kind = Element::kSigned;
      e.width = widths[rng->Uniform(4)];
      const int64_t max = e.width == 8 ? std::numeric_limits<int64_t>::max()
                                       : (int64_t{1} << (8 * e.width - 1)) - 1;
      const int64_t picks[] = {0, 1, -1, 2, -2, max, -max - 1, 0x30};
      e.s = std::clamp(picks[rng->Uniform(8)], -max - 1, max);
      break;
    }
    default: {
      e.kind = Element::kBytes;
      const size_t len = rng->Uniform(4);
      for (size_t i = 0; i < len; ++i) {
        e.bytes.push_back(
            "\x00\x01\xff\x30\x18"
            "a"[rng->Uniform(6)]);
      }
      break;
    }
  }
  return e;
}

Tuple RandomTuple(test::Random* rng, size_t max_len) {
  Tuple tuple;
  const size_t len = rng->Uniform(max_len + 1);
  for (size_t i = 0; i < len; ++i) tuple.push_back(RandomElement(rng));
  return tuple;
}

// Injective: the key decodes back to its tuple, and no two different tuples
// among many random ones share a key.
TEST(TypedKeyTest, RandomTuplesDecodeBackAndNeverShareAKey) {
  test::Random rng(0x7e1);
  std::map<std::string, Tuple> seen;
  size_t distinct_tuples = 0;
  for (int i = 0; i < 200000; ++i) {
    const Tuple tuple = RandomTuple(&rng, 4);
    const std::string key = Encode(tuple);
    Tuple decoded;
    ASSERT_TRUE(Decode(key, &decoded)) << Describe(tuple) << " " << Hex(key);
    ASSERT_EQ(decoded, tuple) << Hex(key);
    auto [it, inserted] = seen.emplace(key, tuple);
    if (inserted) {
      ++distinct_tuples;
    } else {
      ASSERT_EQ(it->second, tuple)
          << Describe(it->second) << " and " << Describe(tuple)
          << " share the key " << Hex(key);
    }
  }
  // Short tuples recur (so equal keys are compared too), longer ones are
  // mostly new.
  EXPECT_GT(distinct_tuples, 50000u);
  EXPECT_LT(distinct_tuples, 200000u);
}

// Keys of tuples of one shape sort like the tuples, and a tuple's key is a
// prefix of its extensions' keys.
TEST(TypedKeyTest, KeysSortLikeTheirTuples) {
  test::Random rng(0x50f7);
  for (int i = 0; i < 100000; ++i) {
    const Tuple a = RandomTuple(&rng, 3);
    Tuple b = a;
    // Same shape, values redrawn element by element until one differs.
    for (Element& e : b) {
      if (rng.OneIn(2)) continue;
      Element redrawn;
      do {
        redrawn = RandomElement(&rng);
      } while (redrawn.kind != e.kind || redrawn.width != e.width);
      e = redrawn;
    }
    const std::string ka = Encode(a);
    const std::string kb = Encode(b);
    ASSERT_EQ(ka < kb, a < b) << Describe(a) << " " << Describe(b);
    ASSERT_EQ(ka == kb, a == b) << Describe(a) << " " << Describe(b);

    Tuple extended = a;
    extended.push_back(RandomElement(&rng));
    const std::string ke = Encode(extended);
    ASSERT_EQ(ke.compare(0, ka.size(), ka), 0) << Describe(extended);
    ASSERT_LT(ka, ke);
  }
}

// Keys encoded once when added and again, from other types holding the same
// values, when queried: the filter finds them.
TEST(TypedKeyTest, RoundTripThroughFilters) {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      NewBloomFilterPolicy(FilterOptions::Fpp(0.01));
  ASSERT_TRUE(policy.ok());
  std::unique_ptr<FilterBuilder> builder = (*policy)->NewBuilder();
  for (uint64_t id = 0; id < 1000; ++id) {
    const std::string name = absl::StrCat("user", id);
    const std::string key = EncodeKey(id, name, static_cast<int32_t>(-id));
    builder->AddKey(key);
  }
  std::string filter;
  builder->Finish(&filter);
  std::unique_ptr<FilterReader> reader = (*policy)->NewReader(filter);
  std::string key;
  for (uint64_t id = 0; id < 1000; ++id) {
    const std::string name = absl::StrCat("user", id);
    key.clear();  // one buffer, field by field
    AppendKey(&key, id);
    AppendKey(&key, absl::string_view(name));
    AppendKey(&key, static_cast<int32_t>(-id));
    ASSERT_TRUE(reader->MayMatch(key)) << id;
    ASSERT_TRUE(reader->MayMatch(EncodeKey(
        std::make_tuple(id, name.c_str(), static_cast<int32_t>(-id)))))
        << id;
  }
  // The same numbers with the id as a signed integer are other keys, which
  // the filter rejects but for false positives (1%).
  int matches = 0;
  for (int64_t id = 0; id < 1000; ++id) {
    const std::string other =
        EncodeKey(id, absl::StrCat("user", id), static_cast<int32_t>(-id));
    matches += reader->MayMatch(other) ? 1 : 0;
  }
  EXPECT_LT(matches, 40);
}

}  // namespace
}  // namespace sstfilter
