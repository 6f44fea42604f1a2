// RocksDB's built-in full-filter Blooms as sstfilter policies: for the same
// keys and bits/key the filter bytes are RocksDB's, so a table written with
// them reads in RocksDB and vice versa. filter/rocksdb/README.md defines the
// formats, their sizing and when the bytes are exact.
//
//   auto policy = sstfilter::NewRocksDbFastBloomFilterPolicy(
//       sstfilter::FilterOptions::BitsPerKey(10));
//   if (!policy.ok()) return policy.status();
//   (*policy)->CreateFilter(keys, &filter);  // RocksDB's bytes for these keys
//   // Store it under "fullfilter." + (*policy)->Name() in the metaindex.

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

// FastLocalBloom is what RocksDB writes with format_version 5 (its default),
// legacy Bloom what it writes below 5 (less accurate, never better than about
// 0.1%). Both are named kRocksDbBuiltinFilterName and told apart by the
// filter's trailer, so their readers read any RocksDB full filter (they are
// NewRocksDbFilterReader, rocksdb_reader.h).
//
// bits_per_key follows RocksDB's own sizing rules (rocksdb_sizing.h); fpp
// takes the smallest setting whose modelled rate is at most it. Like
// RocksDB's builders, these skip a key whose hash equals the previous key's,
// so NumAdded() counts calls but the size counts distinct consecutive hashes.
//
// Returns InvalidArgumentError for invalid options (ValidateFilterOptions) and
// for an fpp the format cannot reach (legacy Bloom's floor lies above
// kMinGuaranteedFpp).
absl::StatusOr<std::unique_ptr<const FilterPolicy>>
NewRocksDbFastBloomFilterPolicy(const FilterOptions& options);
absl::StatusOr<std::unique_ptr<const FilterPolicy>>
NewRocksDbLegacyBloomFilterPolicy(const FilterOptions& options);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ROCKSDB_ROCKSDB_BLOOM_H_
