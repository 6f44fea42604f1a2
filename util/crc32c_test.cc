// Tests of CRC32C: the RFC 3720 vectors, both implementations against each
// other, and against librocksdb's exported crc32c::Extend.

#include "util/crc32c.h"

#include <string>

#include "gtest/gtest.h"
#include "util/testing/random.h"

// Exported by librocksdb (util/crc32c.h in RocksDB 7.8.3), not in its public
// headers: the oracle.
namespace rocksdb {
namespace crc32c {
extern uint32_t Extend(uint32_t init_crc, const char* data, size_t n);
}  // namespace crc32c
}  // namespace rocksdb

namespace sstfilter {
namespace {

using Fn = uint32_t (*)(uint32_t, const char*, size_t);

std::vector<std::pair<const char*, Fn>> Implementations() {
  std::vector<std::pair<const char*, Fn>> fns = {
      {"Extend", &crc32c::Extend}, {"portable", &crc32c::ExtendPortable}};
  if (crc32c::HardwareAvailable()) {
    fns.push_back({"hardware", &crc32c::ExtendHardware});
  }
  if (crc32c::CarrylessAvailable()) {
    fns.push_back({"carryless", &crc32c::ExtendCarryless});
  }
  if (crc32c::WideCarrylessAvailable()) {
    fns.push_back({"wide carryless", &crc32c::ExtendWideCarryless});
  }
  return fns;
}

// RFC 3720 (iSCSI), appendix B.4 "CRC Examples".
TEST(Crc32cTest, Rfc3720Vectors) {
  std::string zeros(32, '\0'), ones(32, '\xff'), ascending(32, 0),
      descending(32, 0);
  for (int i = 0; i < 32; ++i) {
    ascending[i] = static_cast<char>(i);
    descending[i] = static_cast<char>(31 - i);
  }
  const unsigned char kReadPdu[48] = {
      0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
      0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  const std::string pdu(reinterpret_cast<const char*>(kReadPdu), 48);
  for (const auto& [name, fn] : Implementations()) {
    EXPECT_EQ(fn(0, zeros.data(), 32), 0x8a9136aau) << name;
    EXPECT_EQ(fn(0, ones.data(), 32), 0x62a8ab43u) << name;
    EXPECT_EQ(fn(0, ascending.data(), 32), 0x46dd794eu) << name;
    EXPECT_EQ(fn(0, descending.data(), 32), 0x113fdb5cu) << name;
    EXPECT_EQ(fn(0, pdu.data(), 48), 0xd9963a56u) << name;
    EXPECT_EQ(fn(0, "123456789", 9), 0xe3069283u) << name;  // the check value
    EXPECT_EQ(fn(0, "", 0), 0u) << name;
  }
}

TEST(Crc32cTest, ExtendComposes) {
  const std::string a = "hello ", b = "world, and more than eight bytes";
  const std::string ab = a + b;
  for (const auto& [name, fn] : Implementations()) {
    EXPECT_EQ(fn(fn(0, a.data(), a.size()), b.data(), b.size()),
              fn(0, ab.data(), ab.size()))
        << name;
  }
}

TEST(Crc32cTest, MaskRoundTrips) {
  test::Random random(1);
  for (int i = 0; i < 1000; ++i) {
    const uint32_t crc = static_cast<uint32_t>(random.Next64());
    EXPECT_NE(crc32c::Mask(crc), crc);
    EXPECT_NE(crc32c::Mask(crc32c::Mask(crc)), crc);
    EXPECT_EQ(crc32c::Unmask(crc32c::Mask(crc)), crc);
  }
}

// Every length 0..4096 at every alignment 0..15, from zero and from a
// nonzero starting CRC, against RocksDB's implementation.
TEST(Crc32cTest, MatchesRocksDb) {
  test::Random random(2);
  const std::string buffer = random.Bytes(4096 + 16);
  for (const auto& [name, fn] : Implementations()) {
    for (size_t align = 0; align < 16; ++align) {
      for (size_t n = 0; n <= 4096; ++n) {
        const char* p = buffer.data() + align;
        ASSERT_EQ(fn(0, p, n), rocksdb::crc32c::Extend(0, p, n))
            << name << " n=" << n << " align=" << align;
        ASSERT_EQ(fn(0x12345678, p, n),
                  rocksdb::crc32c::Extend(0x12345678, p, n))
            << name << " n=" << n << " align=" << align;
      }
    }
  }
}

// A whole table's filter: many rounds of each folding loop, against the
// table-driven loop.
TEST(Crc32cTest, LongInputsMatchThePortableLoop) {
  test::Random random(3);
  const std::string buffer = random.Bytes(1 << 20);
  for (size_t n : {size_t{65'536}, size_t{1'000'003}}) {
    const uint32_t expected = crc32c::ExtendPortable(7, buffer.data() + 1, n);
    for (const auto& [name, fn] : Implementations()) {
      EXPECT_EQ(fn(7, buffer.data() + 1, n), expected) << name << " n=" << n;
    }
  }
}

}  // namespace
}  // namespace sstfilter
