// Presents an sstfilter FilterPolicy to RocksDB as a rocksdb::FilterPolicy,
// so that RocksDB's block-based tables build and read sstfilter's filters.
//
// Example (NewBloomFilterPolicy is in filter/bloom/bloom.h):
//
//   absl::StatusOr<std::unique_ptr<const sstfilter::FilterPolicy>> policy =
//       sstfilter::NewBloomFilterPolicy(sstfilter::FilterOptions::Fpp(0.01));
//   if (!policy.ok()) return policy.status();
//   rocksdb::BlockBasedTableOptions table_options;
//   table_options.filter_policy =
//       sstfilter::AsRocksDbFilterPolicy(std::move(*policy));
//   rocksdb::Options options;
//   options.table_factory.reset(
//       rocksdb::NewBlockBasedTableFactory(table_options));
//   // rocksdb::DB::Open(options, path, &db): every table it writes from now on
//   // holds a native filter stored under the policy's Name()
//   // (kCheckedLocalBloomName, since self_checksum defaults to on), and
//   // Get/MultiGet consult it.
//
// RocksDB 7.8 and 9.7 (the releases filter/rocksdb/rocksdb_filter_bits.h
// lists). RocksDB 7.0 made the classes a FilterPolicy hands out
// (FilterBitsBuilder, FilterBitsReader) internal; this adapter implements them
// as declared there, with each release's virtual layout, and refuses to
// compile against any other release. RocksDB 10.7 and later need C++20 to
// include their headers.
//
// What RocksDB does with the filter (table/block_based/
// block_based_table_builder.cc, block_based_table_reader.cc,
// full_filter_block.cc, parsed_full_filter_block.cc at tags v7.8.3 and
// v9.7.4; the two agree except where said):
//  - Writing a table: one GetBuilderWithContext call per table file, then
//    AddKey for each user key in key order (timestamp stripped; with a
//    prefix_extractor also each prefix, and only prefixes when
//    whole_key_filtering is false), then Finish: once for a full filter, once
//    per partition with partition_filters (partitions sized by
//    ApproximateNumEntries; 9.7 with decouple_partitioned_filters cuts them
//    apart from the index partitions). With both whole keys and prefixes,
//    9.7 adds a key and its prefix in one AddKeyAndAlt call; each is added to
//    the filter once, as RocksDB's own builders add them. A table to which no
//    key was added gets no filter block.
//  - The bytes Finish returns are stored as they are: RocksDB asks nothing of
//    them (the 5-byte trailer of its own filters is read only by its own
//    readers). The block is never compressed; it gets the table's 5-byte block
//    trailer (type byte, checksum) and the metaindex entry
//    "fullfilter." + CompatibilityName() ("partitionedfilter." + ... when
//    partitioned). The table properties record filter_policy_name = Name(),
//    filter_size = the bytes and num_filter_entries = EstimateEntriesAdded()
//    (the keys added, a key repeated right after itself once, as RocksDB's
//    own builders count them).
//  - Opening a table: RocksDB looks up "fullfilter." + CompatibilityName() of
//    the *configured* policy, then "partitionedfilter." + the same (and
//    "filter." + the same, the obsolete block-based filter, which it finds
//    but no longer reads), by exact name for any name outside its built-in
//    family (kRocksDbBuiltinFilterName and its aliases, which accept only
//    each other).
//    The properties' filter_policy_name is not consulted. So a table written
//    under another name is read with no filter (every key may match: its data
//    blocks are read, nothing is lost), and RocksDB's own policies ignore
//    sstfilter's filters the same way; switching back finds them again.
//  - The filter block's checksum is verified whenever it is read, whatever
//    the caller's ReadOptions::verify_checksums: table open and the filter
//    reader read it with ReadOptions of their own. A block that fails is
//    dropped without an error (at open, or for the lookup that read it with
//    cache_index_and_filter_blocks): the table is read as if it had no
//    filter. DB::VerifyChecksum reports it as Corruption. A corrupt filter
//    costs reads, never a wrong NotFound.
//  - GetFilterBitsReader receives the block contents, not necessarily
//    aligned; an empty block gets no reader (every key may match). Get asks
//    MayMatch(key); MultiGet asks the batched MayMatch with up to 32 keys of a
//    batch that fall in the table. Each "no" adds one to the ticker
//    BLOOM_FILTER_USEFUL.
//
// Lifetimes and threads:
//  - The returned policy shares ownership of `policy`: it may outlive the
//    caller's pointer. It is immutable; share it across column families,
//    databases and threads as RocksDB does.
//  - A FilterBitsBuilder owns its FilterBuilder and is used by one thread (one
//    table build). The buffer Finish hands back owns the filter bytes.
//  - A FilterBitsReader holds an sstfilter FilterReader over the contents it
//    was created from. REQUIRES: the contents outlive the reader (RocksDB's
//    ParsedFullFilterBlock holds both and destroys the reader first). Its
//    MayMatch calls are safe from any number of threads.

#ifndef SSTFILTER_ENGINES_ROCKSDB_ROCKSDB_ADAPTER_H_
#define SSTFILTER_ENGINES_ROCKSDB_ROCKSDB_ADAPTER_H_

#include <cstddef>
#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "filter/filter_policy.h"
#include "rocksdb/filter_policy.h"

namespace sstfilter {

// How the adapter builds filters.
struct RocksDbAdapterOptions {
  // Checks every finished filter against every key added to it before
  // RocksDB writes it (FilterBitsBuilder::MaybePostVerify): a filter that
  // misses a key fails the flush or compaction with Status::Corruption, and
  // no table holding it is installed. Costs the keys kept until the check
  // (their bytes and 8 bytes each, filter/verified_build.h) and one query per
  // key. RocksDB's own switch, BlockBasedTableOptions::
  // detect_filter_construct_corruption, turns it on as well.
  bool verify_builds = false;
};

// Presents policy to RocksDB as a rocksdb::FilterPolicy. Name() and
// CompatibilityName() are policy->Name(), so a table's filter is read back by
// the same format whatever bits/key wrote it. A null policy gives null, which
// RocksDB reads as "no filter".
std::shared_ptr<const rocksdb::FilterPolicy> AsRocksDbFilterPolicy(
    std::shared_ptr<const FilterPolicy> policy,
    const RocksDbAdapterOptions& options);
std::shared_ptr<const rocksdb::FilterPolicy> AsRocksDbFilterPolicy(
    std::shared_ptr<const FilterPolicy> policy);
// Null, as for a null policy above; keeps AsRocksDbFilterPolicy(nullptr)
// unambiguous beside the spec-string form below.
inline std::shared_ptr<const rocksdb::FilterPolicy> AsRocksDbFilterPolicy(
    std::nullptr_t) {
  return nullptr;
}

// The policy a spec string names (filter/filter_spec.h, e.g. "bloom:10"),
// presented to RocksDB as above. InvalidArgumentError, the parser's one line,
// for a malformed spec.
absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>>
AsRocksDbFilterPolicy(absl::string_view spec,
                      const RocksDbAdapterOptions& options = {});

// A read-only rocksdb::FilterPolicy for the registered format named
// format_name (format_registry.h): RocksDB reads the filters of the tables
// written under that name and writes new tables without a filter, as its own
// read-only policies do for formats it cannot build. For a database moving
// to another filter, or a tool that only reads. NotFoundError naming the
// value, with the registered names, when no linked family reads format_name.
absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>>
NewRocksDbReadOnlyFilterPolicy(absl::string_view format_name);

}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_ROCKSDB_ADAPTER_H_
