// Redis Cluster's key-to-slot mapping, from the cluster specification
// (https://redis.io/docs/reference/cluster-spec/, "Key distribution model"):
// slot = CRC16(key) mod 16384, where CRC16 is the XMODEM variant (polynomial
// 0x1021, initial value 0, no reflection), and only the hash tag is hashed
// when the key has one: the bytes between the first '{' and the first '}'
// after it, if there is at least one byte between them.

#ifndef SSTFILTER_ENGINES_REDIS_HASH_SLOT_H_
#define SSTFILTER_ENGINES_REDIS_HASH_SLOT_H_

#include <cstdint>

#include "absl/strings/string_view.h"

namespace sstfilter {
namespace redis_internal {

constexpr int kClusterSlots = 16384;

// CRC16/XMODEM of data; Crc16("123456789") == 0x31C3 (the specification's
// check value).
uint16_t Crc16(absl::string_view data);

// The cluster slot of key, in [0, kClusterSlots).
int HashSlot(absl::string_view key);

}  // namespace redis_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_REDIS_HASH_SLOT_H_
