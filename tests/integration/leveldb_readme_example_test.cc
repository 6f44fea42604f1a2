// engines/leveldb/README.md's example, compiled and run. The code between
// the START and END markers must equal the example block there
// (ReadmeShowsThisCode checks).

// [START leveldb_readme_example]
#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engines/leveldb/leveldb_adapter.h"
#include "filter/bloom/bloom.h"
#include "leveldb/db.h"

// Opens the LevelDB database at path (creating it if missing) with sstfilter's
// native filter in its tables, stores a key and reads it back into *value.
absl::Status LevelDbExample(const std::string& path, std::string* value) {
  absl::StatusOr<std::unique_ptr<const sstfilter::FilterPolicy>> policy =
      sstfilter::NewBloomFilterPolicy(sstfilter::FilterOptions::Fpp(0.01));
  if (!policy.ok()) return policy.status();
  // Declared before the database, so that it outlives it.
  const std::unique_ptr<leveldb::FilterPolicy> filter =
      sstfilter::AsLevelDbFilterPolicy(*std::move(policy));

  leveldb::Options options;
  options.create_if_missing = true;
  options.filter_policy = filter.get();  // kept by db as a raw pointer
  leveldb::DB* raw = nullptr;
  leveldb::Status s = leveldb::DB::Open(options, path, &raw);
  const std::unique_ptr<leveldb::DB> db(raw);
  if (s.ok()) s = db->Put(leveldb::WriteOptions(), "apple", "red");
  if (s.ok()) s = db->Get(leveldb::ReadOptions(), "apple", value);
  if (!s.ok()) return absl::InternalError(s.ToString());
  return absl::OkStatus();
}
// [END leveldb_readme_example]

#include <vector>

#include "gtest/gtest.h"
#include "table/table_filter.h"
#include "table/testing/real_tables.h"
#include "util/testing/readme.h"

namespace sstfilter {
namespace {

// The first run leaves "apple" in LevelDB's log; the second, reopening the
// database, writes the log into a table, with the native filter under its
// name: the example wires the filter into the tables it writes.
TEST(LevelDbReadmeExampleTest, RunsAndWritesTheFilter) {
  test::TempDir dir;
  const std::string path = dir.File("db");
  for (int run = 0; run < 2; ++run) {
    std::string value;
    const absl::Status status = LevelDbExample(path, &value);
    ASSERT_TRUE(status.ok()) << status;
    EXPECT_EQ(value, "red");
  }

  const std::vector<std::string> tables = test::LevelDbTableFiles(path);
  ASSERT_EQ(tables.size(), 1u);
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::OpenFile(tables[0], TableFilterOptions());
  ASSERT_TRUE(table.ok()) << table.status();
  ASSERT_TRUE((*table)->info().filter.has_value());
  EXPECT_EQ((*table)->info().filter->policy_name, "sstfilter.LocalBloom2");
  EXPECT_TRUE((*table)->KeyMayMatch("apple"));
}

TEST(LevelDbReadmeExampleTest, ReportsAnUnopenableDatabase) {
  test::TempDir dir;
  const std::string not_a_dir = dir.File("file");
  ASSERT_TRUE(test::WriteFileBytes(not_a_dir, "x").ok());
  std::string value;
  const absl::Status status = LevelDbExample(not_a_dir + "/db", &value);
  EXPECT_TRUE(absl::IsInternal(status)) << status;
  EXPECT_EQ(value, "");
}

TEST(LevelDbReadmeExampleTest, ReadmeShowsThisCode) {
  test::ExpectReadmeShows("engines/leveldb/README.md", "## Example",
                          "tests/integration/leveldb_readme_example_test.cc",
                          "leveldb_readme_example", "//engines/leveldb");
}

}  // namespace
}  // namespace sstfilter
