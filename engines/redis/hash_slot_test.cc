#include "engines/redis/hash_slot.h"

#include "gtest/gtest.h"

namespace sstfilter {
namespace redis_internal {
namespace {

// The cluster specification's check value for its CRC16.
TEST(HashSlotTest, Crc16MatchesTheSpecification) {
  EXPECT_EQ(Crc16("123456789"), 0x31C3);
  EXPECT_EQ(Crc16(""), 0);
}

// The specification's hash-tag examples: only the first {...} with at least
// one byte inside counts. (redis_cluster_test compares every slot with the
// server's own CLUSTER KEYSLOT.)
TEST(HashSlotTest, HashTags) {
  EXPECT_EQ(HashSlot("{user1000}.following"), HashSlot("user1000"));
  EXPECT_EQ(HashSlot("{user1000}.followers"), HashSlot("user1000"));
  // An empty first tag: the whole key is hashed, not the later {bar}.
  EXPECT_EQ(HashSlot("foo{}{bar}"), Crc16("foo{}{bar}") % kClusterSlots);
  EXPECT_NE(HashSlot("foo{}{bar}"), HashSlot("bar"));
  EXPECT_EQ(HashSlot("foo{{bar}}zap"), HashSlot("{bar"));
  EXPECT_EQ(HashSlot("foo{bar}{zap}"), HashSlot("bar"));
  EXPECT_EQ(HashSlot("no tag}{"), Crc16("no tag}{") % kClusterSlots);
}

TEST(HashSlotTest, SlotsAreInRange) {
  for (int i = 0; i < 100000; ++i) {
    const int slot = HashSlot(std::to_string(i));
    ASSERT_GE(slot, 0);
    ASSERT_LT(slot, kClusterSlots);
  }
}

}  // namespace
}  // namespace redis_internal
}  // namespace sstfilter
