// TableFilter on RocksDB 7.8.3 tables with partitioned or full filters and
// prefix filtering, written by RocksDB itself (SstFileWriter and a database)
// with sstfilter's policies through the adapter and with RocksDB's own Bloom
// and Ribbon filters: every key and every prefix a table holds matches, absent
// ones are ruled out at about the filter's rate, and a question reads only
// the partition it needs.

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engines/rocksdb/rocksdb_adapter.h"
#include "filter/bloom/bloom.h"
#include "filter/burr/burr.h"
#include "filter/prefix_extractor.h"
#include "gtest/gtest.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/slice_transform.h"
#include "table/table_filter.h"
#include "table/testing/real_tables.h"
#include "util/grouped_keys.h"

namespace sstfilter {
namespace {

constexpr double kFpp = 0.01;  // our policies'; RocksDB's at 10 bits
constexpr double kRocksDbBitsPerKey = 10;
constexpr size_t kGroups = 400;
constexpr size_t kKeysPerGroup = 25;
constexpr size_t kAbsent = 5000;
constexpr int kMetadataBlockBytes = 512;  // many small partitions

// At most this share of absent keys may match: twice the configured rate
// (partitions are small filters, whose rate wanders above the nominal one)
// plus four binomial standard deviations. A filter that is not consulted, or
// answers "maybe" throughout, matches them all.
double MaxMatchRate(size_t n) {
  const double p = 2 * kFpp;
  return p + 4 * std::sqrt(p / static_cast<double>(n));
}

enum class Policy { kNative, kCompact, kRocksDbBloom, kRocksDbRibbon };
enum class Prefixes { kNone, kWholeAndPrefix, kPrefixOnly };

struct Case {
  Policy policy;
  Prefixes prefixes;
  bool partitioned;  // else one full filter
};

std::vector<Case> AllCases() {
  std::vector<Case> cases;
  for (Policy policy : {Policy::kNative, Policy::kCompact,
                        Policy::kRocksDbBloom, Policy::kRocksDbRibbon}) {
    for (Prefixes prefixes :
         {Prefixes::kNone, Prefixes::kWholeAndPrefix, Prefixes::kPrefixOnly}) {
      for (bool partitioned : {true, false}) {
        cases.push_back({policy, prefixes, partitioned});
      }
    }
  }
  return cases;
}

std::string CaseName(const testing::TestParamInfo<Case>& info) {
  static const char* kPolicies[] = {"Native", "Compact", "RocksDbBloom",
                                    "RocksDbRibbon"};
  static const char* kPrefixes[] = {"WholeKeys", "WholeAndPrefix",
                                    "PrefixOnly"};
  return absl::StrCat(kPolicies[static_cast<int>(info.param.policy)],
                      kPrefixes[static_cast<int>(info.param.prefixes)],
                      info.param.partitioned ? "Partitioned" : "Full");
}

std::shared_ptr<const rocksdb::FilterPolicy> RocksDbPolicy(Policy policy) {
  switch (policy) {
    case Policy::kNative:
      return AsRocksDbFilterPolicy(
          std::move(*NewBloomFilterPolicy(FilterOptions::Fpp(kFpp))));
    case Policy::kCompact:
      return AsRocksDbFilterPolicy(
          std::move(*NewBurrFilterPolicy(FilterOptions::Fpp(kFpp))));
    case Policy::kRocksDbBloom:
      return std::shared_ptr<const rocksdb::FilterPolicy>(
          rocksdb::NewBloomFilterPolicy(kRocksDbBitsPerKey));
    case Policy::kRocksDbRibbon:
      return std::shared_ptr<const rocksdb::FilterPolicy>(
          rocksdb::NewRibbonFilterPolicy(kRocksDbBitsPerKey));
  }
  return nullptr;
}

class PartitionedTableTest : public testing::TestWithParam<Case> {
 protected:
  static void SetUpTestSuite() {
    keys_ = new GroupedKeys(
        MakeReadableGroupedKeys(kGroups, kKeysPerGroup, kAbsent, /*seed=*/24));
  }
  static void TearDownTestSuite() { delete keys_; }

  test::RocksDbTableOptions TableOptions() const {
    test::RocksDbTableOptions options;
    options.filter_policy = RocksDbPolicy(GetParam().policy);
    options.partition_filters = GetParam().partitioned;
    options.metadata_block_size = kMetadataBlockBytes;
    options.block_size = 1024;
    if (GetParam().prefixes != Prefixes::kNone) {
      options.prefix_extractor.reset(
          rocksdb::NewFixedPrefixTransform(kGroupPrefixBytes));
      options.whole_key_filtering =
          GetParam().prefixes == Prefixes::kWholeAndPrefix;
    }
    return options;
  }

