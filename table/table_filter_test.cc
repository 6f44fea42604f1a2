// Tests of TableFilter on table files written by the real LevelDB 1.23 and
// RocksDB 7.8.3: every key a table holds must match; absent keys are ruled
// out at about the filter's rate; damage to the filter block costs reads,
// never a key.

#include "table/table_filter.h"

#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "filter/filter_arena.h"
#include "gtest/gtest.h"
#include "leveldb/filter_policy.h"
#include "rocksdb/filter_policy.h"
#include "table/block_trailer.h"
#include "table/filter_summary.h"
#include "table/format.h"
#include "table/meta_blocks.h"
#include "table/random_access_file.h"
#include "table/testing/real_tables.h"
#include "util/coding.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

using test::TempDir;

// Seed of the absent keys: with the tables' prefix they interleave with the
// tables' keys, so a per-2 KB filter block is asked through the data block
// that would hold them (a key past the table's last key is ruled out before
// any filter); 64 random bits make one equal to a present key negligible.
constexpr uint64_t kAbsentSeed = 999;

// Fraction of n absent keys that match.
double AbsentMatchRate(const TableFilter& table, size_t n) {
  const std::vector<std::string> absent = test::SortedHexKeys(n, kAbsentSeed);
  size_t matches = 0;
  for (const std::string& key : absent) matches += table.KeyMayMatch(key);
  return static_cast<double>(matches) / static_cast<double>(absent.size());
}

void ExpectEveryKeyMatches(const TableFilter& table,
                           const std::vector<std::string>& keys) {
  for (const std::string& key : keys) {
    ASSERT_TRUE(table.KeyMayMatch(key)) << "false negative: " << key;
  }
}

class LevelDbTableTest : public ::testing::Test {
 protected:
  std::unique_ptr<const leveldb::FilterPolicy> policy_{
      leveldb::NewBloomFilterPolicy(10)};
  TempDir dir_;
};

TEST_F(LevelDbTableTest, TableBuilderTableWithUserKeys) {
  const std::vector<std::string> keys = test::SortedHexKeys(5000, 1);
  const std::string path = dir_.File("raw.ldb");
  test::LevelDbTableOptions options;
  options.filter_policy = policy_.get();
  ASSERT_TRUE(test::WriteLevelDbTable(path, keys, options).ok());

  TableFilterOptions read_options;
  read_options.index_keys = IndexKeys::kUser;
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::OpenFile(path, read_options);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_TRUE((*table)->corruption().ok());
  ASSERT_TRUE((*table)->info().filter.has_value());
  EXPECT_EQ((*table)->info().filter->layout, FilterLayout::kPerDataRange);
  EXPECT_EQ((*table)->info().filter->policy_name,
            "leveldb.BuiltinBloomFilter2");
  EXPECT_GT((*table)->info().num_filters, 10u);
  EXPECT_EQ((*table)->io().reads, 1) << "the whole tail fits the prefetch";
  ExpectEveryKeyMatches(**table, keys);
  // About 1% (10 bits/key): the filter is consulted, and it rules keys out.
  const double rate = AbsentMatchRate(**table, 20000);
  EXPECT_GT(rate, 0.002);
  EXPECT_LT(rate, 0.03);
}

TEST_F(LevelDbTableTest, InternalKeyModeRefusesUserKeyIndex) {
  const std::vector<std::string> keys = test::SortedHexKeys(500, 2);
  const std::string path = dir_.File("raw.ldb");
  test::LevelDbTableOptions options;
  options.filter_policy = policy_.get();
  ASSERT_TRUE(test::WriteLevelDbTable(path, keys, options).ok());
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::OpenFile(path, TableFilterOptions());
  EXPECT_EQ(table.status().code(), absl::StatusCode::kInvalidArgument)
      << table.status();
}

