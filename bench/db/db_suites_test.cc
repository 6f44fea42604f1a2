// Tests of db_bench's suites: the default run's keys, the full run's, the
// sections' fewer, --keys and --section_keys over either, and one-line errors
// naming the flag.

#include "bench/db/db_suites.h"

#include <string>

#include "gtest/gtest.h"

namespace sstfilter {
namespace bench {
namespace {

// The default answers in about two minutes; --suite=full is the 10^7-key run
// the project's README reports.
TEST(DbSuitesTest, HeadlineIsSmallerThanFull) {
  absl::StatusOr<uint64_t> headline = DbKeys(kDefaultDbSuite, std::nullopt);
  absl::StatusOr<uint64_t> full = DbKeys("full", std::nullopt);
  ASSERT_TRUE(headline.ok()) << headline.status();
  ASSERT_TRUE(full.ok()) << full.status();
  EXPECT_EQ(*headline, 2'000'000u);
  EXPECT_EQ(*full, 10'000'000u);
}

// The partitioned-filter and prefix-seek sections build fewer keys, so that
// they add a fraction of the point lookups' time.
TEST(DbSuitesTest, DeepIsFullInSmallerTablesWithDirectReads) {
  const absl::StatusOr<DbSuite> full = FindDbSuite("full");
  const absl::StatusOr<DbSuite> deep = FindDbSuite("deep");
  const absl::StatusOr<DbSuite> headline = FindDbSuite(kDefaultDbSuite);
  ASSERT_TRUE(full.ok() && deep.ok() && headline.ok());
  EXPECT_EQ(deep->keys, full->keys);
  EXPECT_LT(deep->rocksdb_table_bytes, full->rocksdb_table_bytes);
  EXPECT_EQ(full->rocksdb_table_bytes, kDefaultRocksDbTableBytes);
  EXPECT_EQ(headline->rocksdb_table_bytes, kDefaultRocksDbTableBytes);
  EXPECT_TRUE(full->direct_reads);
  EXPECT_TRUE(deep->direct_reads);
  EXPECT_FALSE(headline->direct_reads);
  EXPECT_LE(headline->lookups, full->lookups);
  EXPECT_FALSE(FindDbSuite("shallow").ok());
}

TEST(DbSuitesTest, SectionsTakeFewerKeysThanThePointLookups) {
  for (const DbSuite& suite : AllDbSuites()) {
    SCOPED_TRACE(suite.name);
    absl::StatusOr<uint64_t> keys = DbKeys(suite.name, std::nullopt);
    absl::StatusOr<uint64_t> section = DbSectionKeys(suite.name, std::nullopt);
    ASSERT_TRUE(keys.ok()) << keys.status();
    ASSERT_TRUE(section.ok()) << section.status();
    EXPECT_EQ(*section, suite.section_keys);
    EXPECT_LT(*section, *keys);
  }
  EXPECT_EQ(DbSectionKeys(kDefaultDbSuite, std::nullopt).value_or(0), 400'000u);
}

TEST(DbSuitesTest, KeysReplaceTheSuitesCount) {
  EXPECT_EQ(DbKeys("full", 20'000).value_or(0), 20'000u);
  EXPECT_EQ(DbKeys(kDefaultDbSuite, 1).value_or(0), 1u);
  EXPECT_EQ(DbSectionKeys("full", 20'000).value_or(0), 20'000u);
}

TEST(DbSuitesTest, BadValuesAreOneLineErrorsNamingTheFlag) {
  absl::StatusOr<uint64_t> unknown = DbKeys("fast", std::nullopt);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(unknown.status().message(),
            "--suite=fast: unknown suite 'fast' (the suites are headline, "
            "full, deep)");
  absl::StatusOr<uint64_t> none = DbKeys("full", 0);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(std::string(none.status().message()).rfind("--keys=0: ", 0), 0u);
  absl::StatusOr<uint64_t> no_section = DbSectionKeys("full", 0);
  ASSERT_FALSE(no_section.ok());
  EXPECT_EQ(
      std::string(no_section.status().message()).rfind("--section_keys=0: ", 0),
      0u);
  EXPECT_FALSE(DbSectionKeys("fast", std::nullopt).ok());
}

// --help gives every suite's keys and how long its run takes.
TEST(DbSuitesTest, UsageGivesEachSuitesKeysAndDuration) {
  const std::string usage = DbSuitesUsage();
  for (const DbSuite& suite : AllDbSuites()) {
    SCOPED_TRACE(suite.name);
    EXPECT_EQ(std::string(suite.duration).rfind("about ", 0), 0u);
    const size_t at = usage.find(std::string("  ") + suite.name + " ");
    ASSERT_NE(at, std::string::npos) << usage;
    const std::string line = usage.substr(at, usage.find('\n', at) - at);
    EXPECT_NE(line.find(suite.duration), std::string::npos) << line;
    EXPECT_NE(line.find(std::to_string(suite.keys) + " keys"),
              std::string::npos)
        << line;
    EXPECT_NE(
        line.find(std::to_string(suite.section_keys) + " in the sections"),
        std::string::npos)
        << line;
  }
}

}  // namespace
}  // namespace bench
}  // namespace sstfilter
