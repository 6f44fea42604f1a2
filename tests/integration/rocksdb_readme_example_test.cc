// README.md's "Inside RocksDB" example, compiled and run. The code between
// the START and END markers must equal the example block in that section of
// README.md (ReadmeShowsThisCode checks).

#include <iostream>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engines/rocksdb/rocksdb_adapter.h"
#include "filter/bloom/bloom.h"
#include "rocksdb/db.h"
#include "rocksdb/table.h"

// [START readme_rocksdb_example]
// Opens a RocksDB database at path whose tables carry sstfilter's native
// filter, writes a key, flushes it to a table, and reads it back.
absl::Status RocksDbExample(const std::string& path, std::ostream& out) {
  absl::StatusOr<std::unique_ptr<const sstfilter::FilterPolicy>> policy =
      sstfilter::NewBloomFilterPolicy(sstfilter::FilterOptions::Fpp(0.01));
  if (!policy.ok()) return policy.status();

  rocksdb::BlockBasedTableOptions table_options;
  table_options.filter_policy =  // shares ownership of the policy
      sstfilter::AsRocksDbFilterPolicy(std::move(*policy));
  rocksdb::Options options;
  options.create_if_missing = true;
  options.table_factory.reset(
      rocksdb::NewBlockBasedTableFactory(table_options));

  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, path, &raw);
  if (!s.ok()) return absl::InternalError(s.ToString());
  std::unique_ptr<rocksdb::DB> db(raw);
  s = db->Put(rocksdb::WriteOptions(), "apple", "red");
  if (s.ok()) s = db->Flush(rocksdb::FlushOptions());  // a table + its filter
  std::string value;
  if (s.ok()) s = db->Get(rocksdb::ReadOptions(), "apple", &value);
  if (!s.ok()) return absl::InternalError(s.ToString());
  out << "apple: " << value << "\n";                      // apple: red
  s = db->Get(rocksdb::ReadOptions(), "durian", &value);  // the filter says no
  out << "durian: " << (s.IsNotFound() ? "not found" : s.ToString()) << "\n";
  return absl::OkStatus();
}
// [END readme_rocksdb_example]

#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/slice_transform.h"

// [START readme_rocksdb_prefix_example]
// Options for a database whose seeks stay within an 8-byte prefix and whose
// filters need not all fit in the block cache.
rocksdb::Options PrefixAndPartitionOptions(
    std::shared_ptr<const rocksdb::FilterPolicy> policy) {
  rocksdb::BlockBasedTableOptions table_options;
  table_options.filter_policy = std::move(policy);  // AsRocksDbFilterPolicy
  table_options.whole_key_filtering = true;         // whole keys and prefixes
  table_options.partition_filters = true;
  table_options.index_type =
      rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;  // required
  table_options.metadata_block_size = 4096;  // bytes per partition
  table_options.cache_index_and_filter_blocks = true;
  table_options.pin_top_level_index_and_filter = true;
  rocksdb::Options options;
  options.prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(8));
  options.table_factory.reset(
      rocksdb::NewBlockBasedTableFactory(table_options));
  return options;
}
// [END readme_rocksdb_prefix_example]

#include <sstream>

#include "absl/strings/str_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rocksdb/statistics.h"
#include "table/table_filter.h"
#include "table/testing/real_tables.h"
#include "tests/integration/rocksdb_db_util.h"
#include "util/testing/readme.h"

