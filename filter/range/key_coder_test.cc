#include "filter/range/key_coder.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace grafite_internal {
namespace {

KeyCoder CoderOf(const std::vector<std::string>& keys) {
  return KeyCoder::ForKeys(
      std::vector<absl::string_view>(keys.begin(), keys.end()));
}

// Key sets of the shapes stores use, and random ones.
std::vector<std::string> KeysOfShape(int shape, test::Random* rng, size_t n) {
  std::vector<std::string> keys;
  for (size_t i = 0; i < n; ++i) {
    switch (shape) {
      case 0:  // random bytes, 1 to 20 of them
        keys.push_back(rng->Bytes(rng->Range(1, 20)));
        break;
      case 1:  // YCSB: "user" and 19 digits
        keys.push_back(absl::StrFormat(
            "user%019u", static_cast<unsigned long long>(
                             rng->Uniform(10'000'000'000'000'000'000ull))));
        break;
      case 2:  // a tenant's prefix and 16 digits
        keys.push_back(absl::StrFormat(
            "tenant000042/%016u",
            static_cast<unsigned long long>(rng->Uniform(100'000'000))));
        break;
      case 3:  // keys that are prefixes of each other, and empty keys
        keys.push_back(std::string(rng->Uniform(6), 'a' + rng->Uniform(2)));
        break;
      default:  // time-ordered under a shared date
        keys.push_back(
            absl::StrFormat("event/2026-11-28T%02u:%02u:%02u.%03u/%u",
                            static_cast<unsigned>(rng->Uniform(24)),
                            static_cast<unsigned>(rng->Uniform(60)),
                            static_cast<unsigned>(rng->Uniform(60)),
                            static_cast<unsigned>(rng->Uniform(1000)),
                            static_cast<unsigned>(rng->Uniform(10))));
    }
  }
  return keys;
}
constexpr int kNumShapes = 5;

// Strings near the keys: the keys, their neighbours one symbol up or down,
// their prefixes and extensions, and random strings.
std::vector<std::string> ProbesNear(const std::vector<std::string>& keys,
                                    test::Random* rng) {
  std::vector<std::string> probes = {"", std::string(1, '\0'),
                                     std::string(3, '\xff')};
  for (const std::string& key : keys) {
    probes.push_back(key);
    probes.push_back(key + '\0');
    probes.push_back(key + rng->Bytes(2));
    if (!key.empty()) {
      const size_t at = rng->Uniform(key.size());
      std::string up = key, down = key;
      up[at] = static_cast<char>(static_cast<uint8_t>(up[at]) + 1);
      down[at] = static_cast<char>(static_cast<uint8_t>(down[at]) - 1);
      probes.push_back(up);
      probes.push_back(down);
      probes.push_back(key.substr(0, at));
    }
    probes.push_back(rng->Bytes(rng->Uniform(12)));
  }
  return probes;
}

TEST(KeyCoderTest, CodesKeepOrderForAnyString) {
  test::Random rng(1);
  for (int shape = 0; shape < kNumShapes; ++shape) {
    const std::vector<std::string> keys = KeysOfShape(shape, &rng, 300);
    const KeyCoder coder = CoderOf(keys);
    std::vector<std::string> strings = ProbesNear(keys, &rng);
    std::sort(strings.begin(), strings.end());
    for (size_t i = 1; i < strings.size(); ++i) {
      ASSERT_LE(coder.Code(strings[i - 1]), coder.Code(strings[i]))
          << "shape " << shape << ": " << i;
    }
  }
}

// Every key in a range has its code within the range's bounds, for inclusive
// and exclusive upper bounds alike.
TEST(KeyCoderTest, BoundsHoldEveryKeyInTheRange) {
  test::Random rng(2);
  for (int shape = 0; shape < kNumShapes; ++shape) {
    std::vector<std::string> keys = KeysOfShape(shape, &rng, 200);
    const KeyCoder coder = CoderOf(keys);
    std::sort(keys.begin(), keys.end());
    std::vector<std::string> probes = ProbesNear(keys, &rng);
    for (int query = 0; query < 4000; ++query) {
      std::string lo = probes[rng.Uniform(probes.size())];
      std::string hi = probes[rng.Uniform(probes.size())];
      if (hi < lo) std::swap(lo, hi);
      for (const bool exclusive : {false, true}) {
        const CodeBounds low = coder.Bounds(lo, exclusive);
        const CodeBounds high = coder.Bounds(hi, exclusive);
        for (auto it = std::lower_bound(keys.begin(), keys.end(), lo);
             it != keys.end() && (exclusive ? *it < hi : *it <= hi); ++it) {
          const KeyCode code = coder.Code(*it);
          ASSERT_TRUE(low.low.has_value() && high.high.has_value())
              << "shape " << shape << ": a key in the range has no code";
          ASSERT_LE(*low.low, code) << "shape " << shape;
          ASSERT_LE(code, *high.high) << "shape " << shape;
        }
      }
    }
  }
}

TEST(KeyCoderTest, KeysDifferingAtACodedPositionDifferInCode) {
  test::Random rng(3);
  for (int shape = 1; shape < kNumShapes; ++shape) {  // all fit 64 bits
    std::vector<std::string> keys = KeysOfShape(shape, &rng, 2000);
    const KeyCoder coder = CoderOf(keys);
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    for (size_t i = 1; i < keys.size(); ++i) {
      ASSERT_LT(coder.Code(keys[i - 1]), coder.Code(keys[i]))
          << "shape " << shape << ": " << keys[i - 1] << " " << keys[i];
    }
  }
}

// YCSB's keys: the 19 digits after "user" fit one code, and the empty range
// between two neighbouring keys at the last digit is empty in codes.
TEST(KeyCoderTest, YcsbKeysAreCodedToTheirLastDigit) {
  std::vector<std::string> keys;
  for (uint64_t i = 0; i < 1000; ++i) {
    keys.push_back(
        absl::StrFormat("user%019u", 1234567890123456789ull + 1000 * i));
  }
  const KeyCoder coder = CoderOf(keys);
  EXPECT_EQ(coder.prefix(), "user123456789012");  // what all 1000 share
  // Between key i and key i + 1: [...x001, ...x999] holds no key.
  const CodeBounds lo = coder.Bounds("user1234567890123456790", false);
  const CodeBounds hi = coder.Bounds("user1234567890123457788", false);
  ASSERT_TRUE(lo.low.has_value() && hi.high.has_value());
  EXPECT_GT(*lo.low, *hi.high);
  // Just after a key: [k + "\0", k + 1 digit).
  const CodeBounds after = coder.Bounds(keys[5] + '\0', false);
  ASSERT_TRUE(after.low.has_value());
  EXPECT_GT(*after.low, coder.Code(keys[5]));
  EXPECT_FALSE(after.may_be_key);
}

TEST(KeyCoderTest, ParsesWhatItWrites) {
  test::Random rng(4);
  for (int shape = 0; shape < kNumShapes; ++shape) {
    const std::vector<std::string> keys = KeysOfShape(shape, &rng, 500);
    const KeyCoder coder = CoderOf(keys);
    std::string bytes;
    coder.AppendTo(&bytes);
    const std::optional<KeyCoder> parsed = KeyCoder::Parse(bytes);
    ASSERT_TRUE(parsed.has_value()) << "shape " << shape;
    EXPECT_EQ(parsed->max_code(), coder.max_code());
    for (const std::string& probe : ProbesNear(keys, &rng)) {
      ASSERT_EQ(parsed->Code(probe), coder.Code(probe));
    }
    // No shorter or longer bytes parse: the coder's size is exact.
    for (size_t cut = 0; cut < bytes.size(); ++cut) {
      EXPECT_FALSE(KeyCoder::Parse(bytes.substr(0, cut)).has_value()) << cut;
    }
    EXPECT_FALSE(KeyCoder::Parse(bytes + "x").has_value());
  }
}

TEST(KeyCoderTest, NoKeysCodeEverythingAsZero) {
  const KeyCoder coder = CoderOf({});
  EXPECT_TRUE(coder.max_code().IsZero());
  EXPECT_TRUE(coder.Code("anything").IsZero());
}

}  // namespace
}  // namespace grafite_internal
}  // namespace sstfilter
