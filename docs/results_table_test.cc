#include "docs/results_table.h"

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace docs {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A file of this workspace from the test's runfiles.
absl::StatusOr<std::string> ReadRunfile(const std::string& path) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  if (srcdir == nullptr) return absl::FailedPreconditionError("not bazel test");
  std::ifstream in(
      absl::StrCat(srcdir, "/", workspace != nullptr ? workspace : "sstfilter",
                   "/", path),
      std::ios::binary);
  if (!in.good())
    return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

// The committed tables are what the committed JSON gives: a hand edit of a
// table, or new JSON without `bazel run //docs:results_table`, fails here.
TEST(ResultsTableTest, DocumentsShowTheTablesTheirJsonGives) {
  for (const std::string file : {"README.md", "docs/results.md"}) {
    absl::StatusOr<std::string> markdown = ReadRunfile(file);
    ASSERT_TRUE(markdown.ok()) << markdown.status();
    EXPECT_THAT(*markdown, HasSubstr("<!-- results:begin headline"))
        << file << " lost its headline results";
    absl::StatusOr<std::string> regenerated =
        RegenerateBlocks(*markdown, ReadRunfile);
    ASSERT_TRUE(regenerated.ok()) << file << ": " << regenerated.status();
    EXPECT_EQ(*regenerated, *markdown)
        << file << "'s results tables differ from docs/results/*.json; run "
        << "bazel run //docs:results_table";
  }
}

constexpr char kAbout[] =
    R"({"command": "filter_bench --format=json", "machine": "a test machine",
        "date": "2000-01-01", "commit": "abc1234", "notes": ["ignored"]})";

// Two cases as a later filter_bench might print them: fields this program
// does not know, a workload without LevelDB, figures that were not measured.
constexpr char kRows[] =
    R"({"impl": "bloom", "workload": "random16", "keys": 10000, "filters": 1, "bits_per_key_config": 10, "fpp_config": null, "placement": "natural", "huge_pages": false, "bits_per_key": 10.0, "fp_rate": 0.00958, "build_ns_per_key": 20.0, "query_ns_negative": 5.0, "query_ns_batched": 6.0, "reps": 3, "a_new_field": {"x": [1, 2]}}
{"impl": "lib:leveldb.bloom", "workload": "random16", "keys": 10000, "filters": 1, "bits_per_key_config": 10, "fpp_config": null, "placement": "natural", "huge_pages": false, "bits_per_key": 10.0, "fp_rate": 0.00911, "build_ns_per_key": 50.0, "query_ns_negative": 20.0, "query_ns_batched": null, "reps": 3}
{"impl": "lib:rocksdb.fastbloom", "workload": "random16", "keys": 10000, "filters": 1, "bits_per_key_config": 10, "fpp_config": null, "placement": "natural", "huge_pages": false, "bits_per_key": 10.04, "fp_rate": 0.0097, "build_ns_per_key": 40.0, "query_ns_negative": 10.0, "query_ns_batched": 12.0, "reps": 3}

{"impl": "bloom", "workload": "lsm6400", "keys": 10000, "filters": 6400, "bits_per_key_config": 10, "fpp_config": null, "placement": "natural", "huge_pages": true, "bits_per_key": 10.0, "fp_rate": 0.00979, "build_ns_per_key": 17.0, "query_ns_negative": 75.0, "query_ns_batched": 40.0, "reps": 3}
{"impl": "lib:rocksdb.fastbloom", "workload": "lsm6400", "keys": 10000, "filters": 6400, "bits_per_key_config": 10, "fpp_config": null, "placement": "natural", "huge_pages": true, "bits_per_key": 10.04, "fp_rate": 0.00947, "build_ns_per_key": 26.0, "query_ns_negative": 100.0, "reps": 3}
)";

TEST(ResultsTableTest, RatiosComeFromThePeersOfTheSameCase) {
  absl::StatusOr<std::string> table = ResultsTable(kRows, kAbout, {});
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_THAT(*table, HasSubstr("`filter_bench --format=json` on a test "
                                "machine. Times are ns per key, medians of 3 "
                                "repetitions: `absent`"));
  EXPECT_THAT(*table, Not(HasSubstr("2000-01-01")));
  // absent 5 / 10 and 5 / 20; batch 6 / 12; build 20 / 40 and 20 / 50.
  EXPECT_THAT(*table,
              HasSubstr("| random16, 10^4 keys, 10 bits/key | `bloom` | "
                        "10.00 | 0.958 | 5.0 | 0.50 | 0.25 | 6.0 | 0.50 | "
                        "20.0 | 0.50 | 0.40 |\n"));
  // LevelDB has no batch; its ratios to itself are 1.
  EXPECT_THAT(*table,
              HasSubstr("|  | `lib:leveldb.bloom` | 10.00 | 0.911 | 20.0 | "
                        "2.00 | 1.00 | – | – | 50.0 | 1.25 | 1.00 |\n"));
  // No LevelDB in this case, and RocksDB's batch is missing.
  EXPECT_THAT(*table, HasSubstr("| lsm6400, 6,400 filters of 10^4 keys, 10 "
                                "bits/key, huge pages | `bloom` | 10.00 | "
                                "0.979 | 75.0 | 0.75 | – | 40.0 | – | 17.0 | "
                                "0.65 | – |\n"));
}