TEST_F(LevelDbTableTest, DatabaseTables) {
  const std::vector<std::string> keys = test::SortedHexKeys(20000, 3);
  absl::StatusOr<std::vector<std::string>> tables =
      test::WriteLevelDbDatabase(dir_.path(), keys, policy_.get());
  ASSERT_TRUE(tables.ok()) << tables.status();
  ASSERT_FALSE(tables->empty());
  size_t absent_matches = 0;
  const std::vector<std::string> absent =
      test::SortedHexKeys(5000, kAbsentSeed);
  std::vector<bool> found(keys.size(), false);
  for (const std::string& path : *tables) {
    absl::StatusOr<std::unique_ptr<TableFilter>> table =
        TableFilter::OpenFile(path, TableFilterOptions());
    ASSERT_TRUE(table.ok()) << table.status();
    for (size_t i = 0; i < keys.size(); ++i) {
      found[i] = found[i] || (*table)->KeyMayMatch(keys[i]);
    }
    for (const std::string& key : absent) {
      absent_matches += (*table)->KeyMayMatch(key);
    }
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    ASSERT_TRUE(found[i]) << "no table matches " << keys[i];
  }
  // About 1% per table (10 bits/key); every table is asked about every key.
  EXPECT_GT(absent_matches, 0.002 * absent.size() * tables->size());
  EXPECT_LT(absent_matches, 0.03 * absent.size() * tables->size());
}

TEST_F(LevelDbTableTest, ZeroKeyTable) {
  const std::string path = dir_.File("empty.ldb");
  test::LevelDbTableOptions options;
  options.filter_policy = policy_.get();
  ASSERT_TRUE(test::WriteLevelDbTable(path, {}, options).ok());
  TableFilterOptions read_options;
  read_options.index_keys = IndexKeys::kUser;
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::OpenFile(path, read_options);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_FALSE((*table)->KeyMayMatch("anything"))
      << "an empty table holds no key";
}

TEST_F(LevelDbTableTest, TableWithoutFilterMatchesEverything) {
  const std::string path = dir_.File("nofilter.ldb");
  ASSERT_TRUE(
      test::WriteLevelDbTable(path, test::SortedHexKeys(100, 5), {}).ok());
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::OpenFile(path, TableFilterOptions());
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_FALSE((*table)->info().filter.has_value());
  EXPECT_TRUE((*table)->KeyMayMatch("anything"));
}

// Every bit flip and truncation of the filter block of a small real table:
// the checksum catches it (corruption reported, every key matches), or the
// answer for every present key is still "may match".
TEST_F(LevelDbTableTest, DamagedFilterBlockNeverLosesAKey) {
  const std::vector<std::string> keys = test::SortedHexKeys(60, 6);
  const std::string path = dir_.File("small.ldb");
  test::LevelDbTableOptions options;
  options.filter_policy = policy_.get();
  options.block_size = 256;
  ASSERT_TRUE(test::WriteLevelDbTable(path, keys, options).ok());
  absl::StatusOr<std::string> bytes = test::ReadFileBytes(path);
  ASSERT_TRUE(bytes.ok());
  TableFilterOptions read_options;
  read_options.index_keys = IndexKeys::kUser;
  absl::StatusOr<std::unique_ptr<TableFilter>> good =
      TableFilter::Open(NewStringFile(*bytes), read_options);
  ASSERT_TRUE(good.ok()) << good.status();
  const BlockHandle handle = (*good)->info().filter->handle;

  int detected = 0;
  const uint64_t end = handle.offset + handle.size + 5;  // with its trailer
  for (uint64_t bit = 8 * handle.offset; bit < 8 * end; ++bit) {
    std::string damaged = *bytes;
    damaged[bit / 8] ^= static_cast<char>(1 << (bit % 8));
    absl::StatusOr<std::unique_ptr<TableFilter>> table =
        TableFilter::Open(NewStringFile(damaged), read_options);
    ASSERT_TRUE(table.ok()) << table.status();
    if (!(*table)->corruption().ok()) {
      EXPECT_TRUE(absl::IsDataLoss((*table)->corruption()));
      ++detected;
    }
    ExpectEveryKeyMatches(**table, keys);
  }
  EXPECT_EQ(detected, 8 * (end - handle.offset)) << "CRC32C catches every "
                                                    "single-bit flip";
}

