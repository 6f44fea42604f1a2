// sstfilter's native filter: a cache-local Bloom filter, the default policy for
// a new LSM store. All k probes of a key fall in one 64-byte block (one cache
// miss per query), the block chosen from a 64-bit hash over the whole filter,
// so accuracy holds at any size. filter/bloom/README.md defines the format,
// its sizing and the rules its speed rests on.
//
//   absl::StatusOr<std::unique_ptr<const sstfilter::FilterPolicy>> policy =
//       sstfilter::NewBloomFilterPolicy(sstfilter::FilterOptions::Fpp(0.01));
//   if (!policy.ok()) return policy.status();
//   (*policy)->CreateFilter(keys, &filter);

#ifndef SSTFILTER_FILTER_BLOOM_BLOOM_H_
#define SSTFILTER_FILTER_BLOOM_BLOOM_H_

#include <memory>

#include "absl/status/statusor.h"
#include "filter/filter_policy.h"

namespace sstfilter {

// The family's name in a spec ("bloom:fpp=0.01", filter/filter_spec.h).
constexpr char kBloomFamilyName[] = "bloom";

// Returns InvalidArgumentError, naming the value, for invalid options (see
// ValidateFilterOptions) and for an fpp below what 100 bits/key reach.
//
// Sizing: with fpp = p, bits/key and probes come from the exact
// false-positive formula of this layout (LocalBloomFpp, util/bloom_math.h);
// the promise, which bloom_fpp_test checks, is a rate of at most 1.05 p for p
// from 10% down to 0.01%. With bits_per_key = c, k is the formula's optimum
// for c. A filter of n keys takes ceil(n c / 8) bytes plus a 4..13-byte
// trailer.
//
// Alignment: start a filter on a 64-byte boundary (table/table_filter.h and
// FilterArena do) so that a block is one cache line. A reader reads the
// filter in place, with no copy, and answers the same at any address; only
// its speed out of cache depends on it.
//
// Name(): kCheckedLocalBloomName (format version 2, with the CRC32C of
// filter/format_version_2.md) unless FilterOptions::self_checksum is false,
// then kLocalBloomName (both in bloom_format.h). Readers are immutable and
// thread-safe, and accept any bytes: too short to be a filter, they match
// nothing; of an unknown format or with an inconsistent trailer, they may
// match everything.
absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewBloomFilterPolicy(
    const FilterOptions& options);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BLOOM_BLOOM_H_
