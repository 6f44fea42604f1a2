// A rocksdb::FilterPolicy that gives each level of a RocksDB tree the filter
// family and the rate that spend a memory budget best over the whole tree
// (engines/tree/tree_allocation.h): typically the native Bloom filter where
// tables are few and short-lived, the compact filter where most keys are, each
// level at its own rate. Every table's filter, native or compact, is stored
// under one name, the hybrid format's (kCheckedHybridFormatName of
// filter/hybrid/hybrid.h), whose reader tells the two apart by their bytes.
//
// Example: a leveled tree of 7 levels, each 10 times the one above:
//
//   absl::StatusOr<std::vector<sstfilter::TreeLevel>> tree =
//       sstfilter::LeveledTree(7, 10);  // or the tree's real level sizes
//   if (!tree.ok()) return tree.status();
//   absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> policy =
//       sstfilter::NewRocksDbHybridFilterPolicy(*tree, 10);
//   if (!policy.ok()) return policy.status();
//   rocksdb::BlockBasedTableOptions table_options;
//   table_options.filter_policy = *policy;
//
// tree[i] describes RocksDB level i, L0 first, with L0's files as its runs,
// as for NewRocksDbPerLevelFilterPolicy (rocksdb_per_level_policy.h): the
// tree's shape once it holds its data.
//
// Which filter a table gets, from RocksDB's FilterBuildingContext
// (7.8.3, 9.7.4):
//  - a flush (reason kFlush) writes L0, and gets L0's family and rate;
//  - level_at_creation i under kCompactionStyleLevel: level i's; levels at
//    or past tree.size() take the last level's;
//  - level_at_creation -1 (SstFileWriter, a file RocksDB places nowhere yet)
//    and the universal and FIFO styles, whose levels are not this model's
//    runs: the last level's family at the budget's uniform bits/key;
//  - a level allocated no filter gets none (GetBuilderWithContext returns
//    null, which RocksDB takes as "no filter" for that table).
//
// Tables moved down unchanged: a compaction that finds nothing to merge with
// moves a table to the next level as it is (a trivial move), with the filter
// it was written with: the family and rate of the level above, more bits
// per key than its new level's. The allocation counts every key of level i
// at level i's cost, so a tree that grows by trivial moves spends more than
// the budget on the moved tables (an upper level's rate is a tenth of the
// next's at fan-out 10) and reads fewer blocks than allocated for them.
// level_compaction_dynamic_level_bytes compacts L0 into the deepest level
// in use, so the last level, where most keys are, is written in place and
// the budget holds; with static level sizes give the tree as it settles.
//
// Build memory: options.max_build_bytes caps what one compact filter's build
// may hold (filter/hybrid/README.md gives the peak: about 16 bytes per key
// from 470,000 keys); a table whose build would exceed it gets the native
// filter at the same rate (counted in options.counters), as RocksDB's Ribbon
// policy falls back to Bloom. The rate is kept, so a fallback table takes the
// native filter's bits at that rate, about half as many again as the
// compact filter's: the allocation does not foresee fallbacks, and a cap
// that most of the last level exceeds spends more than the budget.
// bloom_before_level keeps levels above it on the native filter, for write
// paths that cannot afford the compact build where tables live shortly, as
// RocksDB's NewRibbonFilterPolicy(bits, bloom_before_level) does.
//
// RocksDB 7.8 and 9.7, as rocksdb_adapter.h explains. The policy is immutable
// and thread-safe; it owns everything it uses.

#ifndef SSTFILTER_ENGINES_ROCKSDB_ROCKSDB_HYBRID_POLICY_H_
#define SSTFILTER_ENGINES_ROCKSDB_ROCKSDB_HYBRID_POLICY_H_

#include <cstddef>
#include <memory>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "engines/tree/per_level_allocation.h"
#include "engines/tree/tree_allocation.h"
#include "filter/hybrid/hybrid.h"
#include "rocksdb/filter_policy.h"

namespace sstfilter {

// Which levels may hold the compact filter (TreeAllocationOptions:
// bloom_before_level), and the cap on a compact build's memory and the
// counters of builds by family (HybridBuildOptions: max_build_bytes,
// counters).
struct HybridTreeOptions : TreeAllocationOptions, HybridBuildOptions {};

// Allocates budget_bits_per_key over tree with AllocateTreeFilters, once,
// and returns the policy that builds each level's filter. InvalidArgument
// naming the value for an invalid tree, budget or option. Cost: the
// allocation, computed here once (docs/in_databases.md gives its time); make
// the policy once per tree, not per table.
absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>>
NewRocksDbHybridFilterPolicy(absl::Span<const TreeLevel> tree,
                             double budget_bits_per_key,
                             const HybridTreeOptions& options = {});

// The allocation the policy above makes for these inputs (for logs and
// reports).
absl::StatusOr<TreeAllocation> HybridTreeAllocation(
    absl::Span<const TreeLevel> tree, double budget_bits_per_key,
    const HybridTreeOptions& options = {});

}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_ROCKSDB_HYBRID_POLICY_H_