namespace sstfilter {
namespace {

TEST(ReadmeRocksDbExampleTest, Runs) {
  test::TempDir dir;
  std::ostringstream out;
  const absl::Status status = RocksDbExample(dir.path(), out);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(out.str(), "apple: red\ndurian: not found\n");

  // The table the example flushed holds the native filter, and the filter
  // does rule "durian" out.
  const std::vector<std::string> tables = test::TableFiles(dir.path());
  ASSERT_EQ(tables.size(), 1u);
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::OpenFile(tables[0], {});
  ASSERT_TRUE(table.ok()) << table.status();
  ASSERT_TRUE((*table)->info().filter.has_value());
  EXPECT_EQ((*table)->info().filter->policy_name, "sstfilter.LocalBloom2");
  EXPECT_TRUE((*table)->KeyMayMatch("apple"));
  EXPECT_FALSE((*table)->KeyMayMatch("durian"));
}

// Groups of keys under 8-byte prefixes, in a database with the prefix and
// partition options: every key is found by Get and by a prefix Seek, a seek
// to an absent prefix is answered by the filters, and the tables' filters are
// partitioned and hold prefixes.
TEST(ReadmeRocksDbExampleTest, PrefixAndPartitionOptionsWork) {
  constexpr int kGroups = 200, kKeysPerGroup = 50;
  test::TempDir dir;
  rocksdb::Options options = PrefixAndPartitionOptions(AsRocksDbFilterPolicy(
      std::move(*NewBloomFilterPolicy(FilterOptions::Fpp(0.01)))));
  options.create_if_missing = true;
  options.statistics = rocksdb::CreateDBStatistics();
  rocksdb::DB* raw = nullptr;
  ASSERT_TRUE(rocksdb::DB::Open(options, dir.path(), &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  const auto key = [](int group, int i) {
    return absl::StrFormat("p%07d-%05d", 2 * group, i);  // odd groups: absent
  };
  for (int g = 0; g < kGroups; ++g) {
    for (int i = 0; i < kKeysPerGroup; ++i) {
      ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), key(g, i), "v").ok());
    }
  }
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  for (int g = 0; g < kGroups; ++g) {
    std::string value;
    ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), key(g, 7), &value).ok());
    std::unique_ptr<rocksdb::Iterator> it(
        db->NewIterator(rocksdb::ReadOptions()));
    const std::string prefix = key(g, 0).substr(0, 8);
    int found = 0;
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix);
         it->Next()) {
      ++found;
    }
    ASSERT_EQ(found, kKeysPerGroup) << prefix;
  }
  // A seek the filter turned away: BLOOM_FILTER_PREFIX_USEFUL in RocksDB 7.8,
  // its own tickers since (SeekFiltered).
  auto seeks_filtered = [&] {
    return options.statistics->getTickerCount(
               rocksdb::BLOOM_FILTER_PREFIX_USEFUL) +
           test::SeekFiltered(*options.statistics);
  };
  const uint64_t useful_before = seeks_filtered();
  int absent_seen = 0;
  for (int g = 0; g < kGroups; ++g) {
    std::unique_ptr<rocksdb::Iterator> it(
        db->NewIterator(rocksdb::ReadOptions()));
    const std::string absent = absl::StrFormat("p%07d", 2 * g + 1);
    it->Seek(absent);
    absent_seen += it->Valid() && it->key().starts_with(absent);
  }
  EXPECT_EQ(absent_seen, 0);
  EXPECT_GE(seeks_filtered() - useful_before, kGroups * 9 / 10)
      << "seeks to absent prefixes are answered by the filter";
  db.reset();

  const std::vector<std::string> tables = test::TableFiles(dir.path());
  ASSERT_EQ(tables.size(), 1u);
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::OpenFile(tables[0], {});
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ((*table)->info().filter->layout, FilterLayout::kPartitioned);
  EXPECT_GT((*table)->info().num_filters, 1u);
  EXPECT_TRUE((*table)->FiltersPrefixes());
  EXPECT_TRUE((*table)->PrefixMayMatch(key(3, 0).substr(0, 8)));
}

TEST(ReadmeRocksDbExampleTest, ReadmeShowsThePrefixExample) {
  test::ExpectReadmeShows("engines/rocksdb/README.md",
                          "## Prefix seeks and partitioned filters",
                          "tests/integration/rocksdb_readme_example_test.cc",
                          "readme_rocksdb_prefix_example", "PrefixMayMatch");
}

TEST(ReadmeRocksDbExampleTest, ReadmeShowsThisCode) {
  test::ExpectReadmeShows("## Inside RocksDB",
                          "tests/integration/rocksdb_readme_example_test.cc",
                          "readme_rocksdb_example", "//engines/rocksdb");
}

}  // namespace
}  // namespace sstfilter
