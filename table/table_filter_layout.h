// The point filter of one table in the layout the table holds it in
// (table/table_format.md): one filter for the whole table (full), one per
// 2 KB of data blocks found through the table's index (LevelDB), or
// partitions found through a partition index (RocksDB,
// table/partitioned_table_filter.h). TableFilter holds one layout and asks
// it, whichever it is.
//
// Thread safety: after construction, MayMatch may be called from any number
// of threads.

#ifndef SSTFILTER_TABLE_TABLE_FILTER_LAYOUT_H_
#define SSTFILTER_TABLE_TABLE_FILTER_LAYOUT_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "table/filter_block.h"
#include "table/index_keys.h"

namespace sstfilter {

class TableFilterLayout {
 public:
  virtual ~TableFilterLayout() = default;

  // False only if probe (a key, or a prefix) was added to no filter of the
  // table. locate, a user key, finds the filter that would hold probe: the
  // key itself, or for a prefix the least key that has it.
  virtual bool MayMatch(absl::string_view locate,
                        absl::string_view probe) const = 0;
};

// What a layout reports to its table after Open: the reads it makes and the
// damage it finds. Implementations are thread-safe.
class TableFilterEvents {
 public:
  virtual ~TableFilterEvents() = default;
  virtual void CountRead(uint64_t bytes) const = 0;
  // Keeps the first DataLossError reported.
  virtual void RecordCorruption(const absl::Status& status) const = 0;
};

// A full filter: every key is probed in block's one filter.
// REQUIRES: block outlives the layout; !block->NeedsDataBlockOffset().
std::unique_ptr<TableFilterLayout> NewFullFilterLayout(
    const FilterBlockReader* block);

// Checks every entry of a table's index block once (each value a block
// handle; with kInternal, each key an internal key), so that lookups can
// trust it. DataLossError for a malformed entry; InvalidArgumentError when
// kInternal was asked and the keys are user keys.
absl::Status CheckIndexBlock(absl::string_view index_block,
                             IndexKeys index_keys);

// LevelDB's per-2 KB layout: a key's filter is the one of the data block
// the index says would hold it. index_block: the index block's verified,
// uncompressed contents, checked by CheckIndexBlock.
// REQUIRES: block outlives the layout; block->NeedsDataBlockOffset().
std::unique_ptr<TableFilterLayout> NewPerDataBlockFilterLayout(
    const FilterBlockReader* block, std::string index_block,
    IndexKeys index_keys);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_TABLE_FILTER_LAYOUT_H_
