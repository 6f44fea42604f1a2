// A rocksdb::FilterPolicy that sizes each table's native filter by the level
// RocksDB writes it to, spending a memory budget over the whole tree as Monkey
// does (filter/per_level_allocation.h): the largest levels get the fewest
// bits/key, the small ones many, and a lookup for a key the tree does not
// hold reads far fewer data blocks than with the same bits everywhere (on a
// 7-level tree with fan-out 10 at 10 bits/key, 0.0140 expected reads against
// 0.0677).
//
// Example: a leveled RocksDB whose L1 holds 64 MB, fan-out 10, 7 levels:
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
// model should be the tree's shape when it is full: RocksDB fills a leveled
// tree from L0 down, and a level holds its target size
// (max_bytes_for_level_base times max_bytes_for_level_multiplier^(i-1) for Li)
// once a deeper level has data.
//
// Which filter a table gets, from RocksDB 7.8.3's FilterBuildingContext:
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
// Every filter is the native format (Name() and CompatibilityName()
// "sstfilter.LocalBloom1"), whatever its size, so one reader reads them all,
// and AsRocksDbFilterPolicy of any native policy reads tables this policy
// wrote (and the reverse). RocksDB 7.8 only, as rocksdb_adapter.h explains;
// what RocksDB does with the filters is documented there too.
//
// The policy is immutable and thread-safe; it owns everything it uses.

#ifndef SSTFILTER_FILTER_ADAPTERS_ROCKSDB_PER_LEVEL_POLICY_H_
#define SSTFILTER_FILTER_ADAPTERS_ROCKSDB_PER_LEVEL_POLICY_H_

#include <memory>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "filter/per_level_allocation.h"
#include "rocksdb/filter_policy.h"

namespace sstfilter {

// Allocates budget_bits_per_key over tree with AllocateFilterBits under the
// native filter's cost (NativeBloomCost), once, and returns the policy that
// builds each level's filter at its allocated bits/key. InvalidArgumentError
// naming the value for an invalid tree or budget (see AllocateFilterBits).
// Cost: the allocation, about 0.1 s for seven levels.
absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>>
NewRocksDbPerLevelFilterPolicy(absl::Span<const TreeLevel> tree,
                               double budget_bits_per_key);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ADAPTERS_ROCKSDB_PER_LEVEL_POLICY_H_
