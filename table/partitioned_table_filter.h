// A partitioned filter as a table layout (table/table_filter_layout.h): each
// partition is read when a key first needs it (or kept at Open when the tail
// read holds it), verified, and kept for the table's life. A partition whose
// checksum fails, or that cannot be read, answers "may match" for its keys
// and is reported to the table as corruption; the others still filter.
//
// Thread safety: MayMatch, PartitionOf, LoadAll and Contents may be called
// from any number of threads; each partition is read once.

#ifndef SSTFILTER_TABLE_PARTITIONED_TABLE_FILTER_H_
#define SSTFILTER_TABLE_PARTITIONED_TABLE_FILTER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "filter/filter_arena.h"
#include "filter/filter_format.h"
#include "table/format.h"
#include "table/index_keys.h"
#include "table/partitioned_filter_block.h"
#include "table/random_access_file.h"
#include "table/table_filter_layout.h"

namespace sstfilter {

// Whether a parsed partition index can be trusted to route keys: every
// partition inside a file of file_size bytes, internal separators long
// enough to hold their tag, separators in order. A DataLossError names the
// first problem: probing by such an index could pick the wrong partition and
// lose a key.
absl::Status CheckPartitionIndex(const std::vector<FilterPartition>& partitions,
                                 uint64_t file_size, IndexKeys index_keys);

class PartitionedFilterLayout : public TableFilterLayout {
 public:
  // Where the partitions are and how to read them. All pointers must outlive
  // the layout; partitions has passed CheckPartitionIndex.
  struct Source {
    const std::vector<FilterPartition>* partitions = nullptr;
    IndexKeys index_keys = IndexKeys::kInternal;
    const RandomAccessFile* file = nullptr;
    ChecksumType checksum_type = ChecksumType::kCrc32c;
    uint32_t base_context_checksum = 0;  // Footer::base_context_checksum
    const FilterFormat* format = nullptr;
    FilterArena* arena = nullptr;  // null: the heap
    const TableFilterEvents* events = nullptr;
  };
  explicit PartitionedFilterLayout(const Source& source);
  ~PartitionedFilterLayout() override;

  // Keeps partition i from raw, its block as the file holds it (contents and
  // trailer) already read: for partitions inside the tail Open read. Does
  // nothing if partition i was kept or read before.
  void KeepRead(size_t i, absl::string_view raw) const;

  bool MayMatch(absl::string_view locate,
                absl::string_view probe) const override;

  // The partition a key (or prefix) is looked up in, or nullopt when it is
  // after the last separator (in no partition).
  std::optional<size_t> PartitionOf(absl::string_view key) const;
  // Reads every partition not read yet.
  void LoadAll() const;
  // The verified contents of partition i, empty when it is not loaded yet or
  // is unreadable.
  absl::string_view Contents(size_t i) const;

 private:
  struct Partition;
  // Reads partition i if not read yet; its reader, or null when unreadable.
  const FilterReader* Load(size_t i) const;
  // Verifies partition i as read (contents and trailer) and keeps it.
  void Keep(size_t i, absl::string_view raw) const;

  const Source source_;
  std::vector<std::unique_ptr<Partition>> partitions_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_PARTITIONED_TABLE_FILTER_H_
