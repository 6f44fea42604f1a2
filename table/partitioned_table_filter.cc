#include "table/partitioned_table_filter.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "table/block_trailer.h"
#include "table/filter_bytes.h"

namespace sstfilter {

absl::Status CheckPartitionIndex(const std::vector<FilterPartition>& partitions,
                                 uint64_t file_size, IndexKeys index_keys) {
  const bool internal_keys = index_keys == IndexKeys::kInternal;
  for (size_t i = 0; i < partitions.size(); ++i) {
    const FilterPartition& p = partitions[i];
    if (!BlockFits(p.handle, file_size)) {
      return absl::DataLossError(absl::StrFormat(
          "partition index: partition %d (offset %d, size %d) points outside "
          "the file (%d bytes)",
          i, p.handle.offset, p.handle.size, file_size));
    }
    if (internal_keys && p.index_key.size() < kInternalKeyTagBytes) {
      // RocksDB's tags use types LevelDB's do not (IsInternalKey): only the
      // length can be checked.
      return absl::DataLossError(absl::StrFormat(
          "partition index: separator %d is not an internal key", i));
    }
    if (i == 0) continue;
    absl::string_view previous = partitions[i - 1].index_key;
    if (internal_keys) {
      previous.remove_suffix(kInternalKeyTagBytes);
    }
    if (!SeparatorAtOrAfter(p.index_key, previous, index_keys)) {
      return absl::DataLossError(absl::StrFormat(
          "partition index: separator %d is before separator %d: partitions "
          "out of order",
          i, i - 1));
    }
  }
  return absl::OkStatus();
}

// A partition, read at its first use.
struct PartitionedFilterLayout::Partition {
  std::once_flag once;
  std::atomic<bool> loaded{false};
  FilterBytes bytes{nullptr, nullptr};
  size_t size = 0;
  std::unique_ptr<FilterReader> reader;  // null once loaded: unreadable
};

PartitionedFilterLayout::PartitionedFilterLayout(const Source& source)
    : source_(source) {
  for (size_t i = 0; i < source_.partitions->size(); ++i) {
    partitions_.push_back(std::make_unique<Partition>());
  }
}

PartitionedFilterLayout::~PartitionedFilterLayout() = default;

void PartitionedFilterLayout::KeepRead(size_t i, absl::string_view raw) const {
  std::call_once(partitions_[i]->once, [&] { Keep(i, raw); });
}

void PartitionedFilterLayout::Keep(size_t i, absl::string_view raw) const {
  Partition& partition = *partitions_[i];
  std::string scratch;
  absl::StatusOr<absl::string_view> contents = VerifiedBlockContents(
      absl::StrCat("filter partition ", i), raw, source_.checksum_type,
      &scratch,
      {source_.base_context_checksum, (*source_.partitions)[i].handle.offset});
  if (!contents.ok()) {
    source_.events->RecordCorruption(
        absl::DataLossError(contents.status().message()));
  } else if ((partition.bytes = AllocateFilterBytes(
                  contents->size(), source_.arena)) != nullptr) {
    std::memcpy(partition.bytes.get(), contents->data(), contents->size());
    partition.size = contents->size();
    partition.reader = source_.format->NewReader(
        absl::string_view(partition.bytes.get(), partition.size));
    if (absl::Status damage = partition.reader->Corruption(); !damage.ok()) {
      source_.events->RecordCorruption(absl::DataLossError(
          absl::StrCat("filter partition ", i, ": ", damage.message())));
    }
  }
  partition.loaded.store(true, std::memory_order_release);
}

const FilterReader* PartitionedFilterLayout::Load(size_t i) const {
  Partition& partition = *partitions_[i];
  std::call_once(partition.once, [&] {
    const BlockHandle& handle = (*source_.partitions)[i].handle;
    const uint64_t n = handle.size + kBlockTrailerBytes;  // fits: checked
    std::string raw(n, '\0');
    absl::StatusOr<absl::string_view> read =
        source_.file->Read(handle.offset, n, raw.data());
    if (!read.ok()) {
      source_.events->RecordCorruption(absl::DataLossError(
          absl::StrCat("filter partition ", i, ": ", read.status().message())));
      partition.loaded.store(true, std::memory_order_release);
      return;
    }
    source_.events->CountRead(n);
    Keep(i, *read);
  });
  return partition.reader.get();
}

bool PartitionedFilterLayout::MayMatch(absl::string_view locate,
                                       absl::string_view probe) const {
  const std::optional<size_t> partition = PartitionOf(locate);
  if (!partition.has_value()) return false;  // after the table's last key
  const FilterReader* reader = Load(*partition);
  return reader == nullptr || reader->MayMatch(probe);
}

std::optional<size_t> PartitionedFilterLayout::PartitionOf(
    absl::string_view key) const {
  const std::vector<FilterPartition>& partitions = *source_.partitions;
  // Separators are in order (CheckPartitionIndex): binary search for the
  // first at or after key.
  const auto it = std::partition_point(
      partitions.begin(), partitions.end(), [&](const FilterPartition& p) {
        return !SeparatorAtOrAfter(p.index_key, key, source_.index_keys);
      });
  if (it == partitions.end()) return std::nullopt;
  return static_cast<size_t>(it - partitions.begin());
}

void PartitionedFilterLayout::LoadAll() const {
  for (size_t i = 0; i < partitions_.size(); ++i) Load(i);
}

absl::string_view PartitionedFilterLayout::Contents(size_t i) const {
  if (i >= partitions_.size() ||
      !partitions_[i]->loaded.load(std::memory_order_acquire) ||
      partitions_[i]->reader == nullptr) {
    return absl::string_view();
  }
  return absl::string_view(partitions_[i]->bytes.get(), partitions_[i]->size);
}

}  // namespace sstfilter
