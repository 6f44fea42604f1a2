// Block checksums against real RocksDB 7.8.3 tables of every checksum type it
// writes (CRC32C, xxHash, xxHash64, XXH3): BlockChecksum gives the value
// RocksDB stored in the trailer of every block of the table, TableFilter
// finds the filter and matches every key, and a changed byte in a block is a
// DataLossError whatever the type. Until these, xxHash and xxHash64 were only
// checked against this library's own writer.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/table.h"
#include "table/block.h"
#include "table/block_trailer.h"
#include "table/format.h"
#include "table/meta_blocks.h"
#include "table/random_access_file.h"
#include "table/table_filter.h"
#include "table/testing/real_tables.h"
#include "util/coding.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

struct NamedBlock {
  std::string name;
  BlockHandle handle;
};

class ChecksumTypesTest : public testing::TestWithParam<rocksdb::ChecksumType> {
 protected:
  ChecksumTypesTest() : keys_(test::SortedHexKeys(3000, 41)) {}

  ChecksumType type() const { return static_cast<ChecksumType>(GetParam()); }

  // Writes keys_ into a table with RocksDB's full Bloom filter and small
  // blocks (about 50 data blocks, Snappy-compressed), returns its bytes.
  std::string WriteTable() {
    const std::string path = dir_.File("checksums.sst");
    test::RocksDbTableOptions options;
    options.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
    options.checksum = static_cast<int>(GetParam());
    options.block_size = 1024;
    const absl::Status written = test::WriteRocksDbTable(path, keys_, options);
    EXPECT_TRUE(written.ok()) << written;
    absl::StatusOr<std::string> bytes = test::ReadFileBytes(path);
    EXPECT_TRUE(bytes.ok()) << bytes.status();
    return bytes.ok() ? *bytes : std::string();
  }

  // Every block the table's tail leads to: the metaindex, each meta block it
  // names (filter, properties, ...), the index and each data block.
  static std::vector<NamedBlock> AllBlocks(const std::string& file,
                                           const Footer& footer) {
    std::vector<NamedBlock> blocks = {{"metaindex", footer.metaindex}};
    absl::StatusOr<MetaIndex> meta =
        ParseMetaIndex(absl::string_view(file).substr(footer.metaindex.offset,
                                                      footer.metaindex.size));
    EXPECT_TRUE(meta.ok()) << meta.status();
    if (!meta.ok()) return blocks;
    for (const auto& [name, handle] : meta->blocks) {
      blocks.push_back({name, handle});
    }
    absl::StatusOr<BlockHandle> index_handle = IndexHandle(footer, *meta);
    EXPECT_TRUE(index_handle.ok()) << index_handle.status();
    if (!index_handle.ok()) return blocks;
    // From format_version 6 the metaindex names the index; before, the
    // footer does.
    if (!meta->index.has_value()) blocks.push_back({"index", *index_handle});
    std::string scratch;
    const absl::string_view raw_index = absl::string_view(file).substr(
        index_handle->offset, index_handle->size);
    absl::StatusOr<absl::string_view> index = UncompressBlock(
        "index",
        static_cast<uint8_t>(file[index_handle->offset + index_handle->size]),
        raw_index, &scratch);
    EXPECT_TRUE(index.ok()) << index.status();
    if (!index.ok()) return blocks;
    absl::StatusOr<Block> block = Block::Parse(*index);
    EXPECT_TRUE(block.ok()) << block.status();
    if (!block.ok()) return blocks;
    // From format_version 4 an index entry has no value length (RocksDB's
    // value delta encoding), which BlockIterator does not read; with one entry
    // per restart point (index_block_restart_interval 1) each one is
    // varint32 shared (0), varint32 key length, the key, the full handle.
    int data_blocks = 0;
    for (uint32_t i = 0; i < block->num_restarts(); ++i) {
      absl::string_view entry =
          block->entries().substr(block->RestartOffset(i));
      uint32_t shared = 1, key_bytes = 0;
      BlockHandle handle;
      EXPECT_TRUE(GetVarint32(&entry, &shared) && shared == 0 &&
                  GetVarint32(&entry, &key_bytes) && key_bytes <= entry.size());
      entry.remove_prefix(std::min<size_t>(key_bytes, entry.size()));
      EXPECT_TRUE(DecodeBlockHandle(&entry, &handle).ok());
      blocks.push_back({absl::StrCat("data block ", data_blocks++), handle});
    }
    EXPECT_GT(data_blocks, 20);
    return blocks;
  }

  test::TempDir dir_;
  const std::vector<std::string> keys_;
};

