// The tree policies of this folder by their spec (filter/filter_spec.h), as
// tools and options name them: "bloom:levels=tree" is
// NewRocksDbPerLevelFilterPolicy, "hybrid:levels=tree" is
// NewRocksDbHybridFilterPolicy, each spending its bits_per_key over a tree.
//
//   auto policy = sstfilter::NewRocksDbTreeFilterPolicy(
//       "hybrid:levels=tree:bits_per_key=10", *sstfilter::LeveledTree(7, 10));
//   table_options.filter_policy = *policy;

#ifndef SSTFILTER_ENGINES_ROCKSDB_ROCKSDB_TREE_POLICY_H_
#define SSTFILTER_ENGINES_ROCKSDB_ROCKSDB_TREE_POLICY_H_

#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engines/tree/per_level_allocation.h"
#include "rocksdb/filter_policy.h"

namespace sstfilter {

// The policy spec names for tree, the budget being the spec's bits_per_key.
// It takes the params the policy honours: levels=tree (required),
// bits_per_key, and for hybrid max_build_bytes (HybridBuildOptions).
// InvalidArgumentError, one line naming the part, for a malformed spec, a
// family without a tree form, a spec without levels=tree, a size given as fpp,
// any other param (path, family, checksum: the tree policies choose them), and
// what the factory rejects (an invalid tree or budget).
absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>>
NewRocksDbTreeFilterPolicy(absl::string_view spec,
                           absl::Span<const TreeLevel> tree);

}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_ROCKSDB_TREE_POLICY_H_