  // Checks every answer of a table that holds `present` (a subset of the
  // keys: the whole set for one table, a share of it for a database's).
  void CheckTable(const TableFilter& table,
                  const std::vector<std::string>& present) {
    ASSERT_TRUE(table.corruption().ok()) << table.corruption();
    ASSERT_TRUE(table.info().filter.has_value());
    EXPECT_EQ(table.info().filter->layout, Layout());
    for (const std::string& key : present) {
      ASSERT_TRUE(table.KeyMayMatch(key)) << "false negative: " << key;
    }
    const bool prefixes = GetParam().prefixes != Prefixes::kNone;
    EXPECT_EQ(table.FiltersPrefixes(), prefixes);
    for (const std::string& key : present) {
      ASSERT_TRUE(table.PrefixMayMatch(key.substr(0, kGroupPrefixBytes)))
          << "prefix false negative: " << key;
    }
    size_t absent_keys = 0, absent_group_keys = 0, absent_prefixes = 0;
    for (const std::string& key : keys_->absent_in_present_groups) {
      absent_keys += table.KeyMayMatch(key);
    }
    for (const std::string& key : keys_->absent_in_absent_groups) {
      absent_group_keys += table.KeyMayMatch(key);
    }
    for (const std::string& key : keys_->absent_in_absent_groups) {
      absent_prefixes += table.PrefixMayMatch(key.substr(0, kGroupPrefixBytes));
    }
    const double bound = MaxMatchRate(kAbsent) * kAbsent;
    if (GetParam().prefixes == Prefixes::kPrefixOnly) {
      // Only the prefix is there to ask: a key of a present group may match.
      EXPECT_GT(absent_keys, kAbsent / 2) << "prefix-only: whole keys unseen";
    } else {
      EXPECT_LE(absent_keys, bound);
    }
    EXPECT_LE(absent_group_keys, bound);
    if (prefixes) {
      EXPECT_LE(absent_prefixes, bound);
    } else {
      EXPECT_EQ(absent_prefixes, kAbsent) << "no prefixes: every one matches";
    }
  }

  FilterLayout Layout() const {
    return GetParam().partitioned ? FilterLayout::kPartitioned
                                  : FilterLayout::kFull;
  }

