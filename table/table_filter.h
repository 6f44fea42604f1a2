// Answers "may this key, prefix or key range be in this table?" from a
// LevelDB or RocksDB table file, reading only its tail. table/table_format.md
// draws the bytes read and the answer to every malformed input.
//
//   absl::StatusOr<std::unique_ptr<sstfilter::TableFilter>> table =
//       sstfilter::TableFilter::OpenFile("/db/000005.ldb", {});
//   if (!table.ok()) return table.status();  // not a table, unreadable, ...
//   if (!(*table)->KeyMayMatch("apple")) { /* skip this table */ }
//   if (!(*table)->RangeMayMatch("apple", "apricot")) { /* skip it */ }

#ifndef SSTFILTER_TABLE_TABLE_FILTER_H_
#define SSTFILTER_TABLE_TABLE_FILTER_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "filter/filter_arena.h"
#include "filter/prefix_extractor.h"
#include "table/format.h"
#include "table/index_keys.h"
#include "table/meta_blocks.h"
#include "table/partitioned_filter_block.h"
#include "table/random_access_file.h"
#include "table/range_filter_block.h"
#include "util/mutex.h"

namespace sstfilter {

class FilterBlockReader;
class FilterFormat;
class PartitionedFilterLayout;
class TableFilterLayout;

struct TableFilterOptions {
  // Bytes read from the end of the file in Open's first read. RocksDB
  // prefetches its tail the same way; 256 KiB covers the filter of a table of
  // about 200,000 keys at 10 bits/key.
  size_t tail_prefetch_bytes = 256 * 1024;
  // What the index holds: internal keys (user key + 8-byte sequence/type
  // tag) in a LevelDB database's tables; user keys in tables written directly
  // with leveldb::TableBuilder. A RocksDB table's properties say which its
  // partition index holds.
  IndexKeys index_keys = IndexKeys::kInternal;
  // Where the filter block is kept: nullptr, a 64-byte-aligned heap buffer of
  // the table's own; else a copy in this arena (filter/filter_arena.h), in
  // huge pages where the kernel grants them, which helps queries out of
  // cache. The arena must outlive the table, and keeps the space after the
  // table closes; tables may share one from any thread. (A range filter is
  // kept on the heap: a scan asks it once, not once per key.)
  FilterArena* filter_arena = nullptr;
  // The extractor whose prefixes PrefixMayMatch is given. Null: the one the
  // table records (when this library rebuilds it from its name).
  std::shared_ptr<const PrefixExtractor> prefix_extractor;
};

// What Open found, for tools and logs.
struct TableFilterInfo {
  uint64_t file_bytes = 0;
  Footer footer;
  std::optional<FilterLocation> filter;       // absent: the table has no filter
  std::optional<TableProperties> properties;  // RocksDB tables only
  size_t filter_block_bytes = 0;  // contents (the partition index when
                                  // partitioned), trailer excluded
  size_t num_filters = 0;         // 1 for a full filter; partitions
  std::vector<FilterPartition> partitions;  // partitioned filters only
  // What the filter holds: whole keys (true unless the table records
  // otherwise), and the name of the prefixes' extractor, if any.
  bool whole_keys = true;
  std::optional<std::string> prefix_extractor;
  // Why prefix questions all "may match", when they do and the filter holds
  // prefixes (an extractor this library cannot rebuild, or another name).
  std::string prefix_note;
  // The range filter, if any: where it is, its format and size, and what
  // it says about itself (table/range_filter_block.h).
  std::optional<RangeFilterInfo> range_filter;
};

struct IoStats {
  int reads = 0;
  uint64_t bytes = 0;
};

// Keys are user keys, as the host stores them; the comparator is assumed
// bytewise (the default of both stores).
//
// Cost: Open makes one read of the file's last tail_prefetch_bytes, plus one
// read of each block it needs outside that tail (at most 5 reads in all).
// Afterwards only a partition not read yet costs a read (one, of its size;
// then it is kept). Otherwise KeyMayMatch is one filter probe (per-2 KB
// layout: after a binary search of the index block) and RangeMayMatch one or
// two successor searches. io() reports the reads and bytes so far.
//
// Errors: a filter may say "maybe" wrongly, never "no" wrongly. A filter,
// partition index, partition, index block or range filter that fails its
// checksum or is malformed is never probed: the keys or ranges it covers may
// match, corruption() returns its DataLossError, and Open still succeeds. A
// table without a filter matches every key, one without a usable range
// filter every range; a filter of a name no registered format reads
// (filter/format_registry.h) is an error from Open. Prefix questions are
// answered only when the reader's extractor has the name the table records
// (table/filter_keys.h); otherwise they match. Every parser is total: any
// bytes give a value or an error, never a crash.
//
// Thread safety: after Open, every method may be called from any number of
// threads; partitions are loaded once.
class TableFilter {
 public:
  // Opens the table at path. Errors name the path and what is wrong: a
  // missing file (NotFound), a directory (FailedPrecondition), not a table or
  // a truncated or corrupt footer/metaindex (DataLoss), a table kind, format
  // version, checksum type, compression or filter this library does not read
  // (Unimplemented).
  static absl::StatusOr<std::unique_ptr<TableFilter>> OpenFile(
      const std::string& path, const TableFilterOptions& options);
  // The same for an open file.
  static absl::StatusOr<std::unique_ptr<TableFilter>> Open(
      std::unique_ptr<RandomAccessFile> file,
      const TableFilterOptions& options);

