// The example of README.md's "In front of a whole RocksDB", compiled and run
// on a real database. The code between the START and END markers must equal
// the README's block (ReadmeShowsThisCode).

#include <iostream>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "rocksdb/db.h"
#include "rocksdb/iterator.h"

// [START readme_presence_example]
// Opens a RocksDB database behind a presence filter, writes a key, looks up
// a present and an absent one, and scans an empty range.
absl::Status PresenceExample(const std::string& path, std::ostream& out) {
  rocksdb::Options options;
  options.create_if_missing = true;
  sstfilter::PresenceFilterOptions filter_options;
  filter_options.fpp = 0.01;
  filter_options.expected_keys = 1000000;    // grown by a rebuild if passed
  filter_options.filter_range_seeks = true;  // empty short scans too
  absl::StatusOr<std::unique_ptr<sstfilter::PresenceFilteredDB>> db =
      sstfilter::PresenceFilteredDB::Open(options, path, filter_options);
  if (!db.ok()) return db.status();
  rocksdb::Status s = (*db)->Put(rocksdb::WriteOptions(), "apple", "red");
  std::string value;
  if (s.ok()) s = (*db)->Get(rocksdb::ReadOptions(), "apple", &value);
  if (!s.ok()) return absl::InternalError(s.ToString());
  out << "apple: " << value << "\n";                         // apple: red
  s = (*db)->Get(rocksdb::ReadOptions(), "durian", &value);  // one probe
  out << "durian: " << (s.IsNotFound() ? "not found" : s.ToString()) << "\n";
  rocksdb::Slice upper("durian~");
  rocksdb::ReadOptions scan;
  scan.iterate_upper_bound = &upper;
  std::unique_ptr<rocksdb::Iterator> it((*db)->NewIterator(scan));
  it->Seek("durian");  // [durian, durian~): a few probes
  out << "scan: " << (it->Valid() ? it->key().ToString() : "empty") << "\n";
  it.reset();
  return (*db)->CloseAndSave();  // the next open reads no table
}
// [END readme_presence_example]

#include <chrono>
#include <sstream>

#include "gtest/gtest.h"
#include "rocksdb/statistics.h"
#include "table/testing/real_tables.h"
#include "util/testing/readme.h"

namespace sstfilter {
namespace {

TEST(ReadmePresenceExampleTest, PrintsWhatItPromises) {
  test::TempDir dir;
  std::ostringstream out;
  absl::Status status = PresenceExample(dir.path(), out);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(out.str(), "apple: red\ndurian: not found\nscan: empty\n");

  // Reopened from its save, the filter serves at once and answers the
  // absent key and the empty scan without RocksDB.
  rocksdb::Options options;
  options.statistics = rocksdb::CreateDBStatistics();
  PresenceFilterOptions filter_options;
  filter_options.filter_range_seeks = true;
  filter_options.skip_probes_when_mostly_present = false;
  absl::StatusOr<std::unique_ptr<PresenceFilteredDB>> db =
      PresenceFilteredDB::Open(options, dir.path(), filter_options);
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_TRUE((*db)->WaitUntilServing(std::chrono::seconds(60)).ok());
  EXPECT_EQ((*db)->Stats((*db)->DefaultColumnFamily()).last_rebuild,
            PresenceRebuildReason::kNone);
  std::string value;
  EXPECT_TRUE(
      (*db)->Get(rocksdb::ReadOptions(), "durian", &value).IsNotFound());
  EXPECT_TRUE((*db)->Get(rocksdb::ReadOptions(), "apple", &value).ok());
  EXPECT_EQ(options.statistics->getTickerCount(rocksdb::NUMBER_KEYS_READ), 1u)
      << "only apple's Get reached RocksDB";
  rocksdb::Slice upper("durian~");
  rocksdb::ReadOptions scan;
  scan.iterate_upper_bound = &upper;
  std::unique_ptr<rocksdb::Iterator> it((*db)->NewIterator(scan));
  it->Seek("durian");
  EXPECT_FALSE(it->Valid());
  it->Seek("apple");
  EXPECT_TRUE(it->Valid());
  EXPECT_EQ(options.statistics->getTickerCount(rocksdb::NUMBER_DB_SEEK), 1u)
      << "only the scan from apple reached RocksDB";
}

TEST(ReadmePresenceExampleTest, ReadmeShowsThisCode) {
  test::ExpectReadmeShows("## In front of a whole RocksDB",
                          "engines/rocksdb/presence/readme_example_test.cc",
                          "readme_presence_example",
                          "//engines/rocksdb/presence");
}

}  // namespace
}  // namespace sstfilter
