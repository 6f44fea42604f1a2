// Reads the tables RocksDB 9.7.4 wrote (rocksdb_golden_tables.h) with
// sstfilter's table reader, whatever RocksDB this build links: every key and
// prefix matches, absent keys mostly do not, and a byte flipped anywhere in
// the blocks the reader checks (footer, metaindex, filter blocks) is reported
// as corruption, while no flip anywhere loses a key.

#include "tests/integration/rocksdb_golden_tables.h"

#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "table/block_trailer.h"
#include "table/format.h"
#include "table/random_access_file.h"
#include "table/table_filter.h"

namespace sstfilter {
namespace golden {
namespace {

constexpr size_t kAbsentKeys = 2000;
// 10 bits/key gives about 1% (a little more with prefixes in the filter too).
constexpr double kMaxAbsentMatchRate = 0.05;
// Bytes outside the checked blocks are flipped at this stride (every byte of
// the checked blocks is).
constexpr uint64_t kUncheckedStride = 61;

std::string ReadGolden(const char* file) {
  const std::string path = absl::StrCat(
      std::getenv("TEST_SRCDIR"), "/", std::getenv("TEST_WORKSPACE"),
      "/tests/integration/testdata/rocksdb-9.7.4/", file);
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  EXPECT_TRUE(in.good() || in.eof()) << path;
  return bytes.str();
}

absl::StatusOr<std::unique_ptr<TableFilter>> OpenBytes(
    const std::string& bytes) {
  return TableFilter::Open(NewStringFile(bytes), TableFilterOptions());
}

// The number of keys that do not match; 0 for a table that lost none.
size_t MissingKeys(const TableFilter& table,
                   const std::vector<std::string>& keys) {
  size_t missing = 0;
  for (const std::string& key : keys) missing += table.KeyMayMatch(key) ? 0 : 1;
  return missing;
}

// Whether offset lies in [block.offset, block end + trailer).
bool InBlock(uint64_t offset, const BlockHandle& block) {
  return offset >= block.offset &&
         offset < block.offset + block.size + kBlockTrailerBytes;
}

class GoldenTableTest : public testing::TestWithParam<GoldenTable> {};

TEST_P(GoldenTableTest, EveryKeyAndPrefixMatches) {
  const GoldenTable& golden = GetParam();
  const std::string bytes = ReadGolden(golden.file);
  absl::StatusOr<std::unique_ptr<TableFilter>> table = OpenBytes(bytes);
  ASSERT_TRUE(table.ok()) << table.status();
  const TableFilterInfo& info = (*table)->info();
  EXPECT_EQ(info.footer.format_version,
            static_cast<uint32_t>(golden.format_version));
  ASSERT_TRUE(info.filter.has_value());
  EXPECT_EQ(info.partitions.size() > 1,
            golden.partitioning != Partitioning::kFull);
  EXPECT_EQ(MissingKeys(**table, GoldenKeys()), 0u);
  if (golden.prefix_extractor) {
    ASSERT_TRUE((*table)->FiltersPrefixes());
    for (size_t i = 0; i < kGoldenKeys; i += kGoldenKeysPerPrefix) {
      const std::string prefix = GoldenKey(i).substr(0, kGoldenPrefixBytes);
      EXPECT_TRUE((*table)->PrefixMayMatch(prefix)) << prefix;
    }
  }
  const size_t absent_matches =
      kAbsentKeys - MissingKeys(**table, AbsentGoldenKeys(kAbsentKeys));
  EXPECT_LE(absent_matches, kMaxAbsentMatchRate * kAbsentKeys);
  EXPECT_TRUE((*table)->corruption().ok()) << (*table)->corruption();
}

TEST_P(GoldenTableTest, FlippedBytesAreReportedAndLoseNoKey) {
  const GoldenTable& golden = GetParam();
  const std::string bytes = ReadGolden(golden.file);
  absl::StatusOr<std::unique_ptr<TableFilter>> clean = OpenBytes(bytes);
  ASSERT_TRUE(clean.ok()) << clean.status();
  const TableFilterInfo& info = (*clean)->info();
  std::vector<BlockHandle> checked = {info.footer.metaindex};
  ASSERT_TRUE(info.filter.has_value());
  checked.push_back(info.filter->handle);
  for (const FilterPartition& partition : info.partitions) {
    checked.push_back(partition.handle);
  }
  const uint64_t footer_start = bytes.size() - kRocksDbFooterBytes;
  const std::vector<std::string> keys = GoldenKeys();

  size_t flips = 0;
  for (uint64_t offset = 0; offset < bytes.size(); ++offset) {
    // A format_version 6 footer is checksummed; an older one is not (its
    // padding is never read).
    bool must_report = golden.format_version >= 6 && offset >= footer_start;
    for (const BlockHandle& block : checked) {
      must_report = must_report || InBlock(offset, block);
    }
    if (!must_report && offset % kUncheckedStride != 0) continue;
    ++flips;
    std::string damaged = bytes;
    damaged[offset] = static_cast<char>(damaged[offset] ^ 0x10);
    absl::StatusOr<std::unique_ptr<TableFilter>> table = OpenBytes(damaged);
    if (!table.ok()) {
      EXPECT_TRUE(absl::IsDataLoss(table.status()) ||
                  absl::IsUnimplemented(table.status()))
          << "offset " << offset << ": " << table.status();
      continue;
    }
    ASSERT_EQ(MissingKeys(**table, keys), 0u)
        << "keys lost after flipping the byte at offset " << offset;
    (*table)->LoadAllPartitions().IgnoreError();
    if (must_report) {
      EXPECT_FALSE((*table)->corruption().ok())
          << "flip at offset " << offset << " of " << bytes.size()
          << " bytes not reported";
    }
  }
  EXPECT_GT(flips, kRocksDbFooterBytes);
}

std::string TableName(const testing::TestParamInfo<GoldenTable>& info) {
  std::string name = info.param.file;
  name = name.substr(0, name.find('.'));
  return name;
}

INSTANTIATE_TEST_SUITE_P(RocksDb974, GoldenTableTest,
                         testing::ValuesIn(GoldenTables()), TableName);

}  // namespace
}  // namespace golden
}  // namespace sstfilter
