// A rocksdb::FilterPolicy that sizes each table's native filter by the level
// RocksDB writes it to, spending a bits/key budget over the whole tree as
// Monkey does (engines/tree/per_level_allocation.h), so that a lookup of an
// absent key reads fewer data blocks than with the same bits everywhere.
// tree[i] is RocksDB level i, L0 first; how tables get a level, and trivial
// moves: README.md ("rocksdb_per_level_policy.h").
//
//   auto policy = sstfilter::NewRocksDbPerLevelFilterPolicy(
//       *sstfilter::LeveledTree(7, 10), /*budget_bits_per_key=*/10);
//   table_options.filter_policy = *policy;

#ifndef SSTFILTER_ENGINES_ROCKSDB_ROCKSDB_PER_LEVEL_POLICY_H_
#define SSTFILTER_ENGINES_ROCKSDB_ROCKSDB_PER_LEVEL_POLICY_H_

#include <memory>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "engines/tree/per_level_allocation.h"
#include "rocksdb/filter_policy.h"

namespace sstfilter {

// Allocates budget_bits_per_key over tree with AllocateFilterBits under the
// native filter's cost (NativeBloomCost), once, and returns the policy that
// builds each level's filter at its allocated bits/key. InvalidArgumentError
// naming the value for an invalid tree or budget (see AllocateFilterBits).
// Cost: the allocation, computed here once (docs/in_databases.md gives its
// time); make the policy once per tree, not per table.
// The policy is immutable and thread-safe; it owns everything it uses.
absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>>
NewRocksDbPerLevelFilterPolicy(absl::Span<const TreeLevel> tree,
                               double budget_bits_per_key);

}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_ROCKSDB_PER_LEVEL_POLICY_H_
