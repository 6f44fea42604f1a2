// TableFilter on RocksDB format_version 6 tables (RocksDB 9.7.4's default)
// assembled block by block, with every checksum type and every filter
// layout: every key may match; the index comes from the metaindex's
// "rocksdb.index" entry; and a block whose checksum leaves out its context
// (checksummed as format_version 5 does, or for another offset) is damage:
// DataLossError and "may match", never a false "no". A damaged footer is
// never read as a table.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "filter/bloom/bloom.h"
#include "filter/range/range_filter.h"
#include "gtest/gtest.h"
#include "table/block_builder.h"
#include "table/block_trailer.h"
#include "table/filter_block.h"
#include "table/format.h"
#include "table/meta_blocks.h"
#include "table/random_access_file.h"
#include "table/table_filter.h"
#include "table/testing/table_assembler.h"
#include "util/coding.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

constexpr uint32_t kBase = 0x3779b9e1;
constexpr size_t kKeys = 2000;
constexpr size_t kKeysPerDataBlock = 50;
constexpr uint64_t kDataBlockBytes = 700;  // spans 2 KB ranges unevenly

enum class Kind { kFull, kPartitioned, kPerDataRange };

const char* KindName(Kind kind) {
  switch (kind) {
    case Kind::kFull:
      return "full";
    case Kind::kPartitioned:
      return "partitioned";
    case Kind::kPerDataRange:
      return "per2KB";
  }
  return "?";
}

struct Param {
  Kind kind;
  ChecksumType checksum;
};

std::string ParamName(const testing::TestParamInfo<Param>& info) {
  return absl::StrCat(
      KindName(info.param.kind), "_",
      ChecksumTypeName(static_cast<uint8_t>(info.param.checksum)));
}

const std::vector<std::string>& Keys() {
  static const auto* keys =
      new std::vector<std::string>(test::SortedHexKeys(kKeys, 61));
  return *keys;
}

const std::vector<std::string>& AbsentKeys() {
  static const auto* keys =
      new std::vector<std::string>(test::SortedHexKeys(1000, 62));
  return *keys;
}