// A metaindex block of one entry (one restart point), with its trailer.
std::string OneEntryMetaIndex(const std::string& key,
                              const BlockHandle& handle) {
  std::string value;
  EncodeBlockHandle(handle, &value);
  std::string block;
  PutVarint32(&block, 0);  // shared key bytes
  PutVarint32(&block, static_cast<uint32_t>(key.size()));
  PutVarint32(&block, static_cast<uint32_t>(value.size()));
  block += key;
  block += value;
  PutFixed32(&block, 0);  // the restart point
  PutFixed32(&block, 1);  // restart count
  AppendBlockTrailer(CompressionType::kNone, ChecksumType::kCrc32c, &block);
  return block;
}

// Every truncation of the filter block: the table is rewritten with a valid
// metaindex whose filter handle is n bytes shorter, so the reader reads a
// shorter block followed by bytes that are not its trailer. The checksum
// catches it, and no present key is ruled out.
TEST_F(LevelDbTableTest, TruncatedFilterBlockNeverLosesAKey) {
  const std::vector<std::string> keys = test::SortedHexKeys(60, 6);
  const std::string path = dir_.File("small.ldb");
  test::LevelDbTableOptions options;
  options.filter_policy = policy_.get();
  options.block_size = 256;
  ASSERT_TRUE(test::WriteLevelDbTable(path, keys, options).ok());
  const std::string bytes = test::ReadFileBytes(path).value();
  TableFilterOptions read_options;
  read_options.index_keys = IndexKeys::kUser;
  absl::StatusOr<std::unique_ptr<TableFilter>> good =
      TableFilter::Open(NewStringFile(bytes), read_options);
  ASSERT_TRUE(good.ok()) << good.status();
  const Footer footer = (*good)->info().footer;
  const FilterLocation filter = *(*good)->info().filter;
  const std::string footer_bytes = EncodeFooter(footer);
  const std::string body = bytes.substr(0, bytes.size() - footer_bytes.size());

  int detected = 0;
  for (uint64_t size = 0; size < filter.handle.size; ++size) {
    std::string damaged = body;
    Footer moved = footer;
    const std::string metaindex = OneEntryMetaIndex(
        "filter." + filter.policy_name, {filter.handle.offset, size});
    moved.metaindex = {damaged.size(), metaindex.size() - kBlockTrailerBytes};
    damaged += metaindex;
    damaged += EncodeFooter(moved);
    absl::StatusOr<std::unique_ptr<TableFilter>> table =
        TableFilter::Open(NewStringFile(damaged), read_options);
    ASSERT_TRUE(table.ok()) << "size " << size << ": " << table.status();
    ASSERT_EQ((*table)->info().filter->handle.size, size);
    detected += absl::IsDataLoss((*table)->corruption());
    ExpectEveryKeyMatches(**table, keys);
  }
  EXPECT_EQ(detected, filter.handle.size) << "the checksum catches every cut";
}

class RocksDbTableTest : public ::testing::TestWithParam<int> {
 protected:
  TempDir dir_;
};

TEST_P(RocksDbTableTest, TableWithoutFilterMatchesEverything) {
  const std::string path = dir_.File("nofilter.sst");
  test::RocksDbTableOptions options;
  options.format_version = GetParam();
  ASSERT_TRUE(
      test::WriteRocksDbTable(path, test::SortedHexKeys(100, 7), options).ok());
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::OpenFile(path, TableFilterOptions());
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_FALSE((*table)->info().filter.has_value());
  EXPECT_TRUE((*table)->KeyMayMatch("anything"));
  ASSERT_TRUE((*table)->info().properties.has_value());
  EXPECT_EQ((*table)->info().properties->num_entries, 100u);
}

