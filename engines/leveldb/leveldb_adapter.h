// Hands an sstfilter policy to LevelDB 1.23: the tables a database writes
// carry its filters, and lookups ask them before reading a data block.
//
// Example:
//
//   absl::StatusOr<std::unique_ptr<const sstfilter::FilterPolicy>> policy =
//       sstfilter::NewBloomFilterPolicy(sstfilter::FilterOptions::Fpp(0.01));
//   if (!policy.ok()) return policy.status();
//   std::unique_ptr<leveldb::FilterPolicy> filter =
//       sstfilter::AsLevelDbFilterPolicy(*std::move(policy));
//   leveldb::Options options;
//   options.filter_policy = filter.get();
//   leveldb::DB* db;
//   leveldb::Status s = leveldb::DB::Open(options, "/tmp/db", &db);
//   ...
//   delete db;  // before filter
//
// Lifetimes: leveldb::Options::filter_policy is a raw pointer, and LevelDB
// keeps using it (in background compactions, in every lookup) until the DB is
// deleted. REQUIRES: the returned object outlives every DB opened with it.
//
// How LevelDB uses it:
//  - CreateFilter is called with the keys of each 2 KB stretch of a table's
//    data blocks, from the thread that writes the table (a flush, a
//    compaction, or DB::Open replaying the log). It appends the policy's
//    filter for them. LevelDB strips its 8-byte sequence/type tag first: the
//    policy sees user keys, in KeyMayMatch too.
//  - KeyMayMatch is called once per lookup per table the lookup reaches, with
//    the filter's bytes and no reader object: LevelDB's API has no place to
//    keep one. It answers through FilterPolicy::KeyMayMatch, which parses the
//    filter on every call; sstfilter's policies do that on the stack, reading
//    a few trailer bytes, with no allocation.
//  - Name() is persisted in each table as the metaindex key
//    "filter.<Name()>". A table is read with a filter only when the name of
//    the policy it is opened with matches that key: a database reopened with
//    another policy (or none) ignores the old filters and reads a data block
//    for every lookup until compactions rewrite the tables. Slower, never
//    wrong.
// LevelDB may call both from several threads at once; a FilterPolicy is
// immutable and a builder is made per call, so that is safe.
//
// To read or write the tables of an existing LevelDB store, wrap
// NewLevelDbBloomFilterPolicy (filter/leveldb/leveldb_bloom.h): its filters are
// byte for byte LevelDB's own, under the same name.

#ifndef SSTFILTER_ENGINES_LEVELDB_LEVELDB_ADAPTER_H_
#define SSTFILTER_ENGINES_LEVELDB_LEVELDB_ADAPTER_H_

#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "filter/filter_policy.h"
#include "leveldb/filter_policy.h"

namespace sstfilter {

// Returns policy as a leveldb::FilterPolicy with the same Name(). The result
// owns (a share of) policy. REQUIRES: policy != nullptr.
std::unique_ptr<leveldb::FilterPolicy> AsLevelDbFilterPolicy(
    std::shared_ptr<const FilterPolicy> policy);

// The policy a spec string names (filter/filter_spec.h, e.g. "leveldb:10"),
// as a leveldb::FilterPolicy. InvalidArgumentError, the parser's one line,
// for a malformed spec.
absl::StatusOr<std::unique_ptr<leveldb::FilterPolicy>> AsLevelDbFilterPolicy(
    absl::string_view spec);

}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_LEVELDB_LEVELDB_ADAPTER_H_
