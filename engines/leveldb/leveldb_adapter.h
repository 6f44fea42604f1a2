// Hands an sstfilter policy to LevelDB 1.23: the tables a database writes
// carry its filters, and lookups ask them before reading a data block. How
// LevelDB calls the policy, and what a renamed policy costs: README.md.
//
//   std::unique_ptr<leveldb::FilterPolicy> filter =
//       sstfilter::AsLevelDbFilterPolicy(std::move(*policy));
//   options.filter_policy = filter.get();  // outlives every DB opened with it

#ifndef SSTFILTER_ENGINES_LEVELDB_LEVELDB_ADAPTER_H_
#define SSTFILTER_ENGINES_LEVELDB_LEVELDB_ADAPTER_H_

#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "filter/filter_policy.h"
#include "leveldb/filter_policy.h"

namespace sstfilter {

// Returns policy as a leveldb::FilterPolicy with the same Name(). The result
// owns (a share of) policy and is safe to call from several threads at once.
// REQUIRES: policy != nullptr; the result outlives every DB opened with it
// (leveldb::Options::filter_policy is a raw pointer LevelDB uses until the
// DB is deleted). For an existing LevelDB store's tables, wrap
// NewLevelDbFilterPolicy (filter/leveldb/leveldb_bloom.h).
std::unique_ptr<leveldb::FilterPolicy> AsLevelDbFilterPolicy(
    std::shared_ptr<const FilterPolicy> policy);

// The policy a spec string names (filter/filter_spec.h, e.g. "leveldb:10"),
// as a leveldb::FilterPolicy. InvalidArgumentError, the parser's one line,
// for a malformed spec.
absl::StatusOr<std::unique_ptr<leveldb::FilterPolicy>> AsLevelDbFilterPolicy(
    absl::string_view spec);

}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_LEVELDB_LEVELDB_ADAPTER_H_
