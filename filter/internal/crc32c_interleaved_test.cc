#include "filter/internal/crc32c_interleaved.h"

#include <cstdint>
#include <random>
#include <string>

#include "gtest/gtest.h"
#include "util/crc32c.h"

namespace sstfilter {
namespace filter_internal {
namespace {

std::string RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string bytes(n, '\0');
  for (char& c : bytes) c = static_cast<char>(rng());
  return bytes;
}

// Every length up to past three rounds of three strides, so each count of
// rounds meets each tail length, and an unaligned start.
TEST(Crc32cInterleavedTest, EqualsSerialCrcAtEveryLength) {
  constexpr size_t kMaxLength = 9 * kCrcStreamStrideBytes + 64;
  const std::string bytes = RandomBytes(kMaxLength + 1, 7);
  for (size_t n = 0; n <= kMaxLength; ++n) {
    for (size_t start : {size_t{0}, size_t{1}}) {
      if (start + n > bytes.size()) continue;
      const char* data = bytes.data() + start;
      ASSERT_EQ(ExtendCrc32cInterleaved(0, data, n), crc32c::Value(data, n))
          << n << " bytes from " << start;
      ASSERT_EQ(ExtendCrc32cInterleaved(0x12345678, data, n),
                crc32c::ExtendPortable(0x12345678, data, n))
          << n << " bytes from " << start;
    }
  }
}

// A filter partition's size, RocksDB's metadata_block_size, and one flipped
// bit in each stream changes the value.
TEST(Crc32cInterleavedTest, SeesAFlippedBitInEveryStream) {
  std::string bytes = RandomBytes(4096, 11);
  const uint32_t clean = ExtendCrc32cInterleaved(0, bytes.data(), bytes.size());
  EXPECT_EQ(clean, crc32c::Value(bytes.data(), bytes.size()));
  for (size_t at : {size_t{3}, kCrcStreamStrideBytes + 5,
                    2 * kCrcStreamStrideBytes + 9, bytes.size() - 1}) {
    bytes[at] ^= 0x10;
    EXPECT_NE(ExtendCrc32cInterleaved(0, bytes.data(), bytes.size()), clean)
        << at;
    bytes[at] ^= 0x10;
  }
}

}  // namespace
}  // namespace filter_internal
}  // namespace sstfilter
