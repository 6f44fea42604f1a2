#include "table/partitioned_filter_block.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "absl/strings/str_cat.h"
#include "table/block.h"
#include "table/block_builder.h"
#include "table/block_trailer.h"
#include "util/coding.h"

namespace sstfilter {
namespace {

absl::Status Malformed(size_t entry, absl::string_view what) {
  return absl::DataLossError(
      absl::StrCat("partition index: entry ", entry, ": ", what));
}

// RocksDB's varsigned64: the zigzag mapping of a signed value, as a varint64.
bool GetVarsigned64(absl::string_view* input, int64_t* value) {
  uint64_t zigzag = 0;
  if (!GetVarint64(input, &zigzag)) return false;
  *value =
      static_cast<int64_t>(zigzag >> 1) ^ -static_cast<int64_t>(zigzag & 1);
  return true;
}

// The handle of a partition stored right after `previous` whose size differs
// from its size by delta; false on overflow.
bool HandleAfter(const BlockHandle& previous, int64_t delta,
                 BlockHandle* handle) {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  if (previous.size > kMax - kBlockTrailerBytes - previous.offset) return false;
  if (delta < 0 ? static_cast<uint64_t>(-(delta + 1)) + 1 > previous.size
                : static_cast<uint64_t>(delta) > kMax - previous.size) {
    return false;
  }
  handle->offset = previous.offset + previous.size + kBlockTrailerBytes;
  handle->size = previous.size + static_cast<uint64_t>(delta);
  return true;
}

}  // namespace

absl::StatusOr<std::vector<FilterPartition>> ParsePartitionIndex(
    absl::string_view contents, IndexValues values) {
  absl::StatusOr<Block> block = Block::Parse(contents);
  if (!block.ok()) {
    return absl::DataLossError(
        absl::StrCat("partition index: ", block.status().message()));
  }
  const bool delta = values == IndexValues::kDeltaEncoded;
  std::vector<FilterPartition> partitions;
  absl::string_view input = block->entries();
  std::string key;
  while (!input.empty()) {
    const size_t entry = partitions.size();
    uint32_t shared = 0, non_shared = 0, value_bytes = 0;
    if (!GetVarint32(&input, &shared) || !GetVarint32(&input, &non_shared) ||
        (!delta && !GetVarint32(&input, &value_bytes))) {
      return Malformed(entry, "truncated header");
    }
    if (shared > key.size() || non_shared > input.size()) {
      return Malformed(entry, "key runs past the block");
    }
    key.resize(shared);
    key.append(input.data(), non_shared);
    input.remove_prefix(non_shared);
    FilterPartition partition;
    partition.index_key = key;
    if (!delta) {
      if (value_bytes > input.size()) {
        return Malformed(entry, "value runs past the block");
      }
      absl::string_view value = input.substr(0, value_bytes);
      input.remove_prefix(value_bytes);
      if (!DecodeBlockHandle(&value, &partition.handle).ok()) {
        return Malformed(entry, "malformed block handle");
      }
    } else if (shared == 0) {
      if (!DecodeBlockHandle(&input, &partition.handle).ok()) {
        return Malformed(entry, "malformed block handle");
      }
    } else {
      int64_t size_delta = 0;
      if (partitions.empty() || !GetVarsigned64(&input, &size_delta) ||
          !HandleAfter(partitions.back().handle, size_delta,
                       &partition.handle)) {
        return Malformed(entry, "malformed delta-encoded handle");
      }
    }
    partitions.push_back(std::move(partition));
  }
  return partitions;
}

absl::StatusOr<std::unique_ptr<PartitionedFilterBlockBuilder>>
PartitionedFilterBlockBuilder::New(const FilterPolicy& policy,
                                   const PartitionedFilterOptions& options) {
  if (absl::Status s = ValidateFilterBlockOptions(options.keys); !s.ok()) {
    return s;
  }
  if (options.partition_bytes == 0) {
    return absl::InvalidArgumentError(
        "PartitionedFilterOptions: partition_bytes must be positive, got 0");
  }
  return std::unique_ptr<PartitionedFilterBlockBuilder>(
      new PartitionedFilterBlockBuilder(policy, options));
}

PartitionedFilterBlockBuilder::PartitionedFilterBlockBuilder(
    const FilterPolicy& policy, const PartitionedFilterOptions& options)
    : keys_per_partition_(std::max<size_t>(
          1, static_cast<size_t>(8.0 * options.partition_bytes /
                                 std::max(policy.BitsPerKey(), 1e-9)))),
      adder_(options.keys),
      builder_(policy.NewBuilder()) {}

void PartitionedFilterBlockBuilder::AddKey(absl::string_view user_key) {
  adder_.Add(user_key, builder_.get());
  ++keys_since_data_block_;
}

void PartitionedFilterBlockBuilder::EndDataBlock(
    absl::string_view index_key,
    std::optional<absl::string_view> next_user_key) {
  keys_since_data_block_ = 0;
  if (builder_->NumAdded() == 0) return;
  if (next_user_key.has_value()) {
    if (builder_->NumAdded() < keys_per_partition_) return;
    adder_.AddPrefixOfNext(*next_user_key, builder_.get());
  }
  CutPartition(index_key);
}

void PartitionedFilterBlockBuilder::CutPartition(absl::string_view index_key) {
  Pending partition;
  partition.index_key = std::string(index_key);
  builder_->Finish(&partition.filter);
  partitions_.push_back(std::move(partition));
  adder_.Reset();
}

absl::StatusOr<std::string> PartitionedFilterBlockBuilder::Finish(
    const WritePartition& write_partition) {
  if (keys_since_data_block_ > 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "PartitionedFilterBlockBuilder::Finish: ", keys_since_data_block_,
        " keys added after the last EndDataBlock"));
  }
  BlockBuilder index;
  for (const Pending& partition : partitions_) {
    absl::StatusOr<BlockHandle> handle = write_partition(partition.filter);
    if (!handle.ok()) return handle.status();
    std::string encoded;
    EncodeBlockHandle(*handle, &encoded);
    index.Add(partition.index_key, encoded);
  }
  partitions_.clear();
  return index.Finish();
}

}  // namespace sstfilter
