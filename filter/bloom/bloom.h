// sstfilter's native filter: a cache-local Bloom filter, the default policy for
// a new LSM store. All k probes of a key fall in one 64-byte block (one cache
// miss per query), the block chosen from a 64-bit hash over the whole filter,
// so accuracy holds at any size (no 32-bit limits on keys, bytes or blocks).
// Queries use AVX2 when the CPU has it.
//
// Example:
//
//   absl::StatusOr<std::unique_ptr<const sstfilter::FilterPolicy>> policy =
//       sstfilter::NewBloomFilterPolicy(sstfilter::FilterOptions::Fpp(0.01));
//   if (!policy.ok()) return policy.status();
//   std::string filter;
//   (*policy)->CreateFilter(keys, &filter);
//   std::unique_ptr<sstfilter::FilterReader> reader =
//       (*policy)->NewReader(filter);
//   if (reader->MayMatch(key)) { /* read the data block */ }
//
// Sizing: with fpp = p, bits/key c and probes k come from the false-positive
// formula of this very layout (LocalBloomFpp in util/bloom_math.h: Poisson
// keys per 512-bit block, exact occupancy of each block), c the smallest that
// reaches p with the best k. The promise: measured rate <= 1.05 p, for p from
// 10% down to 0.01%. It costs a little more than a standard Bloom filter at
// low p (9.92 bits/key at 1%, 22.03 at 0.01%, against 9.59 and 19.17), the
// price of one cache miss per query. An fpp below 1.1e-10 (100 bits/key) is
// rejected. With bits_per_key = c, k is the formula's optimum for c (6 at 10
// bits/key). A filter of n keys takes ceil(n c / 8) bytes plus a 4..13-byte
// trailer.
//
// Alignment: start a filter on a 64-byte boundary. A block is then one cache
// line, so a query on a filter out of cache waits for one miss instead of two.
// A reader reads the filter where the caller keeps it, with no copy (no memory
// beyond the reader object, no work at construction beyond parsing the
// trailer), and answers the same at any address (bloom_format_test's
// AnyAlignment); only its speed out of cache depends on the address. A
// std::string or new char[] starts 16-byte aligned, so three filters in four
// would have every block across two lines. sstfilter's own table layer
// (table/table_filter.h) keeps filters 64-byte aligned, and so does
// FilterArena (filter/filter_arena.h), which also asks for huge pages.
// Measurements: docs/out_of_cache.md.
//
// Reader size: the AVX2 reader (the one a CPU with AVX2 gets) is 24 bytes, a
// vtable pointer, the body pointer, and the body's size in bits with k packed
// beside it; the block layout and n are derived when needed. A store holds a
// reader per open table, and a query out of cache first reaches its reader,
// so the fewer lines thousands of readers keep hot, the more of them stay in
// L2 (docs/out_of_cache.md, "The reader's size"). The portable reader keeps
// the parsed filter whole (72 bytes).
//
// Format: filter/bloom/README.md. Name(): kCheckedLocalBloomName (format
// version 2, with the CRC32C of filter/format_version_2.md) with
// FilterOptions::self_checksum unset (the default) or true; kLocalBloomName
// with self_checksum false. Both constants are in bloom_format.h.
//
// Readers are immutable and thread-safe, and accept any bytes: too short to be
// a filter -> matches nothing; unknown format or inconsistent trailer -> may
// match everything.

#ifndef SSTFILTER_FILTER_BLOOM_BLOOM_H_
#define SSTFILTER_FILTER_BLOOM_BLOOM_H_

#include <memory>

#include "absl/status/statusor.h"
#include "filter/filter_policy.h"

namespace sstfilter {

// Returns InvalidArgumentError, naming the value, for invalid options (see
// ValidateFilterOptions) and for an fpp below what 100 bits/key reach.
absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewBloomFilterPolicy(
    const FilterOptions& options);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BLOOM_BLOOM_H_