class FormatVersion6Test : public testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    point_ = *NewBloomFilterPolicy(FilterOptions::BitsPerKey(10));
    range_ = *NewGrafiteFilterPolicy(FilterOptions::BitsPerKey(16));
    file_ = Assemble(/*name_index=*/true);
  }

  test::TableFileOptions FileOptions() const {
    test::TableFileOptions options;
    options.checksum = GetParam().checksum;
    options.format_version = 6;
    options.base_context_checksum = kBase;
    return options;
  }

  std::string Assemble(bool name_index) const {
    switch (GetParam().kind) {
      case Kind::kFull: {
        test::TableAssembler table(FileOptions());
        table.AddFiller(1000);  // data blocks stand here
        FullFilterBlockBuilder filter(*point_);
        for (const std::string& key : Keys()) filter.AddKey(key);
        table.AddMetaBlock(absl::StrCat(kFullFilterPrefix, point_->Name()),
                           table.AddBlock(filter.Finish()));
        table.AddRangeFilterBlock(*range_, Keys());
        return table.Finish();
      }
      case Kind::kPartitioned: {
        PartitionedFilterOptions options;
        options.partition_bytes = 256;
        return test::AssemblePartitionedTable(*point_, options, Keys(),
                                              kKeysPerDataBlock,
                                              /*user_keys=*/true, FileOptions())
            .file;
      }
      case Kind::kPerDataRange:
        return PerDataRangeTable(name_index);
    }
    return "";
  }

  // LevelDB's per-2 KB layout in a format_version 6 file, which needs a real
  // index (user keys): data blocks (filler) of kKeysPerDataBlock keys, the
  // filter, the index, the metaindex (naming the index when name_index) and
  // the footer, every block checksummed in its context.
  std::string PerDataRangeTable(bool name_index) const {
    std::string file;
    auto add_block = [&](std::string contents) {
      const BlockHandle handle{file.size(), contents.size()};
      AppendBlockTrailer(CompressionType::kNone, GetParam().checksum, &contents,
                         {kBase, handle.offset});
      file += contents;
      return handle;
    };
    LevelDbFilterBlockBuilder filter(*point_);
    BlockBuilder index;
    for (size_t start = 0; start < Keys().size(); start += kKeysPerDataBlock) {
      const size_t end = std::min(Keys().size(), start + kKeysPerDataBlock);
      const BlockHandle data{file.size(), kDataBlockBytes - kBlockTrailerBytes};
      filter.StartBlock(data.offset);
      for (size_t i = start; i < end; ++i) filter.AddKey(Keys()[i]);
      file.append(kDataBlockBytes, 'd');
      std::string handle;
      EncodeBlockHandle(data, &handle);
      index.Add(Keys()[end - 1], handle);
    }
    filter.StartBlock(file.size());
    BlockBuilder metaindex;
    std::string handle;
    EncodeBlockHandle(add_block(filter.Finish()), &handle);
    metaindex.Add(absl::StrCat(kLevelDbFilterPrefix, point_->Name()), handle);
    const BlockHandle index_handle = add_block(index.Finish());
    if (name_index) {
      handle.clear();
      EncodeBlockHandle(index_handle, &handle);
      metaindex.Add(kIndexBlockName, handle);
    }
    Footer footer;
    footer.format = TableFormat::kRocksDb;
    footer.format_version = 6;
    footer.checksum_type = static_cast<uint8_t>(GetParam().checksum);
    footer.base_context_checksum = kBase;
    footer.metaindex = add_block(metaindex.Finish());
    return file + EncodeFooter(footer);
  }

  TableFilterOptions Options() const {
    TableFilterOptions options;
    options.index_keys = IndexKeys::kUser;
    return options;
  }

  absl::StatusOr<std::unique_ptr<TableFilter>> Open(
      const std::string& bytes) const {
    return TableFilter::Open(NewStringFile(bytes), Options());
  }

  // Every key of the table, and every range around one, may match.
  static void ExpectNoFalseNegatives(const TableFilter& table) {
    for (const std::string& key : Keys()) {
      ASSERT_TRUE(table.KeyMayMatch(key)) << "false negative: " << key;
      ASSERT_TRUE(table.RangeMayMatch(key, key)) << "false negative: " << key;
    }
  }

  // The blocks TableFilter reads, by name, with their handles.
  std::vector<std::pair<std::string, BlockHandle>> BlocksRead() const {
    absl::StatusOr<std::unique_ptr<TableFilter>> table = Open(file_);
    EXPECT_TRUE(table.ok()) << table.status();
    if (!table.ok()) return {};
    const Footer& footer = (*table)->info().footer;
    std::vector<std::pair<std::string, BlockHandle>> blocks = {
        {"metaindex", footer.metaindex}};
    const std::string& file = file_;
    absl::StatusOr<MetaIndex> meta =
        ParseMetaIndex(absl::string_view(file).substr(footer.metaindex.offset,
                                                      footer.metaindex.size));
    EXPECT_TRUE(meta.ok()) << meta.status();
    if (!meta.ok()) return blocks;
    for (const auto& [name, handle] : meta->blocks) {
      // Only the per-2 KB layout routes keys through the index.
      if (name == kIndexBlockName && GetParam().kind != Kind::kPerDataRange) {
        continue;
      }
      blocks.push_back({name, handle});
    }
    const std::vector<FilterPartition>& partitions =
        (*table)->info().partitions;
    for (size_t i = 0; i < partitions.size(); ++i) {
      blocks.push_back({absl::StrCat("partition ", i), partitions[i].handle});
    }
    return blocks;
  }

  // file_ with the block at handle checksummed in context instead.
  std::string Restamped(const BlockHandle& handle,
                        const BlockChecksumContext& context) const {
    std::string bytes = file_;
    const absl::string_view contents =
        absl::string_view(file_).substr(handle.offset, handle.size);
    const uint8_t type =
        static_cast<uint8_t>(file_[handle.offset + handle.size]);
    EncodeFixed32(
        &bytes[handle.offset + handle.size + 1],
        StoredBlockChecksum(contents, type, GetParam().checksum, context));
    return bytes;
  }

  std::unique_ptr<const FilterPolicy> point_;
  std::unique_ptr<const FilterPolicy> range_;
  std::string file_;
};

