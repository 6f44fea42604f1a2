// The metaindex block (names of a table's meta blocks, each with its handle)
// and RocksDB's properties block, as the table reader needs them. A filter's
// metaindex key is its layout's prefix ("filter.", "fullfilter.",
// "partitionedfilter.") + the policy's name; from format_version 6 the index
// block is the entry "rocksdb.index". table/table_format.md lists every key
// and property read, with the host source of each.

#ifndef SSTFILTER_TABLE_META_BLOCKS_H_
#define SSTFILTER_TABLE_META_BLOCKS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "table/format.h"

namespace sstfilter {

constexpr char kLevelDbFilterPrefix[] = "filter.";
constexpr char kFullFilterPrefix[] = "fullfilter.";
constexpr char kPartitionedFilterPrefix[] = "partitionedfilter.";
constexpr char kPropertiesBlockName[] = "rocksdb.properties";
constexpr char kIndexBlockName[] = "rocksdb.index";

// The properties that say what a filter holds (table/filter_keys.h).
constexpr char kPrefixExtractorNameProperty[] = "rocksdb.prefix.extractor.name";
constexpr char kWholeKeyFilteringProperty[] =
    "rocksdb.block.based.table.whole.key.filtering";

enum class FilterLayout {
  kPerDataRange,  // "filter.": one filter per 2^base_lg bytes of data blocks
  kFull,          // "fullfilter.": one filter for the whole table
  kPartitioned,   // "partitionedfilter.": partitions and their index
};
const char* FilterLayoutName(FilterLayout layout);

struct FilterLocation {
  FilterLayout layout = FilterLayout::kFull;
  std::string policy_name;  // the metaindex key without its prefix
  BlockHandle handle;
};

struct MetaIndex {
  std::map<std::string, BlockHandle> blocks;  // every entry, by name
  // The filter entry, if any (the first in key order when a table has
  // several, which neither LevelDB nor RocksDB writes).
  std::optional<FilterLocation> filter;
  std::optional<BlockHandle> properties;
  std::optional<BlockHandle> index;  // "rocksdb.index" (format_version >= 6)
};

// Parses uncompressed metaindex contents. DataLossError for a malformed
// block or handle.
absl::StatusOr<MetaIndex> ParseMetaIndex(absl::string_view contents);

// The table's index block: the footer's handle up to format_version 5, the
// metaindex's "rocksdb.index" entry from 6 (DataLossError when it has none).
absl::StatusOr<BlockHandle> IndexHandle(const Footer& footer,
                                        const MetaIndex& meta);

// The RocksDB table properties a filter reader uses (all optional: absent in
// LevelDB tables and in older RocksDB ones).
struct TableProperties {
  std::optional<uint64_t> num_entries;         // "rocksdb.num.entries"
  std::optional<uint64_t> num_filter_entries;  // "rocksdb.num.filter_entries"
  std::optional<std::string> filter_policy;    // "rocksdb.filter.policy"
  std::optional<std::string> comparator;       // "rocksdb.comparator"
  std::optional<std::string>
      prefix_extractor;  // "rocksdb.prefix.extractor.name"
  // "rocksdb.block.based.table.whole.key.filtering": false when the filter
  // holds key prefixes only, so whole keys must not be looked up in it.
  std::optional<bool> whole_key_filtering;
  // How the index blocks (and a partitioned filter's partition index) are
  // encoded: "rocksdb.index.key.is.user.key" (keys without the 8-byte
  // sequence/type tag) and "rocksdb.index.value.is.delta.encoded" (RocksDB
  // format_version >= 4). Varints, nonzero for true.
  std::optional<uint64_t> index_key_is_user_key;
  std::optional<uint64_t> index_value_is_delta_encoded;
};

// Parses uncompressed properties contents. DataLossError for a malformed
// block or numeric value.
absl::StatusOr<TableProperties> ParseProperties(absl::string_view contents);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_META_BLOCKS_H_