// RocksDB's own filters, as each format_version writes them: legacy Bloom
// before 5, FastLocalBloom or Ribbon from 5. The reader takes the format from
// each filter's trailer.
TEST_P(RocksDbTableTest, RocksDbsOwnFilters) {
  const int format_version = GetParam();
  struct Written {
    std::shared_ptr<const rocksdb::FilterPolicy> policy;
    const char* expected_format;
  };
  std::vector<Written> cases = {
      {std::shared_ptr<const rocksdb::FilterPolicy>(
           rocksdb::NewBloomFilterPolicy(10)),
       format_version >= 5 ? "FastLocalBloom" : "LegacyBloom"}};
  if (format_version >= 5) {
    cases.push_back({std::shared_ptr<const rocksdb::FilterPolicy>(
                         rocksdb::NewRibbonFilterPolicy(10)),
                     "Ribbon"});
  }
  const std::vector<std::string> keys = test::SortedHexKeys(20000, 11);
  for (const Written& written : cases) {
    SCOPED_TRACE(written.expected_format);
    const std::string path = dir_.File("filtered.sst");
    test::RocksDbTableOptions options;
    options.format_version = format_version;
    options.filter_policy = written.policy;
    ASSERT_TRUE(test::WriteRocksDbTable(path, keys, options).ok());
    absl::StatusOr<std::unique_ptr<TableFilter>> table =
        TableFilter::OpenFile(path, TableFilterOptions());
    ASSERT_TRUE(table.ok()) << table.status();
    ASSERT_TRUE((*table)->corruption().ok());
    ASSERT_TRUE((*table)->info().filter.has_value());
    EXPECT_EQ((*table)->info().filter->policy_name,
              "rocksdb.BuiltinBloomFilter");
    ExpectEveryKeyMatches(**table, keys);

    const FilterSummary summary = SummarizeFilter(**table);
    EXPECT_EQ(summary.format, written.expected_format);
    ASSERT_TRUE(summary.num_keys.has_value());
    EXPECT_EQ(*summary.num_keys, keys.size());  // from the properties
    EXPECT_FALSE(summary.keys_estimated);
    // 10 bits/key: about 1% for each format; the filter's own estimate and
    // the measured rate over 100,000 absent keys agree within sampling error
    // and the estimates' own error.
    EXPECT_GT(summary.expected_fpp, 0.004);
    EXPECT_LT(summary.expected_fpp, 0.02);
    const double measured = AbsentMatchRate(**table, 100000);
    EXPECT_GT(measured, 0.5 * summary.expected_fpp);
    EXPECT_LT(measured, 1.5 * summary.expected_fpp);
  }
}

// Tables opened from several threads keep their filter blocks in one arena:
// each block is the file's, at a cache line inside the arena, and every key
// still matches.
TEST_P(RocksDbTableTest, FilterBlocksInASharedArena) {
  const std::vector<std::string> keys = test::SortedHexKeys(20000, 12);
  test::RocksDbTableOptions write_options;
  write_options.format_version = GetParam();
  write_options.filter_policy = std::shared_ptr<const rocksdb::FilterPolicy>(
      rocksdb::NewBloomFilterPolicy(10));
  const std::string path = dir_.File("arena.sst");
  ASSERT_TRUE(test::WriteRocksDbTable(path, keys, write_options).ok());
  absl::StatusOr<std::unique_ptr<TableFilter>> heap =
      TableFilter::OpenFile(path, TableFilterOptions());
  ASSERT_TRUE(heap.ok()) << heap.status();

  FilterArena arena;
  TableFilterOptions options;
  options.filter_arena = &arena;
  constexpr int kThreads = 4;
  std::vector<std::unique_ptr<TableFilter>> tables(kThreads);
  std::vector<absl::Status> statuses(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      absl::StatusOr<std::unique_ptr<TableFilter>> table =
          TableFilter::OpenFile(path, options);
      statuses[t] = table.status();
      if (table.ok()) tables[t] = *std::move(table);
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::vector<const char*> starts;
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_TRUE(statuses[t].ok()) << statuses[t];
    const absl::string_view block = tables[t]->filter_block_contents();
    EXPECT_EQ(block, (*heap)->filter_block_contents());
    EXPECT_EQ(reinterpret_cast<uintptr_t>(block.data()) % 64, 0u);
    starts.push_back(block.data());
    ExpectEveryKeyMatches(*tables[t], keys);
  }
  std::sort(starts.begin(), starts.end());
  EXPECT_EQ(std::unique(starts.begin(), starts.end()), starts.end());
  EXPECT_GE(arena.MappedBytes(),
            kThreads * (*heap)->filter_block_contents().size());
}

INSTANTIATE_TEST_SUITE_P(FormatVersions, RocksDbTableTest,
                         ::testing::Range(0, 6));

}  // namespace
}  // namespace sstfilter
