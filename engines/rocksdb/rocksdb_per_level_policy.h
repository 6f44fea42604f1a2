// A rocksdb::FilterPolicy that sizes each table's native filter by the level
// RocksDB writes it to, spending a memory budget over the whole tree as Monkey
// does (engines/tree/per_level_allocation.h): the largest levels get the fewest
// bits/key, the small ones many, and a lookup for a key the tree does not
// hold reads far fewer data blocks than with the same bits everywhere (on a
// 7-level tree with fan-out 10 at 10 bits/key, 0.0140 expected reads against
// 0.0677).
//
// Example: a leveled tree of 7 levels, each 10 times the one above:
//
//   absl::StatusOr<std::vector<sstfilter::TreeLevel>> tree =
//       sstfilter::LeveledTree(7, 10);  // or the tree's real level sizes
//   if (!tree.ok()) return tree.status();
//   absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> policy =
//       sstfilter::NewRocksDbPerLevelFilterPolicy(*tree, 10);
//   if (!policy.ok()) return policy.status();
//   rocksdb::BlockBasedTableOptions table_options;
//   table_options.filter_policy = *policy;
//
// tree[i] describes RocksDB level i, L0 first, with L0's files as its runs
// (TreeLevel::runs); the levels' keys need only be in the right ratios. The
// model should be the tree's shape once it holds its data: with
// level_compaction_dynamic_level_bytes, the last level holds most of it and
// each level above a fan-out's share of the next.
//
// A table is sized once, when RocksDB writes it. A table that a compaction
// moves down a level unchanged (a trivial move: nothing in the level below
// overlaps it) keeps the filter of the level it was written to. In a growing
// tree with static level sizes RocksDB 7.8 fills the last level largely that
// way (200,000 random keys into L0..L3: none of the 60 tables in L3 had been
// written there; they held 10.3 bits/key, L2's size, against L3's 8.7);
// level_compaction_dynamic_level_bytes compacts L0 into the deepest level in
// use, so the last level's tables are written there.
//
// Which filter a table gets, from RocksDB's FilterBuildingContext
// (7.8.3, 9.7.4):
//  - level_at_creation i under kCompactionStyleLevel: level i's allocation;
//    levels at or past tree.size() take the last level's. A flush writes
//    level 0. A level allocated no filter (a budget too small for every
//    level) gets none: GetBuilderWithContext returns null, which RocksDB
//    takes as "no filter" for that table.
//  - level_at_creation -1 (unknown: SstFileWriter, or any file RocksDB does
//    not place in a level) and the universal and FIFO compaction styles
//    (whose levels are not the runs of this model): the budget's uniform
//    filter, budget_bits_per_key everywhere, or none for a budget below 1
//    bit/key.
//  - num_levels and is_bottommost are not consulted: the tree says how many
//    levels the model has, and a file is sized for the level it is written
//    to. A file that RocksDB later moves down a level unchanged (a trivial
//    move) keeps the filter it was written with.
//
// Every filter is the native format at its default version (Name() and
// CompatibilityName() kCheckedLocalBloomName), whatever its size, so one
// reader reads them all, and AsRocksDbFilterPolicy of any native policy that
// writes version 2 (self_checksum unset or true) reads tables this policy
// wrote (and the reverse). RocksDB 7.8 and 9.7, as rocksdb_adapter.h explains;
// what RocksDB does with the filters is documented there too.
//
// The policy is immutable and thread-safe; it owns everything it uses.

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
absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>>
NewRocksDbPerLevelFilterPolicy(absl::Span<const TreeLevel> tree,
                               double budget_bits_per_key);

}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_ROCKSDB_PER_LEVEL_POLICY_H_