TEST(ResultsTableTest, TablesNameTheirRunButNotItsDateOrCommit) {
  TableOptions options;
  absl::StatusOr<std::string> table = ResultsTable(kRows, kAbout, options);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_THAT(*table, HasSubstr("`filter_bench --format=json` on a test "
                                "machine."));
  EXPECT_THAT(*table, HasSubstr("| `bloom` |"));
  EXPECT_THAT(*table, Not(HasSubstr("2000-01-01")));
  EXPECT_THAT(*table, Not(HasSubstr("abc1234")));

  options.about_only = true;
  table = ResultsTable(kRows, kAbout, options);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ(*table, "Run: `filter_bench --format=json` on a test machine.\n");
}

// A sweep prints one implementation several times in one workload: each
// size is a case of its own.
TEST(ResultsTableTest, ASweepIsOneCasePerSize) {
  const std::string rows =
      R"({"impl": "bloom", "workload": "random16", "keys": 1000000, "bits_per_key_config": 8, "fpp_config": null, "query_ns_negative": 4}
{"impl": "lib:rocksdb.fastbloom", "workload": "random16", "keys": 1000000, "bits_per_key_config": 8, "fpp_config": null, "query_ns_negative": 8}
{"impl": "bloom", "workload": "random16", "keys": 1000000, "bits_per_key_config": 12, "fpp_config": null, "query_ns_negative": 5}
{"impl": "lib:rocksdb.fastbloom", "workload": "random16", "keys": 1000000, "bits_per_key_config": 12, "fpp_config": null, "query_ns_negative": 20}
)";
  absl::StatusOr<std::string> table = ResultsTable(rows, kAbout, {});
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_THAT(*table, HasSubstr("| random16, 10^6 keys, 8 bits/key | "
                                "`bloom` | – | – | 4.0 | 0.50 |"));
  EXPECT_THAT(*table, HasSubstr("| random16, 10^6 keys, 12 bits/key | "
                                "`bloom` | – | – | 5.0 | 0.25 |"));
}

// Rows left out still serve as the peers of the rows kept.
TEST(ResultsTableTest, KeepsOnlyTheImplementationsAsked) {
  TableOptions options;
  options.impls = {"bloom"};
  absl::StatusOr<std::string> table = ResultsTable(kRows, kAbout, options);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_THAT(*table, Not(HasSubstr("| `lib:leveldb.bloom` |")));
  EXPECT_THAT(*table, Not(HasSubstr("| `lib:rocksdb.fastbloom` |")));
  EXPECT_THAT(*table, HasSubstr("| random16, 10^4 keys, 10 bits/key | "
                                "`bloom` | 10.00 | 0.958 | 5.0 | 0.50 | "
                                "0.25 |"));
}

TEST(ResultsTableTest, RefusesWhatIsNotFilterBenchJson) {
  for (const std::string rows :
       {"", "\n\n", "[1, 2]", "{\"impl\": \"x\", \"keys\": 1}",
        "{\"impl\": \"x\", \"workload\": \"w\", \"keys\": 1}\nnot json"}) {
    EXPECT_TRUE(
        absl::IsInvalidArgument(ResultsTable(rows, kAbout, {}).status()))
        << rows;
  }
  EXPECT_TRUE(absl::IsInvalidArgument(
      ResultsTable(kRows, R"({"command": "c"})", {}).status()));
}

// Only the text between the markers is rewritten.
TEST(ResultsTableTest, RegeneratesOnlyTheBlocks) {
  const std::map<std::string, std::string> files = {
      {"docs/results/run.json", kRows}, {"docs/results/run.run.json", kAbout}};
  const FileReader read =
      [&](const std::string& path) -> absl::StatusOr<std::string> {
    const auto it = files.find(path);
    if (it == files.end()) return absl::NotFoundError(path);
    return it->second;
  };
  const std::string markdown =
      "# Title\n\nBefore.\n<!-- results:begin run -->\n| stale |\n"
      "<!-- results:end -->\nAfter.\n";
  absl::StatusOr<std::string> out = RegenerateBlocks(markdown, read);
  ASSERT_TRUE(out.ok()) << out.status();
  absl::StatusOr<std::string> table = ResultsTable(kRows, kAbout, {});
  ASSERT_TRUE(table.ok());
  EXPECT_EQ(*out, absl::StrCat("# Title\n\nBefore.\n"
                               "<!-- results:begin run -->\n",
                               *table, "<!-- results:end -->\nAfter.\n"));
  absl::StatusOr<std::string> again = RegenerateBlocks(*out, read);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *out);

  EXPECT_TRUE(absl::IsNotFound(
      RegenerateBlocks("<!-- results:begin other -->\n<!-- results:end -->\n",
                       read)
          .status()));
  EXPECT_TRUE(absl::IsInvalidArgument(
      RegenerateBlocks("<!-- results:begin run -->\n| no end |\n", read)
          .status()));
  EXPECT_TRUE(absl::IsInvalidArgument(
      RegenerateBlocks("<!-- results:begin -->\n<!-- results:end -->\n", read)
          .status()));
  EXPECT_TRUE(absl::IsInvalidArgument(
      RegenerateBlocks("<!-- results:begin run sorted -->\n"
                       "<!-- results:end -->\n",
                       read)
          .status()));

  absl::StatusOr<std::string> some = RegenerateBlocks(
      "<!-- results:begin run impls=lib:leveldb.bloom,bloom -->\n"
      "<!-- results:end -->\n",
      read);
  ASSERT_TRUE(some.ok()) << some.status();
  EXPECT_THAT(*some, HasSubstr("| `bloom` |"));
  EXPECT_THAT(*some, HasSubstr("| `lib:leveldb.bloom` |"));
  EXPECT_THAT(*some, Not(HasSubstr("| `lib:rocksdb.fastbloom` |")));
}

}  // namespace
}  // namespace docs
}  // namespace sstfilter
