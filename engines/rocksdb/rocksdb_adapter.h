// Presents an sstfilter FilterPolicy to RocksDB 7.8 or 9.7 as a
// rocksdb::FilterPolicy, so that its block-based tables build and read
// sstfilter's filters under the policy's Name(). What RocksDB does with the
// filter, and why a corrupt one costs reads, never a wrong NotFound:
// README.md ("rocksdb_adapter.h").
//
//   auto policy =
//       sstfilter::NewBloomFilterPolicy(sstfilter::FilterOptions::Fpp(0.01));
//   table_options.filter_policy =
//       sstfilter::AsRocksDbFilterPolicy(std::move(*policy));

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
// The result shares ownership of policy and is immutable: share it across
// column families, databases and threads. Each FilterBitsBuilder serves one
// table build on one thread; a FilterBitsReader may be queried from any
// number of threads. REQUIRES: the filter contents a reader was made from
// outlive it (RocksDB's ParsedFullFilterBlock ensures it).
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
