// RocksDB 7.8.3's built-in full-filter Blooms as sstfilter policies: for the
// same keys and bits/key, the filter bytes are identical to RocksDB's, so a
// table written with these policies reads in RocksDB and vice versa.
//
// - NewRocksDbFastLocalBloomFilterPolicy: what RocksDB writes with
// format_version 5
//   (its default). One 64-byte line per key, 64-bit hash.
// - NewRocksDbLegacyBloomFilterPolicy: what RocksDB writes with format_version
// < 5.
//   One 64-byte line per key, 32-bit hash; less accurate (1.16% at 10
//   bits/key, and never better than about 0.1%).
//
// Example:
//
//   auto policy = sstfilter::NewRocksDbFastLocalBloomFilterPolicy(
//       sstfilter::FilterOptions::BitsPerKey(10));
//   if (!policy.ok()) return policy.status();
//   std::vector<absl::string_view> keys = ...;
//   std::string filter;
//   (*policy)->CreateFilter(keys, &filter);  // RocksDB's bytes for these keys
//   // Store it under "fullfilter." + (*policy)->Name() in the metaindex.
//
// Both policies are named kRocksDbBuiltinFilterName, as RocksDB names all its
// built-in filters: the trailer tells them apart. Their readers therefore read
// any RocksDB full filter (they are NewRocksDbFilterReader, rocksdb_reader.h,
// which also describes what each format's reader does and its ExpectedFpp).
//
// Exactness conditions: RocksDB's table option optimize_filters_for_memory =
// false (the 7.8.3 default; with true, RocksDB sizes filters by
// malloc_usable_size), and a little-endian machine with 64-byte cache lines
// (RocksDB on machines with other CACHE_LINE_SIZE writes legacy filters with
// longer lines, which these readers read but these builders do not write).
// Like RocksDB's builders, these skip a key whose hash equals the previous
// key's, so NumAdded() counts calls but the size counts distinct consecutive
// hashes.
//
// Sizing (rocksdb_sizing.h has the details):
//  - bits_per_key = c: RocksDB's own rules. FastLocalBloom keeps c in
//    thousandths (millibits, rounded as RocksDB does), takes
//    ceil(n * millibits / 8000) bytes rounded up to whole 64-byte lines, and k
//    from RocksDB's table of millibits (6 at 10 bits/key). Legacy rounds c to
//    whole bits, takes ceil(n * c / 512) lines made odd, and k = floor(0.69 c)
//    in [1, 30]. Both add the 5-byte trailer; no keys give a 5-byte filter.
//  - fpp = p: the smallest setting whose modelled rate is at most p.
//    FastLocalBloom reaches 1.1e-10 at 100 bits/key (k = 24). Legacy Bloom
//    cannot go below about 1e-3 whatever its size (its probe steps repeat
//    positions), so fpp below its floor is an InvalidArgumentError naming the
//    value, even above kMinGuaranteedFpp. For n keys the legacy rate also gains
//    n / 2^32 from its 32-bit hash.

#ifndef SSTFILTER_FILTER_ROCKSDB_ROCKSDB_BLOOM_H_
#define SSTFILTER_FILTER_ROCKSDB_ROCKSDB_BLOOM_H_

#include <memory>

#include "absl/status/statusor.h"
#include "filter/filter_policy.h"

namespace sstfilter {

// The name RocksDB persists for every built-in filter (BuiltinFilterPolicy::
// kCompatibilityName); the metaindex key of a full filter is "fullfilter."
// followed by it.
constexpr char kRocksDbBuiltinFilterName[] = "rocksdb.BuiltinBloomFilter";

// Returns InvalidArgumentError for invalid options (ValidateFilterOptions) and
// for an fpp the format cannot reach.
absl::StatusOr<std::unique_ptr<const FilterPolicy>>
NewRocksDbFastLocalBloomFilterPolicy(const FilterOptions& options);
absl::StatusOr<std::unique_ptr<const FilterPolicy>>
NewRocksDbLegacyBloomFilterPolicy(const FilterOptions& options);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ROCKSDB_ROCKSDB_BLOOM_H_