  static GroupedKeys* keys_;
  test::TempDir dir_;
};

GroupedKeys* PartitionedTableTest::keys_ = nullptr;

TEST_P(PartitionedTableTest, SstFileWriterTable) {
  // format_version 5 delta-encodes the partition index's values (and keeps
  // user keys there); 2 stores whole handles and internal keys. A restart
  // interval above 1 makes entries share key bytes, where delta encoding
  // applies.
  for (int format_version : {2, 5}) {
    for (int restart_interval : {1, 4}) {
      SCOPED_TRACE(absl::StrCat("format_version ", format_version,
                                ", index restart interval ", restart_interval));
      test::RocksDbTableOptions options = TableOptions();
      options.format_version = format_version;
      options.index_block_restart_interval = restart_interval;
      const std::string path = dir_.File(
          absl::StrCat("t", format_version, "_", restart_interval, ".sst"));
      ASSERT_TRUE(test::WriteRocksDbTable(path, keys_->keys, options).ok());
      absl::StatusOr<std::unique_ptr<TableFilter>> table =
          TableFilter::OpenFile(path, {});
      ASSERT_TRUE(table.ok()) << table.status();
      const TableProperties& props = *(*table)->info().properties;
      EXPECT_EQ(props.index_value_is_delta_encoded.value_or(0) != 0,
                format_version >= 4);
      if (GetParam().partitioned) {
        EXPECT_GT((*table)->info().num_filters, 8u) << "partitions expected";
      }
      CheckTable(**table, keys_->keys);
    }
  }
}

TEST_P(PartitionedTableTest, DatabaseTables) {
  absl::StatusOr<std::vector<std::string>> tables =
      test::WriteRocksDbDatabase(dir_.path(), keys_->keys, TableOptions(),
                                 /*keys_per_flush=*/3000,
                                 /*target_file_bytes=*/256 * 1024);
  ASSERT_TRUE(tables.ok()) << tables.status();
  ASSERT_GE(tables->size(), 1u);
  std::vector<std::unique_ptr<TableFilter>> readers;
  for (const std::string& path : *tables) {
    absl::StatusOr<std::unique_ptr<TableFilter>> table =
        TableFilter::OpenFile(path, {});
    ASSERT_TRUE(table.ok()) << table.status();
    readers.push_back(std::move(*table));
  }
  // Each key is in exactly one table after the compaction; every table that
  // holds it must match it. Absent keys are asked of one table each.
  for (const std::string& key : keys_->keys) {
    bool matched = false;
    for (const auto& table : readers)
      matched = matched || table->KeyMayMatch(key);
    ASSERT_TRUE(matched) << "no table matches " << key;
  }
  for (const auto& table : readers) {
    ASSERT_TRUE(table->corruption().ok()) << table->corruption();
    EXPECT_EQ(table->info().filter->layout, Layout());
  }
  // The prefix of every present group matches in some table.
  for (const std::string& prefix : keys_->prefixes) {
    bool matched = false;
    for (const auto& table : readers) {
      matched = matched || table->PrefixMayMatch(prefix);
    }
    ASSERT_TRUE(matched) << "no table matches prefix " << prefix;
  }
}

TEST_P(PartitionedTableTest, ReadsOnlyThePartitionItNeeds) {
  if (!GetParam().partitioned)
    GTEST_SKIP() << "a full filter has no partitions";
  const std::string path = dir_.File("io.sst");
  test::RocksDbTableOptions options = TableOptions();
  ASSERT_TRUE(test::WriteRocksDbTable(path, keys_->keys, options).ok());
  // With the smallest tail no partition comes with it (those that do are
  // kept at Open, without a read of their own).
  TableFilterOptions read_options;
  read_options.tail_prefetch_bytes = 0;
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::OpenFile(path, read_options);
  ASSERT_TRUE(table.ok()) << table.status();
  const IoStats opened = (*table)->io();
  for (size_t i = 0; i < (*table)->info().num_filters; ++i) {
    ASSERT_TRUE((*table)->partition_contents(i).empty()) << "none read yet";
  }
  const std::vector<FilterPartition>& partitions = (*table)->info().partitions;
  ASSERT_GT(partitions.size(), 8u);
  const std::string& key = keys_->keys[keys_->keys.size() / 2];
  const std::optional<size_t> partition = (*table)->PartitionOf(key);
  ASSERT_TRUE(partition.has_value());
  EXPECT_TRUE((*table)->KeyMayMatch(key));
  const IoStats first = (*table)->io();
  EXPECT_EQ(first.reads, opened.reads + 1) << "one read: its partition";
  EXPECT_EQ(first.bytes - opened.bytes, partitions[*partition].handle.size + 5);
  // The partition is kept: asking again, or about another key in it, reads
  // nothing.
  EXPECT_TRUE((*table)->KeyMayMatch(key));
  size_t neighbour = keys_->keys.size() / 2 + 1;
  while ((*table)->PartitionOf(keys_->keys[neighbour]) != partition) {
    neighbour -= 2;  // the one before key: partitions hold many keys
  }
  EXPECT_TRUE((*table)->KeyMayMatch(keys_->keys[neighbour]));
  EXPECT_EQ((*table)->io().reads, first.reads);
  EXPECT_EQ((*table)->LoadAllPartitions(), absl::OkStatus());
  // A table whose tail holds every partition reads none after Open.
  TableFilterOptions whole_file;
  whole_file.tail_prefetch_bytes = 1 << 30;
  absl::StatusOr<std::unique_ptr<TableFilter>> whole =
      TableFilter::OpenFile(path, whole_file);
  ASSERT_TRUE(whole.ok()) << whole.status();
  EXPECT_EQ((*whole)->io().reads, 1);
  EXPECT_TRUE((*whole)->KeyMayMatch(key));
  EXPECT_EQ((*whole)->io().reads, 1);
  EXPECT_EQ((*table)->io().reads,
            opened.reads + static_cast<int>(partitions.size()));
}

// RocksDB's capped extractor: keys shorter than the cap are their own
// prefix. A prefix-only full filter read through the extractor rebuilt from
// the table's name finds every key and every prefix.
TEST(CappedPrefixTableTest, ShortKeysAreTheirOwnPrefix) {
  constexpr size_t kCap = 6;
  std::vector<std::string> keys;
  for (int i = 0; i < 3000; ++i) {
    // Lengths 2..12: about a third are shorter than the cap.
    keys.push_back(absl::StrCat(i * 7919 % 100000).substr(0, 2 + i % 11));
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  test::TempDir dir;
  test::RocksDbTableOptions options;
  options.filter_policy = RocksDbPolicy(Policy::kNative);
  options.whole_key_filtering = false;
  options.prefix_extractor.reset(rocksdb::NewCappedPrefixTransform(kCap));
  const std::string path = dir.File("capped.sst");
  ASSERT_TRUE(test::WriteRocksDbTable(path, keys, options).ok());
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::OpenFile(path, {});
  ASSERT_TRUE(table.ok()) << table.status();
  ASSERT_TRUE((*table)->FiltersPrefixes());
  EXPECT_EQ((*table)->info().prefix_extractor, "rocksdb.CappedPrefix.6");
  size_t absent_matches = 0, absent = 0;
  for (const std::string& key : keys) {
    ASSERT_TRUE((*table)->KeyMayMatch(key)) << key;
    ASSERT_TRUE((*table)->PrefixMayMatch(key.substr(0, kCap))) << key;
    const std::string other = "x" + key;  // no key starts with "x"
    ++absent;
    absent_matches += (*table)->PrefixMayMatch(other.substr(0, kCap));
  }
  EXPECT_LE(absent_matches, MaxMatchRate(absent) * absent);
}

INSTANTIATE_TEST_SUITE_P(AllPolicies, PartitionedTableTest,
                         testing::ValuesIn(AllCases()), CaseName);

}  // namespace
}  // namespace sstfilter
