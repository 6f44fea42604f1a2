// Partitioned filters (RocksDB's partition_filters): a table's filter cut
// into partitions of about a target size, each a full filter of the keys of
// consecutive data blocks, plus a partition index (a key/value block,
// table/block.h), so that a lookup reads one small partition instead of the
// whole filter. A key belongs to the first partition whose separator is >=
// it; a key after the last separator is in no partition. With prefixes, a
// prefix is found in the partition of its first key or the one before.
// table/table_format.md draws the index entries and separators.

#ifndef SSTFILTER_TABLE_PARTITIONED_FILTER_BLOCK_H_
#define SSTFILTER_TABLE_PARTITIONED_FILTER_BLOCK_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "filter/filter_policy.h"
#include "table/filter_keys.h"
#include "table/format.h"

namespace sstfilter {

struct FilterPartition {
  std::string index_key;  // the separator, as the index stores it
  BlockHandle handle;
};

enum class IndexValues {
  kFull,          // each value is a whole block handle (varint length first)
  kDeltaEncoded,  // RocksDB format_version >= 4
};

// Parses a partition index block's uncompressed contents. DataLossError
// naming the entry for a malformed block, entry or handle. Order and
// placement are the reader's to check.
absl::StatusOr<std::vector<FilterPartition>> ParsePartitionIndex(
    absl::string_view contents, IndexValues values);

// RocksDB's default metadata_block_size.
constexpr size_t kDefaultPartitionBytes = 4096;

struct PartitionedFilterOptions {
  FilterBlockOptions keys;
  // A partition is cut at the first data-block boundary where its filter
  // would reach this many bytes (estimated from the policy's bits/key), so
  // partitions are about this size or a data block's keys larger.
  size_t partition_bytes = kDefaultPartitionBytes;
};

// Builds a partitioned filter block as a table builder writes its data
// blocks. The sequence of calls must match the regexp
//   (AddKey* EndDataBlock)* Finish
// AddKey is given each user key in order; EndDataBlock the separator the
// table's index stores for the data block just written (user or internal
// key, as the table's index keys are; in the order of the index) and the
// first user key of the next data block (nullopt after the last).
// REQUIRES: policy outlives the builder.
class PartitionedFilterBlockBuilder {
 public:
  // InvalidArgumentError naming the option for invalid options or a
  // partition_bytes of 0.
  static absl::StatusOr<std::unique_ptr<PartitionedFilterBlockBuilder>> New(
      const FilterPolicy& policy, const PartitionedFilterOptions& options);

  void AddKey(absl::string_view user_key);
  void EndDataBlock(absl::string_view index_key,
                    std::optional<absl::string_view> next_user_key);

  // Stores one partition as a block of the table (appending the table's
  // block trailer) and returns its handle.
  using WritePartition =
      std::function<absl::StatusOr<BlockHandle>(absl::string_view contents)>;
  // Writes every partition through write_partition, in order, and returns the
  // partition index block's contents: the meta block to store under
  // "partitionedfilter." + policy.Name(), with full handles (IndexValues::
  // kFull). A table without keys gets an index of no partitions, which
  // readers answer "may match". Errors: write_partition's, and
  // FailedPreconditionError for keys added after the last EndDataBlock.
  absl::StatusOr<std::string> Finish(const WritePartition& write_partition);

  // Partitions cut so far.
  size_t NumPartitions() const { return partitions_.size(); }

 private:
  PartitionedFilterBlockBuilder(const FilterPolicy& policy,
                                const PartitionedFilterOptions& options);
  void CutPartition(absl::string_view index_key);

  const size_t keys_per_partition_;
  FilterKeyAdder adder_;
  std::unique_ptr<FilterBuilder> builder_;
  size_t keys_since_data_block_ = 0;
  struct Pending {
    std::string index_key;
    std::string filter;
  };
  std::vector<Pending> partitions_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_PARTITIONED_FILTER_BLOCK_H_
