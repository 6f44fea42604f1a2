// Tests of db_bench's suites: the default run's keys, the full run's, --keys
// over either, and one-line errors naming the flag.

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

TEST(DbSuitesTest, KeysReplaceTheSuitesCount) {
  EXPECT_EQ(DbKeys("full", 20'000).value_or(0), 20'000u);
  EXPECT_EQ(DbKeys(kDefaultDbSuite, 1).value_or(0), 1u);
}

TEST(DbSuitesTest, BadValuesAreOneLineErrorsNamingTheFlag) {
  absl::StatusOr<uint64_t> unknown = DbKeys("fast", std::nullopt);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(unknown.status().message(),
            "--suite=fast: unknown suite 'fast' (the suites are headline, "
            "full)");
  absl::StatusOr<uint64_t> none = DbKeys("full", 0);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(std::string(none.status().message()).rfind("--keys=0: ", 0), 0u);
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
  }
}

}  // namespace
}  // namespace bench
}  // namespace sstfilter
