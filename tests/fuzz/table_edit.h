// Small real tables, and edits of one of their blocks that keep the table's
// checksums and handles valid, for table_edit_fuzzer: a mutation of a block's
// contents reaches the parser behind the checksum instead of stopping at it.
// The script's format: ApplyEditScript. How an edited block is written back:
// README.md ("table_edit.h").

#ifndef SSTFILTER_TESTS_FUZZ_TABLE_EDIT_H_
#define SSTFILTER_TESTS_FUZZ_TABLE_EDIT_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "filter/prefix_extractor.h"
#include "table/format.h"
#include "table/meta_blocks.h"
#include "table/partitioned_filter_block.h"
#include "table/table_filter.h"

namespace sstfilter {
namespace fuzz {

enum class BlockKind {
  kFooter,
  kMetaIndex,
  kIndex,
  kProperties,
  kFilter,  // a full or per-2 KB filter block, or a partition index
  kPartition,
};

const char* BlockKindName(BlockKind kind);

struct EditableBlock {
  BlockKind kind;
  BlockHandle handle;    // the footer: its place in the file
  size_t partition = 0;  // kPartition: which
};

// A table as written, parsed once.
struct BaseTable {
  std::string name;
  std::string file;
  Footer footer;
  std::map<std::string, BlockHandle> meta_blocks;  // the metaindex's entries
  std::optional<FilterLocation> filter;
  std::vector<FilterPartition> partitions;
  bool delta_encoded_partition_index = false;
  std::vector<EditableBlock> blocks;
  TableFilterOptions options;  // how table_edit_fuzzer opens it
  // The extractor its filter's prefixes were cut with, or null.
  std::shared_ptr<const PrefixExtractor> prefix_extractor;
  std::vector<std::string> keys;    // every key in the table
  std::vector<std::string> absent;  // keys not in it
};

// Writes the tables once (real LevelDB and RocksDB writers, our policies and
// theirs, full, per-2 KB and partitioned filters, every checksum type, and
// an assembled RocksDB format_version 6 table) and parses them. Aborts when a
// table cannot be written or parsed.
const std::vector<BaseTable>& BaseTables();

enum ScriptFlags : uint8_t {
  kStaleChecksum = 1,  // keep the block's old checksum
  kSetType = 2,        // give the block the script's compression type byte
  kSmallTail = 4,      // open with a 64-byte tail prefetch
};

struct EditedTable {
  const BaseTable* base = nullptr;
  EditableBlock block;
  uint8_t flags = 0;
  std::string file;
};

// Applies the edit script to one of BaseTables(). The script (every byte
// string decodes; missing bytes read as zero):
//   [1 byte: table, mod the number of tables]
//   [1 byte: block, mod the table's number of blocks (EditableBlock)]
//   [1 byte: flags, see ScriptFlags]
//   [1 byte: compression type byte, used with kSetType]
//   ([1 byte: op, mod 3] [2 bytes: position, little-endian, mod size + 1]
//    [1 byte: length L] [L bytes, for overwrite and insert])*
// Ops: 0 overwrites L bytes at the position (growing the block when they
// pass its end), 1 inserts L bytes there, 2 cuts L bytes there.
//
// The block's checksum and the handles that point at it are rewritten
// (README.md, "table_edit.h").
EditedTable ApplyEditScript(const uint8_t* data, size_t size);

// A script (as ApplyEditScript reads) with no edits, or the given ones.
struct Edit {
  uint8_t op;
  uint16_t position;
  std::string bytes;  // overwrite and insert; cut: its size is L
};
std::string EncodeEditScript(size_t table, size_t block, uint8_t flags,
                             uint8_t type, const std::vector<Edit>& edits);

}  // namespace fuzz
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_FUZZ_TABLE_EDIT_H_