TEST_P(FormatVersion6Test, ReadsBackWithNoFalseNegatives) {
  absl::StatusOr<std::unique_ptr<TableFilter>> table = Open(file_);
  ASSERT_TRUE(table.ok()) << table.status();
  const TableFilterInfo& info = (*table)->info();
  EXPECT_EQ(info.footer.format_version, 6u);
  EXPECT_EQ(info.footer.base_context_checksum, kBase);
  EXPECT_EQ(info.footer.checksum_type,
            static_cast<uint8_t>(GetParam().checksum));
  ASSERT_TRUE(info.filter.has_value());
  EXPECT_TRUE((*table)->LoadAllPartitions().ok()) << (*table)->corruption();
  ExpectNoFalseNegatives(**table);
  // The filter is in use: most absent keys are ruled out.
  size_t matches = 0;
  for (const std::string& key : AbsentKeys()) {
    matches += (*table)->KeyMayMatch(key);
  }
  EXPECT_LT(matches, AbsentKeys().size() / 20);
  EXPECT_TRUE((*table)->corruption().ok()) << (*table)->corruption();
}

// Each block TableFilter reads, checksummed as format_version 5 does (no
// context) or for another offset, is found damaged: Open fails with
// DataLossError (metaindex, properties) or reports it, and no key is lost.
TEST_P(FormatVersion6Test, BlockOutOfContextIsDataLoss) {
  const std::vector<std::pair<std::string, BlockHandle>> blocks = BlocksRead();
  ASSERT_GE(blocks.size(), 3u);
  for (const auto& [name, handle] : blocks) {
    const BlockChecksumContext wrong[] = {
        {},
        {kBase, handle.offset + 1},
        {kBase, handle.offset + (uint64_t{1} << 32)},
    };
    for (const BlockChecksumContext& context : wrong) {
      SCOPED_TRACE(absl::StrCat(name, " checksummed at offset ", context.offset,
                                " base ", context.base));
      absl::StatusOr<std::unique_ptr<TableFilter>> table =
          Open(Restamped(handle, context));
      if (!table.ok()) {
        EXPECT_TRUE(absl::IsDataLoss(table.status())) << table.status();
        continue;
      }
      const absl::Status corruption = (*table)->LoadAllPartitions();
      EXPECT_TRUE(absl::IsDataLoss(corruption)) << corruption;
      ExpectNoFalseNegatives(**table);
    }
  }
}

// Format_version 6 keeps the index handle in the metaindex only: a table
// without the entry cannot route a key to its per-2 KB filter.
TEST_P(FormatVersion6Test, MissingIndexEntry) {
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      Open(Assemble(/*name_index=*/false));
  ASSERT_TRUE(table.ok()) << table.status();
  if (GetParam().kind != Kind::kPerDataRange) {
    // Full and partitioned filters need no index.
    EXPECT_TRUE((*table)->corruption().ok()) << (*table)->corruption();
    return;
  }
  EXPECT_TRUE(absl::IsDataLoss((*table)->corruption()));
  EXPECT_NE((*table)->corruption().message().find(kIndexBlockName),
            std::string::npos)
      << (*table)->corruption();
  for (const std::string& key : AbsentKeys()) {
    ASSERT_TRUE((*table)->KeyMayMatch(key)) << key;
  }
}

// Every changed byte of the footer stops Open: the footer's checksum covers
// it, or it names a format this library does not read.
TEST_P(FormatVersion6Test, ChangedFooterByteStopsOpen) {
  for (size_t at = file_.size() - kRocksDbFooterBytes; at < file_.size();
       ++at) {
    std::string damaged = file_;
    damaged[at] ^= 0x21;
    const absl::Status status = Open(damaged).status();
    EXPECT_TRUE(absl::IsDataLoss(status) || absl::IsUnimplemented(status))
        << "byte " << at << ": " << status;
  }
}

std::vector<Param> AllParams() {
  std::vector<Param> params;
  for (Kind kind : {Kind::kFull, Kind::kPartitioned, Kind::kPerDataRange}) {
    for (ChecksumType checksum :
         {ChecksumType::kCrc32c, ChecksumType::kXxHash, ChecksumType::kXxHash64,
          ChecksumType::kXxh3}) {
      params.push_back({kind, checksum});
    }
  }
  return params;
}

INSTANTIATE_TEST_SUITE_P(EveryLayoutAndChecksum, FormatVersion6Test,
                         testing::ValuesIn(AllParams()), ParamName);

}  // namespace
}  // namespace sstfilter
