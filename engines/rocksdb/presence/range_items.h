// What a presence filter adds for each key so that it can answer whether a
// range [lo, hi] may hold a key (PresenceFilterOptions::filter_range_seeks):
// the key's bytes in KeyAlphabets, and two run members in the filter's bits
// (MutableBloomFilter runs): the key less its last byte, with that byte, and
// the key less its last two bytes, with the byte before the last. Design and
// bound: README.md ("range_items.h").

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_RANGE_ITEMS_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_RANGE_ITEMS_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engines/rocksdb/presence/key_alphabets.h"
#include "inmemory/mutable/mutable_bloom.h"

namespace sstfilter {
namespace presence_internal {

// Probe bits of each run member: a range of w candidate keys of one length
// matches by chance with probability about w * fill^kRangeProbes.
constexpr int kRangeProbes = 13;
// The range items of one key, counted in keys of a MutableBloomFilter of
// fpp (the bits they set over the bits a key sets), for sizing the filter.
// InvalidArgumentError for an fpp the filter rejects.
absl::StatusOr<double> RangeItemsPerKey(double fpp);

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