  ~TableFilter();

  // False only if user_key is certainly not in the table.
  bool KeyMayMatch(absl::string_view user_key) const;

  // False only if no key of the table has this prefix. prefix is what the
  // reader's extractor cuts from a key (Transform); any other string matches.
  bool PrefixMayMatch(absl::string_view prefix) const;

  // False only if no key k of the table has lo <= k <= hi (bytewise). A
  // range longer than the filter's max_range_length() codes, or any range
  // when there is no usable range filter, may match.
  bool RangeMayMatch(absl::string_view lo, absl::string_view hi) const;
  // False only if no key k has lo <= k < hi_exclusive: RocksDB's
  // [iterate_lower_bound, iterate_upper_bound).
  bool RangeMayMatchBefore(absl::string_view lo,
                           absl::string_view hi_exclusive) const;
  // The range filter as read, or nullptr when the table has none or its
  // block failed its checksum.
  const RangeFilterBlock* range_filter() const { return range_filter_.get(); }

  // Whether PrefixMayMatch can rule anything out.
  bool FiltersPrefixes() const { return prefix_extractor_ != nullptr; }

  // Partitioned filters: the partition a key (or prefix) is looked up in, or
  // nullopt when it is after the last separator (in no partition) or the
  // filter is not partitioned or is corrupt.
  std::optional<size_t> PartitionOf(absl::string_view key) const;
  // Reads every partition not read yet (tools that describe the whole
  // filter). Returns corruption().
  absl::Status LoadAllPartitions() const;
  // The verified contents of partition i, empty when it is not loaded yet or
  // is unreadable.
  absl::string_view partition_contents(size_t i) const;

  // OK, or the DataLossError of a filter, partition index, partition, index
  // block or range filter found corrupt (then the keys or ranges it covers
  // may all match).
  absl::Status corruption() const;

  const TableFilterInfo& info() const { return info_; }
  IoStats io() const { return {io_reads_.load(), io_bytes_.load()}; }
  // The format that reads the filter, or nullptr when there is none.
  const FilterFormat* format() const { return format_; }
  // The verified filter block contents (empty when there is no filter or it
  // is corrupt), 64-byte aligned.
  absl::string_view filter_block_contents() const {
    return filter_block_ == nullptr
               ? absl::string_view()
               : absl::string_view(filter_bytes_.get(),
                                   info_.filter_block_bytes);
  }
  // The filter block reader, or nullptr when there is no filter, it is
  // corrupt, or it is partitioned.
  const FilterBlockReader* filter_block() const { return filter_block_.get(); }

 private:
  class Loader;
  class Events;
  TableFilter();

  // The filter answer for `probe` (a key or a prefix) in the filter that
  // `locate`, a key, would be found through.
  bool FilterMayMatch(absl::string_view locate, absl::string_view probe) const;
  void CountRead(uint64_t bytes) const;
  void RecordCorruption(const absl::Status& status) const;

  TableFilterInfo info_;
  mutable std::atomic<int> io_reads_{0};
  mutable std::atomic<uint64_t> io_bytes_{0};
  mutable Mutex corruption_mu_;
  mutable absl::Status corruption_ ABSL_GUARDED_BY(corruption_mu_);
  const std::unique_ptr<Events> events_;
  IndexKeys index_keys_ = IndexKeys::kInternal;
  // The extractor of the table's prefixes, when this library has it: for
  // PrefixMayMatch only when the reader's extractor agrees.
  std::shared_ptr<const PrefixExtractor> table_extractor_;
  std::shared_ptr<const PrefixExtractor> prefix_extractor_;
  std::unique_ptr<RandomAccessFile> file_;  // partitioned filters only
  const FilterFormat* format_ = nullptr;
  // Filter block contents, 64-byte aligned so a one-filter block's cache-line
  // blocks start on cache lines.
  std::unique_ptr<char, void (*)(void*)> filter_bytes_{nullptr, nullptr};
  std::unique_ptr<FilterBlockReader> filter_block_;
  // How a key finds its filter (table_filter_layout.h); null when every key
  // may match (no filter, or one too damaged to route a key).
  std::unique_ptr<TableFilterLayout> layout_;
  const PartitionedFilterLayout* partitioned_ = nullptr;  // in layout_
  std::unique_ptr<RangeFilterBlock> range_filter_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_TABLE_FILTER_H_
