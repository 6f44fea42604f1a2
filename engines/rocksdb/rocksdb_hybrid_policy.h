// A rocksdb::FilterPolicy that gives each level of a RocksDB tree the filter
// family and rate that spend a bits/key budget best over the whole tree
// (engines/tree/tree_allocation.h), all stored under kCheckedHybridFormatName,
// whose reader tells the families apart. Levels, trivial moves and build
// memory: README.md ("rocksdb_hybrid_policy.h").
//
//   auto policy = sstfilter::NewRocksDbHybridFilterPolicy(
//       *sstfilter::LeveledTree(7, 10), /*budget_bits_per_key=*/10);
//   table_options.filter_policy = *policy;

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
// The policy is immutable and thread-safe; it owns everything it uses.
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
