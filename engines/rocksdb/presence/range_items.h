// What a presence filter adds for each key so that it can answer whether a
// range [lo, hi] may hold a key (PresenceFilterOptions::filter_range_seeks):
// the key's bytes in KeyAlphabets, and two run members in the filter's bits
// (MutableBloomFilter runs): the key less its last byte, with that byte, and
// the key less its last two bytes, with the byte before the last. Design and
// bound: README.md ("range_items.h").

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_RANGE_ITEMS_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_RANGE_ITEMS_H_

#include "absl/strings/string_view.h"
#include "engines/rocksdb/presence/key_alphabets.h"
#include "inmemory/mutable/mutable_bloom.h"

namespace sstfilter {
namespace presence_internal {

// Probe bits of each run member: a range of w candidate keys of one length
// matches by chance with probability about w * fill^kRangeProbes.
constexpr int kRangeProbes = 13;
// Bits a key's range items set, in keys' probes of a filter of num_probes,
// for sizing the filter.
inline double RangeItemsPerKey(int num_probes) {
  return 2.0 * kRangeProbes / num_probes;
}

// Adds key's range items. REQUIRES: one adder at a time.
void AddRangeItemsSingleWriter(absl::string_view key, KeyAlphabets* alphabets,
                               MutableBloomFilter* bits);

// False only if no key whose range items were added lies in [lo, hi], or
// [lo, hi) when !hi_inclusive. True also when the range is too wide for the
// items: the keys of one length in it differ before their last two bytes.
bool RangeMayHoldKey(const KeyAlphabets& alphabets,
                     const MutableBloomFilter& bits, absl::string_view lo,
                     absl::string_view hi, bool hi_inclusive);

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_RANGE_ITEMS_H_