Footer ReadFooter(const std::string& file) {
  absl::StatusOr<Footer> footer = DecodeFooter(file, file.size());
  EXPECT_TRUE(footer.ok()) << footer.status();
  return footer.ok() ? *footer : Footer();
}

TEST_P(ChecksumTypesTest, FilterFoundAndEveryKeyMatches) {
  const std::string file = WriteTable();
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::Open(NewStringFile(file), TableFilterOptions());
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ((*table)->info().footer.checksum_type,
            static_cast<uint8_t>(type()));
  ASSERT_TRUE((*table)->info().filter.has_value());
  EXPECT_TRUE((*table)->corruption().ok()) << (*table)->corruption();
  for (const std::string& key : keys_) {
    ASSERT_TRUE((*table)->KeyMayMatch(key)) << key;
  }
  // The filter is in use: absent keys among the table's are mostly ruled out.
  int absent_matches = 0;
  for (const std::string& key : test::SortedHexKeys(3000, 42)) {
    absent_matches += (*table)->KeyMayMatch(key);
  }
  EXPECT_LT(absent_matches, 3000 / 20);
}

// The checksum RocksDB stored after each block is the one
// StoredBlockChecksum computes from the block's contents, compression type
// byte and place.
TEST_P(ChecksumTypesTest, BlockChecksumIsWhatRocksDbWrote) {
  const std::string file = WriteTable();
  const Footer footer = ReadFooter(file);
  ASSERT_EQ(footer.checksum_type, static_cast<uint8_t>(type()));
  for (const NamedBlock& block : AllBlocks(file, footer)) {
    SCOPED_TRACE(block.name);
    ASSERT_TRUE(BlockFits(block.handle, file.size()));
    const absl::string_view contents =
        absl::string_view(file).substr(block.handle.offset, block.handle.size);
    const char* trailer = file.data() + block.handle.offset + block.handle.size;
    EXPECT_EQ(StoredBlockChecksum(contents, static_cast<uint8_t>(trailer[0]),
                                  type(), ContextOf(footer, block.handle)),
              DecodeFixed32(trailer + 1));
  }
}

// One changed byte anywhere in a block or its type byte fails its trailer;
// one in the filter block makes TableFilter report DataLossError and match
// every key, one in the metaindex makes Open fail with it.
TEST_P(ChecksumTypesTest, ChangedByteIsDataLoss) {
  const std::string file = WriteTable();
  const Footer footer = ReadFooter(file);
  test::Random rng(static_cast<uint64_t>(GetParam()));
  for (const NamedBlock& block : AllBlocks(file, footer)) {
    SCOPED_TRACE(block.name);
    for (int round = 0; round < 8; ++round) {
      std::string damaged = file;
      const uint64_t at =
          block.handle.offset + rng.Uniform(block.handle.size + 1);
      damaged[at] = static_cast<char>(damaged[at] ^ (1 + rng.Uniform(255)));
      const absl::Status status = VerifyBlockTrailer(
          block.name,
          absl::string_view(damaged).substr(block.handle.offset,
                                            block.handle.size),
          absl::string_view(damaged).substr(
              block.handle.offset + block.handle.size, kBlockTrailerBytes),
          type(), ContextOf(footer, block.handle));
      EXPECT_TRUE(absl::IsDataLoss(status)) << "byte " << at << ": " << status;
    }
  }

  absl::StatusOr<std::unique_ptr<TableFilter>> intact =
      TableFilter::Open(NewStringFile(file), TableFilterOptions());
  ASSERT_TRUE(intact.ok()) << intact.status();
  const BlockHandle filter = (*intact)->info().filter->handle;
  std::string damaged = file;
  damaged[filter.offset + filter.size / 2] ^= 0x10;
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::Open(NewStringFile(damaged), TableFilterOptions());
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_TRUE(absl::IsDataLoss((*table)->corruption()))
      << (*table)->corruption();
  for (const std::string& key : test::SortedHexKeys(500, 43)) {
    ASSERT_TRUE((*table)->KeyMayMatch(key)) << "a corrupt filter says no";
  }

  damaged = file;
  damaged[footer.metaindex.offset + footer.metaindex.size / 2] ^= 0x10;
  EXPECT_TRUE(absl::IsDataLoss(
      TableFilter::Open(NewStringFile(damaged), TableFilterOptions())
          .status()));
}

INSTANTIATE_TEST_SUITE_P(
    EveryType, ChecksumTypesTest,
    testing::Values(rocksdb::kCRC32c, rocksdb::kxxHash, rocksdb::kxxHash64,
                    rocksdb::kXXH3),
    [](const testing::TestParamInfo<rocksdb::ChecksumType>& param) {
      return std::string(ChecksumTypeName(static_cast<uint8_t>(param.param)));
    });

}  // namespace
}  // namespace sstfilter
