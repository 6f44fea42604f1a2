#include "tests/fuzz/table_edit.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engines/leveldb/leveldb_adapter.h"
#include "engines/rocksdb/rocksdb_adapter.h"
#include "filter/bloom/bloom.h"
#include "filter/burr/burr.h"
#include "leveldb/filter_policy.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/slice_transform.h"
#include "table/block_builder.h"
#include "table/block_trailer.h"
#include "table/testing/real_tables.h"
#include "table/testing/table_assembler.h"
#include "tests/fuzz/fuzz_checks.h"
#include "util/coding.h"
#include "util/grouped_keys.h"

namespace sstfilter {
namespace fuzz {
namespace {

// Few keys and tiny blocks: every input opens a table and asks about each
// key, so a table must stay cheap to open, yet hold several data blocks,
// per-2 KB filters and partitions.
constexpr size_t kGroups = 3;
constexpr size_t kKeysPerGroup = 12;
constexpr size_t kAbsentKeysPerKind = 4;
constexpr size_t kMaxEdits = 8;

template <typename T>
T OrDie(absl::StatusOr<T> value, const std::string& what) {
  AbortIfError(value.status(), what.c_str());
  return *std::move(value);
}

size_t FooterBytes(const Footer& footer) {
  return footer.format == TableFormat::kLevelDb ? kLevelDbFooterBytes
                                                : kRocksDbFooterBytes;
}

absl::string_view Contents(absl::string_view file, const BlockHandle& h) {
  return file.substr(h.offset, h.size);
}

// A block's contents, uncompressed.
std::string ReadBlock(absl::string_view file, const BlockHandle& h,
                      const std::string& what) {
  std::string scratch;
  const absl::string_view contents =
      OrDie(UncompressBlock(what, static_cast<uint8_t>(file[h.offset + h.size]),
                            Contents(file, h), &scratch),
            what);
  return std::string(contents);
}

// Parses table.file into the rest of table.
void Parse(BaseTable* table) {
  const std::string& file = table->file;
  table->footer = OrDie(DecodeFooter(file, file.size()), table->name);
  const MetaIndex meta = OrDie(
      ParseMetaIndex(ReadBlock(file, table->footer.metaindex, "metaindex")),
      table->name + " metaindex");
  table->meta_blocks = meta.blocks;
  table->filter = meta.filter;
  table->blocks.push_back(
      {BlockKind::kFooter,
       {file.size() - FooterBytes(table->footer), FooterBytes(table->footer)}});
  table->blocks.push_back({BlockKind::kMetaIndex, table->footer.metaindex});
  table->blocks.push_back(
      {BlockKind::kIndex,
       OrDie(IndexHandle(table->footer, meta), table->name + " index")});
  if (meta.properties.has_value()) {
    table->blocks.push_back({BlockKind::kProperties, *meta.properties});
    const TableProperties props =
        OrDie(ParseProperties(ReadBlock(file, *meta.properties, "properties")),
              table->name + " properties");
    table->delta_encoded_partition_index =
        props.index_value_is_delta_encoded.value_or(0) != 0;
  }
  if (!table->filter.has_value()) return;
  table->blocks.push_back({BlockKind::kFilter, table->filter->handle});
  if (table->filter->layout != FilterLayout::kPartitioned) return;
  table->partitions =
      OrDie(ParsePartitionIndex(ReadBlock(file, table->filter->handle, "index"),
                                table->delta_encoded_partition_index
                                    ? IndexValues::kDeltaEncoded
                                    : IndexValues::kFull),
            table->name + " partition index");
  for (size_t i = 0; i < table->partitions.size(); ++i) {
    table->blocks.push_back(
        {BlockKind::kPartition, table->partitions[i].handle, i});
  }
}

std::shared_ptr<const FilterPolicy> Native() {
  return OrDie(NewBloomFilterPolicy(FilterOptions::BitsPerKey(10)), "native");
}

std::vector<BaseTable> MakeBaseTables() {
  const GroupedKeys keys =
      MakeReadableGroupedKeys(kGroups, kKeysPerGroup, kAbsentKeysPerKind, 1);
  std::vector<std::string> absent = keys.absent_in_present_groups;
  absent.insert(absent.end(), keys.absent_in_absent_groups.begin(),
                keys.absent_in_absent_groups.end());
  absent.push_back("");
  absent.push_back("zzzzzzzzzzzz");  // after every key
  const test::TempDir dir;
  std::vector<BaseTable> tables;
  auto add = [&](const std::string& name, absl::Status written,
                 IndexKeys index_keys, bool prefixes) {
    AbortIfError(written, name.c_str());
    BaseTable table;
    table.name = name;
    table.file = OrDie(test::ReadFileBytes(dir.File(name)), name);
    table.options.index_keys = index_keys;
    if (prefixes) {
      table.prefix_extractor = NewFixedPrefixExtractor(kGroupPrefixBytes);
      table.options.prefix_extractor = table.prefix_extractor;
    }
    table.keys = keys.keys;
    table.absent = absent;
    Parse(&table);
    tables.push_back(std::move(table));
  };

  // LevelDB: per-2 KB filters, Snappy metaindex and index, user keys in the
  // index (leveldb::TableBuilder).
  {
    const std::unique_ptr<const leveldb::FilterPolicy> builtin(
        leveldb::NewBloomFilterPolicy(10));
    test::LevelDbTableOptions options;
    options.filter_policy = builtin.get();
    options.block_size = 256;
    add("leveldb_builtin",
        test::WriteLevelDbTable(dir.File("leveldb_builtin"), keys.keys,
                                options),
        IndexKeys::kUser, false);
    const std::unique_ptr<leveldb::FilterPolicy> native =
        AsLevelDbFilterPolicy(Native());
    options.filter_policy = native.get();
    options.block_size = 128;
    options.compression = false;
    add("leveldb_native",
        test::WriteLevelDbTable(dir.File("leveldb_native"), keys.keys, options),
        IndexKeys::kUser, false);
  }
  // RocksDB: full and partitioned filters, RocksDB's and ours, each checksum
  // type, whole and delta-encoded partition indexes.
  struct RocksDbTable {
    const char* name;
    std::shared_ptr<const rocksdb::FilterPolicy> policy;
    int format_version;
    ChecksumType checksum;
    bool partitioned;
    bool prefixes;
  };
  const RocksDbTable rocksdb_tables[] = {
      {"rocksdb_fastlocalbloom",
       std::shared_ptr<const rocksdb::FilterPolicy>(
           rocksdb::NewBloomFilterPolicy(10)),
       5, ChecksumType::kXxh3, false, false},
      {"rocksdb_burr_full",
       AsRocksDbFilterPolicy(
           OrDie(NewBurrFilterPolicy(FilterOptions::Fpp(0.01)), "burr")),
       4, ChecksumType::kCrc32c, false, false},
      {"rocksdb_ribbon_partitioned",
       std::shared_ptr<const rocksdb::FilterPolicy>(
           rocksdb::NewRibbonFilterPolicy(10, -1)),
       5, ChecksumType::kXxHash, true, false},
      {"rocksdb_native_partitioned_prefix", AsRocksDbFilterPolicy(Native()), 3,
       ChecksumType::kXxHash64, true, true},
  };
  for (const RocksDbTable& t : rocksdb_tables) {
    test::RocksDbTableOptions options;
    options.filter_policy = t.policy;
    options.format_version = t.format_version;
    options.checksum = static_cast<int>(t.checksum);
    options.block_size = 128;
    options.partition_filters = t.partitioned;
    options.metadata_block_size = 64;
    options.index_block_restart_interval = t.partitioned ? 2 : 1;
    if (t.prefixes) {
      options.prefix_extractor.reset(
          rocksdb::NewFixedPrefixTransform(kGroupPrefixBytes));
    }
    add(t.name, test::WriteRocksDbTable(dir.File(t.name), keys.keys, options),
        IndexKeys::kInternal, t.prefixes);
  }
  // Our own partitioned builder, whole keys and prefixes.
  {
    PartitionedFilterOptions options;
    options.keys.keys = FilterKeys::kWholeKeysAndPrefixes;
    options.keys.prefix_extractor = NewFixedPrefixExtractor(kGroupPrefixBytes);
    options.partition_bytes = 32;
    const test::AssembledTable table = test::AssemblePartitionedTable(
        *Native(), options, keys.keys, /*keys_per_data_block=*/6,
        /*user_keys=*/true);
    add("own_partitioned_prefix",
        test::WriteFileBytes(dir.File("own_partitioned_prefix"), table.file),
        IndexKeys::kUser, true);
  }
  // RocksDB format_version 6 (RocksDB 9.7.4's default), assembled: every
  // block's checksum depends on its offset, the footer has its own checksum
  // and the metaindex names the index.
  {
    test::TableFileOptions file;
    file.checksum = ChecksumType::kXxh3;
    file.format_version = 6;
    PartitionedFilterOptions options;
    options.partition_bytes = 32;
    const test::AssembledTable table = test::AssemblePartitionedTable(
        *Native(), options, keys.keys, /*keys_per_data_block=*/6,
        /*user_keys=*/true, file);
    add("own_fv6_partitioned",
        test::WriteFileBytes(dir.File("own_fv6_partitioned"), table.file),
        IndexKeys::kUser, false);
  }
  return tables;
}

// Where a block of size bytes of contents goes: where old was, if it fits
// there and may stay, else after the last block.
BlockHandle Placement(const BlockHandle& old, size_t size, bool may_stay,
                      const std::string& body) {
  if (may_stay && size <= old.size) return {old.offset, size};
  return {body.size(), size};
}

// Writes block (contents and trailer) at handle: over the bytes there, or
// after the last block.
void Write(const BlockHandle& handle, const std::string& block,
           std::string* body) {
  if (handle.offset == body->size()) {
    body->append(block);
  } else {
    body->replace(handle.offset, block.size(), block);
  }
}

// Appends a new uncompressed block after the last one, checksummed as the
// footer says (at format_version 6, for its offset).
BlockHandle AppendBlock(std::string contents, const Footer& footer,
                        std::string* body) {
  const BlockHandle handle{body->size(), contents.size()};
  AppendBlockTrailer(CompressionType::kNone,
                     static_cast<ChecksumType>(footer.checksum_type), &contents,
                     ContextOf(footer, handle));
  body->append(contents);
  return handle;
}

bool SameHandle(const BlockHandle& a, const BlockHandle& b) {
  return a.offset == b.offset && a.size == b.size;
}

// Rebuilds the metaindex with the entry at old pointing at moved instead.
void MoveMetaBlock(const BaseTable& table, const BlockHandle& old,
                   const BlockHandle& moved, Footer* footer,
                   std::string* body) {
  BlockBuilder builder;
  for (const auto& [name, handle] : table.meta_blocks) {
    std::string value;
    EncodeBlockHandle(SameHandle(handle, old) ? moved : handle, &value);
    builder.Add(name, value);
  }
  footer->metaindex = AppendBlock(builder.Finish(), table.footer, body);
}

}  // namespace

const char* BlockKindName(BlockKind kind) {
  switch (kind) {
    case BlockKind::kFooter:
      return "footer";
    case BlockKind::kMetaIndex:
      return "metaindex";
    case BlockKind::kIndex:
      return "index";
    case BlockKind::kProperties:
      return "properties";
    case BlockKind::kFilter:
      return "filter";
    case BlockKind::kPartition:
      return "partition";
  }
  return "?";
}

const std::vector<BaseTable>& BaseTables() {
  static const std::vector<BaseTable>* const tables =
      new std::vector<BaseTable>(MakeBaseTables());
  return *tables;
}

EditedTable ApplyEditScript(const uint8_t* data, size_t size) {
  ByteReader in(data, size);
  const std::vector<BaseTable>& tables = BaseTables();
  const BaseTable& base = tables[in.Byte() % tables.size()];
  EditedTable edited;
  edited.base = &base;
  edited.block = base.blocks[in.Byte() % base.blocks.size()];
  edited.flags = in.Byte();
  const uint8_t type = in.Byte();
  const BlockHandle& old = edited.block.handle;

  std::string contents(Contents(base.file, old));
  for (size_t i = 0; i < kMaxEdits && !in.AtEnd(); ++i) {
    const int op = in.Byte() % 3;
    const size_t position = in.Fixed(2) % (contents.size() + 1);
    const size_t length = in.Byte();
    if (op == 2) {
      contents.erase(position, length);
      continue;
    }
    const absl::string_view bytes = in.Bytes(length);
    if (op == 0) {
      contents.replace(position, bytes.size(), bytes.data(), bytes.size());
    } else {
      contents.insert(position, bytes.data(), bytes.size());
    }
  }

  const size_t footer_bytes = FooterBytes(base.footer);
  std::string body = base.file.substr(0, base.file.size() - footer_bytes);
  if (edited.block.kind == BlockKind::kFooter) {
    edited.file = body + contents;
    return edited;
  }
  const bool partition = edited.block.kind == BlockKind::kPartition;
  if (partition && base.delta_encoded_partition_index) {
    contents.resize(old.size, '\0');  // its handle cannot move
  }
  const ChecksumType checksum =
      static_cast<ChecksumType>(base.footer.checksum_type);
  // At format_version 6 the footer locates the metaindex by its size alone:
  // it must end where the footer starts.
  const bool index_in_footer = FooterHoldsIndexHandle(base.footer);
  // An unchanged size keeps it there, so that an edit that changes nothing
  // leaves the file as it was.
  const BlockHandle moved =
      Placement(old, contents.size(),
                index_in_footer || edited.block.kind != BlockKind::kMetaIndex ||
                    contents.size() == old.size,
                body);
  std::string block = contents;
  const uint8_t old_type =
      static_cast<uint8_t>(base.file[old.offset + old.size]);
  AppendBlockTrailer(
      static_cast<CompressionType>(edited.flags & kSetType ? type : old_type),
      checksum, &block, ContextOf(base.footer, moved));
  if (edited.flags & kStaleChecksum) {
    block.replace(block.size() - 4, 4,
                  base.file.substr(old.offset + old.size + 1, 4));
  }
  Write(moved, block, &body);
  Footer footer = base.footer;
  if (!SameHandle(moved, old)) {
    switch (edited.block.kind) {
      case BlockKind::kMetaIndex:
        footer.metaindex = moved;
        break;
      case BlockKind::kIndex:
        // From format_version 6 the metaindex holds the index handle.
        if (index_in_footer) {
          footer.index = moved;
        } else {
          MoveMetaBlock(base, old, moved, &footer, &body);
        }
        break;
      case BlockKind::kProperties:
      case BlockKind::kFilter:
        MoveMetaBlock(base, old, moved, &footer, &body);
        break;
      case BlockKind::kPartition: {
        BlockBuilder index;
        for (size_t i = 0; i < base.partitions.size(); ++i) {
          std::string value;
          EncodeBlockHandle(
              i == edited.block.partition ? moved : base.partitions[i].handle,
              &value);
          index.Add(base.partitions[i].index_key, value);
        }
        const BlockHandle index_handle =
            AppendBlock(index.Finish(), base.footer, &body);
        MoveMetaBlock(base, base.filter->handle, index_handle, &footer, &body);
        break;
      }
      case BlockKind::kFooter:
        break;
    }
  }
  edited.file = body + EncodeFooter(footer);
  return edited;
}

std::string EncodeEditScript(size_t table, size_t block, uint8_t flags,
                             uint8_t type, const std::vector<Edit>& edits) {
  std::string s = {static_cast<char>(table), static_cast<char>(block),
                   static_cast<char>(flags), static_cast<char>(type)};
  for (const Edit& edit : edits) {
    s.push_back(static_cast<char>(edit.op));
    s.push_back(static_cast<char>(edit.position & 0xff));
    s.push_back(static_cast<char>(edit.position >> 8));
    s.push_back(static_cast<char>(edit.bytes.size()));
    if (edit.op != 2) s += edit.bytes;
  }
  return s;
}

}  // namespace fuzz
}  // namespace sstfilter
