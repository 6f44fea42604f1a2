// The keys of db_bench's prefix-seek section: key i is the kPrefixBytes-byte
// prefix of group i / kKeysPerPrefix (a bijective mix of the group's number)
// and a suffix of its own, so a database of n keys holds the prefixes of
// groups 0 .. (n - 1) / kKeysPerPrefix. Absent prefixes are those of groups
// from kAbsentBase up (bench/keys.h), absent for certain.

#ifndef SSTFILTER_BENCH_DB_PREFIX_KEYS_H_
#define SSTFILTER_BENCH_DB_PREFIX_KEYS_H_

#include <cstddef>
#include <cstdint>

namespace sstfilter {
namespace bench {

constexpr size_t kPrefixBytes = 8;
constexpr size_t kSuffixBytes = 8;
// About a quarter of a 4 KB data block of 16-byte keys and 32-byte values:
// a present prefix's keys are read in one block, two at a block boundary.
constexpr uint64_t kKeysPerPrefix = 16;

// Writes key `index` (kPrefixBytes + kSuffixBytes bytes) to buf; returns its
// length: key `index` of group index / kKeysPerPrefix in util/grouped_keys.h's
// binary style, seed 0. A KeyMaker (rocksdb_tree.h).
size_t PrefixedKey(uint64_t index, char* buf);

// Writes the prefix of group `group` (kPrefixBytes bytes) to buf; returns its
// length.
size_t GroupPrefix(uint64_t group, char* buf);

// The absent prefix of draw `draw`: the prefix of group kAbsentBase + draw.
// A QueryMaker (lookups.h); num_keys is not needed.
size_t AbsentPrefix(uint64_t draw, uint64_t num_keys, char* buf);

// Groups of a database of num_keys keys, and the keys group holds there.
uint64_t PrefixGroups(uint64_t num_keys);
uint64_t KeysWithPrefix(uint64_t group, uint64_t num_keys);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_PREFIX_KEYS_H_
