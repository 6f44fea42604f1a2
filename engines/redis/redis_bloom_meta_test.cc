#include "engines/redis/redis_bloom_meta.h"

#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace redis_internal {
namespace {

RedisBloomMeta Example() {
  RedisBloomMeta meta;
  meta.body_bytes = 64 * 1000 + 17;  // a published filter's wide last block
  meta.blocks_per_segment = 128;
  meta.expected_keys = 51200;
  meta.bits_per_key = 9.92;
  meta.num_probes = 6;
  meta.self_checksum = false;
  return meta;
}

TEST(RedisBloomMetaTest, RoundTrips) {
  const std::string bytes = EncodeMeta(Example());
  ASSERT_EQ(bytes.size(), kMetaBytes);
  absl::StatusOr<RedisBloomMeta> meta = DecodeMeta(bytes);
  ASSERT_TRUE(meta.ok()) << meta.status();
  EXPECT_EQ(meta->body_bytes, Example().body_bytes);
  EXPECT_EQ(meta->blocks_per_segment, Example().blocks_per_segment);
  EXPECT_EQ(meta->expected_keys, Example().expected_keys);
  EXPECT_EQ(meta->bits_per_key, Example().bits_per_key);
  EXPECT_EQ(meta->num_probes, Example().num_probes);
  EXPECT_EQ(meta->self_checksum, Example().self_checksum);
}

// Every truncation, extension and single bit flip is a DataLossError.
TEST(RedisBloomMetaTest, DamageIsDataLoss) {
  const std::string bytes = EncodeMeta(Example());
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_TRUE(absl::IsDataLoss(DecodeMeta(bytes.substr(0, n)).status())) << n;
  }
  EXPECT_TRUE(absl::IsDataLoss(DecodeMeta(bytes + "x").status()));
  for (size_t bit = 0; bit < bytes.size() * 8; ++bit) {
    std::string damaged = bytes;
    damaged[bit / 8] ^= static_cast<char>(1 << (bit % 8));
    EXPECT_TRUE(absl::IsDataLoss(DecodeMeta(damaged).status())) << bit;
  }
}

// Fields out of range are rejected even under a valid CRC32C, naming the
// field.
TEST(RedisBloomMetaTest, ChecksFieldsUnderAValidChecksum) {
  struct Case {
    void (*damage)(RedisBloomMeta*);
    const char* message;
  };
  const Case cases[] = {
      {[](RedisBloomMeta* m) { m->body_bytes = 63; }, "body of 63 bytes"},
      {[](RedisBloomMeta* m) { m->blocks_per_segment = 0; },
       "blocks per segment"},
      {[](RedisBloomMeta* m) { m->blocks_per_segment = uint64_t{1} << 40; },
       "blocks per segment"},
      {[](RedisBloomMeta* m) { m->expected_keys = 0; }, "expected_keys is 0"},
      {[](RedisBloomMeta* m) { m->bits_per_key = 0.5; }, "bits/key 0.5"},
      {[](RedisBloomMeta* m) { m->bits_per_key = std::nan(""); }, "bits/key"},
      {[](RedisBloomMeta* m) { m->num_probes = 0; }, "probe count 0"},
      {[](RedisBloomMeta* m) { m->num_probes = 31; }, "probe count 31"},
  };
  for (const Case& c : cases) {
    RedisBloomMeta meta = Example();
    c.damage(&meta);
    const absl::Status status = DecodeMeta(EncodeMeta(meta)).status();
    EXPECT_TRUE(absl::IsDataLoss(status)) << c.message;
    EXPECT_NE(status.message().find(c.message), std::string::npos)
        << status.message();
  }
  std::string bytes = EncodeMeta(Example());
  EXPECT_NE(DecodeMeta(std::string(kMetaBytes, 'x'))
                .status()
                .message()
                .find("wrong magic"),
            std::string::npos);
}

}  // namespace
}  // namespace redis_internal
}  // namespace sstfilter
