// Lays out a RocksDB block-based table file (format_version 5 or 6) block by
// block, as an engine that writes its tables with sstfilter's table layer
// does: filter blocks from table/, then the properties, the metaindex and an
// (empty) index in the order the format_version puts them, and the footer.
// Tests use it for tables written by our own builders and for tables whose
// filter metadata is deliberately wrong.

#ifndef SSTFILTER_TABLE_TESTING_TABLE_ASSEMBLER_H_
#define SSTFILTER_TABLE_TESTING_TABLE_ASSEMBLER_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "filter/filter_policy.h"
#include "table/format.h"
#include "table/partitioned_filter_block.h"

namespace sstfilter {
namespace test {

// What the footer says, and so how every block is checksummed.
struct TableFileOptions {
  ChecksumType checksum = ChecksumType::kCrc32c;
  uint32_t format_version = 5;  // 5 or 6
  // Used at format_version 6 only (nonzero there, as RocksDB requires).
  uint32_t base_context_checksum = 0x5eed1e55;
};

class TableAssembler {
 public:
  explicit TableAssembler(ChecksumType checksum = ChecksumType::kCrc32c)
      : TableAssembler(TableFileOptions{checksum}) {}
  explicit TableAssembler(const TableFileOptions& options);

  // Appends contents as an uncompressed block with its trailer.
  BlockHandle AddBlock(absl::string_view contents);
  // Appends bytes that are not a block (as data blocks stand in the file).
  void AddFiller(size_t bytes) { file_.append(bytes, 'd'); }
  void AddMetaBlock(const std::string& name, const BlockHandle& handle);
  // Adds the range filter block of keys (sorted) that policy, a range
  // filter's, builds, under its metaindex name (table/range_filter_block.h).
  // Returns the block's handle.
  BlockHandle AddRangeFilterBlock(const FilterPolicy& policy,
                                  const std::vector<std::string>& keys);
  void AddProperty(const std::string& name, const std::string& value);
  void AddVarintProperty(const std::string& name, uint64_t value);

  // The file: what was added, then the properties block, and the metaindex
  // and an empty index block, then the footer. Format_version 5 writes the
  // metaindex first and both handles into the footer; 6 writes the index
  // first, names it "rocksdb.index" in the metaindex, and puts the metaindex
  // right before the footer, as RocksDB 9.7.4 does.
  std::string Finish();

 private:
  const ChecksumType checksum_;
  const uint32_t format_version_;
  const uint32_t base_context_checksum_;  // 0 below format_version 6
  std::string file_;
  std::map<std::string, std::string> meta_blocks_;  // name -> encoded handle
  std::map<std::string, std::string> properties_;
};

// A table of keys (sorted, distinct) in data blocks of keys_per_data_block
// keys, as an engine using our table layer writes it: a partitioned filter
// built by PartitionedFilterBlockBuilder with options, separators each data
// block's last key (user keys, or internal keys with sequence 0 and type
// "value"), and the properties TableFilter reads.
struct AssembledTable {
  std::string file;
  std::vector<size_t> partition_bytes;  // each partition's contents
};
AssembledTable AssemblePartitionedTable(const FilterPolicy& policy,
                                        const PartitionedFilterOptions& options,
                                        const std::vector<std::string>& keys,
                                        size_t keys_per_data_block,
                                        bool user_keys,
                                        const TableFileOptions& file = {});

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_TESTING_TABLE_ASSEMBLER_H_
