// The per-level policy: one adapted native policy per level of the tree, and
// one for files whose level is unknown (see rocksdb_per_level_policy.h).

#include "engines/rocksdb/rocksdb_per_level_policy.h"

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engines/rocksdb/level_policy.h"
#include "engines/rocksdb/rocksdb_adapter.h"
#include "filter/bloom/bloom.h"
#include "filter/filter_policy.h"

namespace sstfilter {
namespace {

// Native filters of every size read each other; any one policy reads them.
constexpr double kReaderBitsPerKey = 10;

using RocksDbPolicyPtr = std::shared_ptr<const rocksdb::FilterPolicy>;

// The native policy at bits_per_key, adapted; null (no filter) for 0.
absl::StatusOr<RocksDbPolicyPtr> NativeAt(double bits_per_key) {
  if (bits_per_key == 0) return RocksDbPolicyPtr();
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      NewBloomFilterPolicy(FilterOptions::BitsPerKey(bits_per_key));
  if (!policy.ok()) return policy.status();
  return AsRocksDbFilterPolicy(std::move(*policy));
}

}  // namespace

absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>>
NewRocksDbPerLevelFilterPolicy(absl::Span<const TreeLevel> tree,
                               double budget_bits_per_key) {
  absl::StatusOr<FilterAllocation> allocation =
      AllocateFilterBits(tree, budget_bits_per_key, NativeBloomCost());
  if (!allocation.ok()) return allocation.status();

  std::vector<RocksDbPolicyPtr> levels;
  for (const LevelFilter& level : allocation->levels) {
    absl::StatusOr<RocksDbPolicyPtr> policy = NativeAt(level.bits_per_key);
    if (!policy.ok()) return policy.status();
    levels.push_back(*std::move(policy));
  }
  // The uniform filter for a file of unknown level; a budget below the
  // smallest filter buys none.
  absl::StatusOr<RocksDbPolicyPtr> unknown_level =
      NativeAt(budget_bits_per_key < kMinBitsPerKey ? 0 : budget_bits_per_key);
  if (!unknown_level.ok()) return unknown_level.status();
  absl::StatusOr<RocksDbPolicyPtr> reader = NativeAt(kReaderBitsPerKey);
  if (!reader.ok()) return reader.status();
  return NewLevelPolicy(std::move(levels), *std::move(unknown_level),
                        *std::move(reader));
}

}  // namespace sstfilter
