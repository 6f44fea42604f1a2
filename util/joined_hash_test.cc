// JoinedHash64 against Hash64 of the bytes copied together: every tail length
// up to 300 (each of XXH3's steps and the lengths where its words cross from
// head to tail), heads with high bits set, and tails of any byte values.

#include "util/joined_hash.h"

#include <cstdint>
#include <random>
#include <string>

#include "gtest/gtest.h"
#include "util/hash.h"

namespace sstfilter {
namespace {

std::string Joined(const uint8_t (&head)[3], const std::string& tail) {
  return std::string(reinterpret_cast<const char*>(head), 3) + tail;
}

TEST(JoinedHashTest, EqualsHash64OfTheJoinedBytesAtEveryLength) {
  std::mt19937_64 random(11);
  for (size_t length = 0; length <= 300; ++length) {
    for (int trial = 0; trial < 20; ++trial) {
      const uint8_t head[3] = {static_cast<uint8_t>(random()),
                               static_cast<uint8_t>(random()),
                               static_cast<uint8_t>(random())};
      std::string tail(length, '\0');
      for (char& c : tail) c = static_cast<char>(random());
      ASSERT_EQ(JoinedHash64(head, tail), Hash64(Joined(head, tail)))
          << "tail of " << length << " bytes, trial " << trial;
    }
  }
}

// The tail is read where it lies, not from a copy: a view into a longer
// buffer hashes only its own bytes.
TEST(JoinedHashTest, ReadsOnlyTheTailsBytes) {
  const std::string buffer(200, 'x');
  const uint8_t head[3] = {1, 2, 3};
  for (size_t length = 0; length < 150; ++length) {
    const absl::string_view tail(buffer.data() + 10, length);
    std::string other(length, 'x');
    EXPECT_EQ(JoinedHash64(head, tail), JoinedHash64(head, other)) << length;
    if (length > 0) {
      other.back() = 'y';
      EXPECT_NE(JoinedHash64(head, tail), JoinedHash64(head, other)) << length;
    }
  }
}

}  // namespace
}  // namespace sstfilter
