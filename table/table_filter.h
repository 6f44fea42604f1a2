// Answers "may this key be in this table?" from a LevelDB 1.23 or RocksDB
// 7.8.3 table file, having read only its tail: the footer, the metaindex, the
// filter block (and, for LevelDB's per-2 KB layout, the index block, which
// says which data block, and so which filter, a key belongs to).
//
// Example:
//
//   absl::StatusOr<std::unique_ptr<sstfilter::TableFilter>> table =
//       sstfilter::TableFilter::OpenFile("/db/000005.ldb", {});
//   if (!table.ok()) return table.status();  // not a table, unreadable, ...
//   if (!(*table)->KeyMayMatch("apple")) { /* skip this table */ }
//
// Cost: Open makes one read of the file's last tail_prefetch_bytes (the
// footer, metaindex, properties and index blocks, and the filter block when
// it fits), plus one read for each of the filter and index blocks that do
// not lie inside that tail: 1 read for most tables, at most 4 (tail,
// properties, filter, index). KeyMayMatch reads nothing: it costs a binary
// search of the index block (per-2 KB layout only) and one filter probe.
// io() reports the reads and bytes Open made.
//
// Safety: a filter may say "maybe" wrongly, never "no" wrongly. So:
//  - a filter block whose checksum fails is never probed: every key may
//    match, and corruption() returns the DataLossError (Open succeeds);
//  - the same for a corrupt index block in the per-2 KB layout;
//  - a table without a filter, or whose filter holds only key prefixes
//    (RocksDB whole_key_filtering = false), matches every key;
//  - a filter of a name no registered format reads (format_registry.h) is
//    an error from Open.
// Every parser is total: any bytes give a value or an error, never a crash.
//
// Keys are user keys, as the host stores them. In a LevelDB database's
// tables the index holds internal keys (user key + 8-byte sequence/type
// tag); tables written directly with leveldb::TableBuilder hold user keys
// there (IndexKeys::kUser). The comparator is assumed bytewise (the default
// of both stores).
//
// Thread safety: after Open, a TableFilter is immutable and KeyMayMatch may
// be called from any number of threads.

#ifndef SSTFILTER_TABLE_TABLE_FILTER_H_
#define SSTFILTER_TABLE_TABLE_FILTER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "filter/filter_arena.h"
#include "table/format.h"
#include "table/meta_blocks.h"
#include "table/random_access_file.h"

namespace sstfilter {

class FilterBlockReader;
class FilterFormat;

// How LevelDB index keys relate to user keys (per-2 KB layout only).
enum class IndexKeys {
  kInternal,  // user key + 8-byte tag: the tables of a LevelDB database
  kUser,      // user keys: tables written directly by leveldb::TableBuilder
};

struct TableFilterOptions {
  // Bytes read from the end of the file in Open's first read. RocksDB
  // prefetches its tail the same way; 256 KiB covers the filter of a table of
  // about 200,000 keys at 10 bits/key.
  size_t tail_prefetch_bytes = 256 * 1024;
  IndexKeys index_keys = IndexKeys::kInternal;
  // Where the filter block is kept: nullptr, a 64-byte-aligned heap buffer of
  // the table's own; else a copy in this arena (filter/filter_arena.h), in
  // huge pages where the kernel grants them, which helps queries out of
  // cache. The arena must outlive the table, and keeps the space after the
  // table closes; tables may share one from any thread.
  FilterArena* filter_arena = nullptr;
};

// What Open found, for tools and logs.
struct TableFilterInfo {
  uint64_t file_bytes = 0;
  Footer footer;
  std::optional<FilterLocation> filter;       // absent: the table has no filter
  std::optional<TableProperties> properties;  // RocksDB tables only
  size_t filter_block_bytes = 0;              // contents, trailer excluded
  size_t num_filters = 0;                     // 1 for a full filter
};

struct IoStats {
  int reads = 0;
  uint64_t bytes = 0;
};

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

  // OK, or the DataLossError of a filter or index block whose checksum
  // failed (then KeyMayMatch answers true for every key).
  const absl::Status& corruption() const { return corruption_; }

  const TableFilterInfo& info() const { return info_; }
  const IoStats& io() const { return io_; }
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
  // The filter block reader, or nullptr when there is no filter or it is
  // corrupt.
  const FilterBlockReader* filter_block() const { return filter_block_.get(); }

 private:
  class Loader;
  TableFilter() = default;

  // Per-2 KB layout: finds the data block that would hold user_key.
  enum class IndexLookup {
    kFound,        // *offset is that block's offset
    kPastLastKey,  // after the table's last key: certainly absent
    kUnknown,      // an index entry did not parse (Open checked them all)
  };
  IndexLookup FindDataBlock(absl::string_view user_key, uint64_t* offset) const;

  TableFilterInfo info_;
  IoStats io_;
  absl::Status corruption_;
  IndexKeys index_keys_ = IndexKeys::kInternal;
  const FilterFormat* format_ = nullptr;
  // Filter block contents, 64-byte aligned so a one-filter block's cache-line
  // blocks start on cache lines.
  std::unique_ptr<char, void (*)(void*)> filter_bytes_{nullptr, nullptr};
  std::unique_ptr<FilterBlockReader> filter_block_;
  std::string index_block_;  // uncompressed; per-2 KB layout only
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_TABLE_FILTER_H_
