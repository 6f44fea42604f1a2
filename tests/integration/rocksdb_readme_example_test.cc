// README.md's "Inside RocksDB" example, compiled and run. The code between
// the START and END markers must equal the example block in that section of
// README.md (ReadmeShowsThisCode checks).

// [START readme_rocksdb_example]
#include <iostream>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "filter/adapters/rocksdb_adapter.h"
#include "filter/bloom/bloom.h"
#include "rocksdb/db.h"
#include "rocksdb/table.h"

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

#include <sstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "table/table_filter.h"
#include "tests/integration/rocksdb_db_util.h"
#include "tests/testing/readme.h"
#include "tests/testing/real_tables.h"

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
  EXPECT_EQ((*table)->info().filter->policy_name, "sstfilter.LocalBloom1");
  EXPECT_TRUE((*table)->KeyMayMatch("apple"));
  EXPECT_FALSE((*table)->KeyMayMatch("durian"));
}

TEST(ReadmeRocksDbExampleTest, ReadmeShowsThisCode) {
  test::ExpectReadmeShows(
      "## Inside RocksDB", "tests/integration/rocksdb_readme_example_test.cc",
      "readme_rocksdb_example", "//filter/adapters:rocksdb");
}

}  // namespace
}  // namespace sstfilter
