#include "docs/results_table.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace docs {
namespace {

using ::testing::HasSubstr;
using ::testing::IsSupersetOf;
using ::testing::Not;

// The source tree's root, found from the runfile docs/results.md, which
// links to the tree. The test reads every page of the tree, files Bazel does
// not track as its inputs: it carries the tag "external".
std::string SourceRoot() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  if (srcdir == nullptr) return "";
  std::error_code error;
  const std::filesystem::path results = std::filesystem::canonical(
      absl::StrCat(srcdir, "/", workspace != nullptr ? workspace : "sstfilter",
                   "/docs/results.md"),
      error);
  if (error) return "";
  return results.parent_path().parent_path().string();
}

// A reader of files relative to root.
FileReader ReaderFrom(const std::string& root) {
  return [root](const std::string& path) -> absl::StatusOr<std::string> {
    std::ifstream in(absl::StrCat(root, "/", path), std::ios::binary);
    if (!in.good()) {
      return absl::NotFoundError(absl::StrCat("cannot read ", path));
    }
    std::ostringstream contents;
    contents << in.rdbuf();
    return contents.str();
  };
}

// Every page's blocks are what the committed JSON gives: a hand edit of a
// table, or new JSON without `bazel run //docs:results_table`, fails here.
TEST(ResultsTableTest, PagesShowWhatTheirJsonGives) {
  const std::string root = SourceRoot();
  ASSERT_FALSE(root.empty()) << "no source tree behind docs/results.md";
  const FileReader read = ReaderFrom(root);
  const std::vector<std::string> pages = PagesWithBlocks(root, read);
  EXPECT_THAT(
      pages,
      IsSupersetOf({"README.md", "docs/results.md", "docs/range_filter.md",
                    "docs/presence_filtered_db.md", "engines/redis/README.md"}))
      << "a page lost its results blocks";
  for (const std::string& page : pages) {
    absl::StatusOr<std::string> markdown = read(page);
    ASSERT_TRUE(markdown.ok()) << markdown.status();
    absl::StatusOr<std::string> regenerated = RegenerateBlocks(*markdown, read);
    ASSERT_TRUE(regenerated.ok()) << page << ": " << regenerated.status();
    // Not EXPECT_EQ: a page is too long to print twice.
    EXPECT_TRUE(*regenerated == *markdown)
        << page << ": " << FirstStaleBlock(*markdown, *regenerated)
        << " differs from its JSON; run bazel run //docs:results_table";
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

TEST(FilterBenchTest, RatiosComeFromThePeersOfTheSameCase) {
  absl::StatusOr<std::string> table = FilterBenchTable(kRows, kAbout, {});
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

absl::StatusOr<std::string> ReadTestFile(const std::string& path);

// against= names the two implementations the ratios divide by, in the
// headers too.
TEST(FilterBenchTest, RatiosAgainstTheImplementationsNamed) {
  FilterBenchOptions options;
  options.against = {"lib:leveldb.bloom", "lib:rocksdb.fastbloom"};
  absl::StatusOr<std::string> table = FilterBenchTable(kRows, kAbout, options);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_THAT(*table,
              HasSubstr("divide a time by the same figure of "
                        "`lib:leveldb.bloom` or `lib:rocksdb.fastbloom` "
                        "in the same case"));
  EXPECT_THAT(*table, HasSubstr("| absent | ÷ `lib:leveldb.bloom` | ÷ "
                                "`lib:rocksdb.fastbloom` | batch of 32 |"));
  // absent 5 / 20 and 5 / 10; batch over LevelDB's missing one; build 20 / 50
  // and 20 / 40.
  EXPECT_THAT(*table,
              HasSubstr("| random16, 10^4 keys, 10 bits/key | `bloom` | "
                        "10.00 | 0.958 | 5.0 | 0.25 | 0.50 | 6.0 | – | "
                        "20.0 | 0.40 | 0.50 |\n"));
  const FileReader read = ReadTestFile;
  EXPECT_TRUE(absl::IsInvalidArgument(
      Render("filter_bench", "docs/results/run.json", {"against=bloom"}, read)
          .status()));
}

TEST(FilterBenchTest, TablesNameTheirRunButNotItsDateOrCommit) {
  FilterBenchOptions options;
  absl::StatusOr<std::string> table = FilterBenchTable(kRows, kAbout, options);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_THAT(*table, HasSubstr("`filter_bench --format=json` on a test "
                                "machine."));
  EXPECT_THAT(*table, HasSubstr("| `bloom` |"));
  EXPECT_THAT(*table, Not(HasSubstr("2000-01-01")));
  EXPECT_THAT(*table, Not(HasSubstr("abc1234")));

  options.about_only = true;
  table = FilterBenchTable(kRows, kAbout, options);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ(*table, "Run: `filter_bench --format=json` on a test machine.\n");
}

// A sweep prints one implementation several times in one workload: each
// size is a case of its own.
TEST(FilterBenchTest, ASweepIsOneCasePerSize) {
  const std::string rows =
      R"({"impl": "bloom", "workload": "random16", "keys": 1000000, "bits_per_key_config": 8, "fpp_config": null, "query_ns_negative": 4}
{"impl": "lib:rocksdb.fastbloom", "workload": "random16", "keys": 1000000, "bits_per_key_config": 8, "fpp_config": null, "query_ns_negative": 8}
{"impl": "bloom", "workload": "random16", "keys": 1000000, "bits_per_key_config": 12, "fpp_config": null, "query_ns_negative": 5}
{"impl": "lib:rocksdb.fastbloom", "workload": "random16", "keys": 1000000, "bits_per_key_config": 12, "fpp_config": null, "query_ns_negative": 20}
)";
  absl::StatusOr<std::string> table = FilterBenchTable(rows, kAbout, {});
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_THAT(*table, HasSubstr("| random16, 10^6 keys, 8 bits/key | "
                                "`bloom` | – | – | 4.0 | 0.50 |"));
  EXPECT_THAT(*table, HasSubstr("| random16, 10^6 keys, 12 bits/key | "
                                "`bloom` | – | – | 5.0 | 0.25 |"));
}

// Rows left out still serve as the peers of the rows kept.
TEST(FilterBenchTest, KeepsOnlyTheImplementationsAsked) {
  FilterBenchOptions options;
  options.impls = {"bloom"};
  absl::StatusOr<std::string> table = FilterBenchTable(kRows, kAbout, options);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_THAT(*table, Not(HasSubstr("| `lib:leveldb.bloom` |")));
  EXPECT_THAT(*table, Not(HasSubstr("| `lib:rocksdb.fastbloom` |")));
  EXPECT_THAT(*table, HasSubstr("| random16, 10^4 keys, 10 bits/key | "
                                "`bloom` | 10.00 | 0.958 | 5.0 | 0.50 | "
                                "0.25 |"));
}

TEST(FilterBenchTest, RefusesWhatIsNotFilterBenchJson) {
  for (const std::string rows :
       {"", "\n\n", "[1, 2]", "{\"impl\": \"x\", \"keys\": 1}",
        "{\"impl\": \"x\", \"workload\": \"w\", \"keys\": 1}\nnot json"}) {
    EXPECT_TRUE(
        absl::IsInvalidArgument(FilterBenchTable(rows, kAbout, {}).status()))
        << rows;
  }
  EXPECT_TRUE(absl::IsInvalidArgument(
      FilterBenchTable(kRows, R"({"command": "c"})", {}).status()));
}

// Two runs of db_bench's point, partitioned and prefix sections, one per
// release, the first with LevelDB's rows, and a row of another section
// (skipped).
constexpr char kDbRows[] = R"(
{"section": "point", "store": "rocksdb", "config": "lib:rocksdb.fastbloom", "tree": "settled", "keys": 1000, "value_bytes": 32, "lookups_per_rep": 100, "reps": 3, "machine": "m", "cpu": "c", "rocksdb_version": "7.8.3", "bits_per_key": 10.0, "filter_bytes": 1000, "entries_per_level": [0, 0, 0, 0, 100, 900], "bits_per_key_per_level": [0, 0, 0, 0, 10.0, 10.0], "absent": {"lookups_per_second": 100000, "lookups_per_second_by_repetition": [100000, 100000, 50000], "data_reads_per_lookup": 0.01}, "present": {"lookups_per_second": 50000}, "direct_reads": null}
{"section": "point", "store": "rocksdb", "config": "bloom", "tree": "settled", "keys": 1000, "value_bytes": 32, "lookups_per_rep": 100, "reps": 3, "machine": "m", "cpu": "c", "rocksdb_version": "7.8.3", "bits_per_key": 10.0, "filter_bytes": 990, "entries_per_level": [10, 0, 0, 0, 90, 900], "bits_per_key_per_level": [30.0, 0, 0, 0, 20.0, 9.0], "absent": {"lookups_per_second": 125000, "lookups_per_second_by_repetition": [125000, 130000, 70000], "data_reads_per_lookup": 0.005}, "present": {"lookups_per_second": 51000}, "direct_reads": null}
{"section": "point", "store": "leveldb", "config": "lib:leveldb.bloom", "tree": "settled", "keys": 1000, "value_bytes": 32, "lookups_per_rep": 100, "reps": 3, "machine": "m", "cpu": "c", "rocksdb_version": "7.8.3", "bits_per_key": 10.5, "filter_bytes": 1050, "entries_per_level": [1000], "bits_per_key_per_level": [10.5], "absent": {"lookups_per_second": 70000, "data_reads_per_lookup": 0.012}, "present": {"lookups_per_second": 40000}}
{"section": "point", "store": "leveldb", "config": "bloom", "tree": "settled", "keys": 1000, "value_bytes": 32, "lookups_per_rep": 100, "reps": 3, "machine": "m", "cpu": "c", "rocksdb_version": "7.8.3", "bits_per_key": 10.7, "filter_bytes": 1070, "entries_per_level": [1000], "bits_per_key_per_level": [10.7], "absent": {"lookups_per_second": 77000, "data_reads_per_lookup": 0.010}, "present": {"lookups_per_second": 41000}}
{"section": "prefix", "store": "rocksdb", "config": "none", "filter_holds": "none", "keys": 400, "value_bytes": 32, "lookups_per_rep": 50, "reps": 3, "machine": "m", "cpu": "c", "rocksdb_version": "7.8.3", "prefix_bytes": 8, "keys_per_prefix": 16, "filter_bytes_per_key": 0, "absent": {"seeks_per_second": 100000, "data_reads_per_seek": 1.0, "prefix_checked_per_seek": 0, "prefix_useful_per_seek": 0}}
{"section": "prefix", "store": "rocksdb", "config": "bloom", "filter_holds": "prefixes", "keys": 400, "value_bytes": 32, "lookups_per_rep": 50, "reps": 3, "machine": "m", "cpu": "c", "rocksdb_version": "7.8.3", "prefix_bytes": 8, "keys_per_prefix": 16, "filter_bytes_per_key": 0.078, "absent": {"seeks_per_second": 350000, "data_reads_per_seek": 0.01, "prefix_checked_per_seek": 1.0, "prefix_useful_per_seek": 0.99}}
{"section": "partitioned", "store": "rocksdb", "config": "lib:rocksdb.fastbloom", "keys": 400, "value_bytes": 32, "lookups_per_rep": 50, "reps": 3, "machine": "m", "cpu": "c", "rocksdb_version": "7.8.3", "bits_per_key": 10.0, "metadata_block_size": 4096, "block_cache_bytes": 1000, "absent": {"lookups_per_second": 80000, "lookups_per_second_by_repetition": [80000, 40000, 80000], "data_reads_per_lookup": 0.01, "filter_bytes_inserted_per_lookup": 4000}}
{"section": "partitioned", "store": "rocksdb", "config": "bloom", "keys": 400, "value_bytes": 32, "lookups_per_rep": 50, "reps": 3, "machine": "m", "cpu": "c", "rocksdb_version": "7.8.3", "bits_per_key": 10.0, "metadata_block_size": 4096, "block_cache_bytes": 1000, "absent": {"lookups_per_second": 76000, "lookups_per_second_by_repetition": [76000, 76000, 78000], "data_reads_per_lookup": 0.01, "filter_bytes_inserted_per_lookup": 4000}}
{"section": "range", "config": "none", "rocksdb_version": "7.8.3"}
{"section": "point", "store": "rocksdb", "config": "lib:rocksdb.fastbloom", "tree": "settled", "keys": 1000, "value_bytes": 32, "lookups_per_rep": 100, "reps": 3, "machine": "m", "cpu": "c", "rocksdb_version": "9.7.4", "bits_per_key": 10.0, "filter_bytes": 1000, "entries_per_level": [0, 1000], "bits_per_key_per_level": [0, 10.0], "absent": {"lookups_per_second": 200000, "data_reads_per_lookup": 0.01}, "present": {"lookups_per_second": 60000}, "direct_reads": {"absent": {"lookups_per_second": 9000, "data_reads_per_lookup": 0.01, "metadata_misses_per_lookup": 0.0002}}}
{"section": "point", "store": "rocksdb", "config": "bloom", "tree": "settled", "keys": 1000, "value_bytes": 32, "lookups_per_rep": 100, "reps": 3, "machine": "m", "cpu": "c", "rocksdb_version": "9.7.4", "bits_per_key": 10.0, "filter_bytes": 990, "entries_per_level": [0, 1000], "bits_per_key_per_level": [0, 9.9], "absent": {"lookups_per_second": 180000, "data_reads_per_lookup": 0.005}, "present": {"lookups_per_second": 61000}, "direct_reads": {"absent": {"lookups_per_second": 18000, "data_reads_per_lookup": 0.005, "metadata_misses_per_lookup": 0.0003}}}
{"section": "point", "store": "rocksdb", "config": "broken", "tree": "settled", "rocksdb_version": "9.9.9"}
)";

// mutable_bench's rows: two runs appended to one file, the first of two key
// counts, the second with a timing too short to measure (null).
constexpr char kMutableRows[] = R"(
{"keys": 1000, "filter": "mutable:fpp=0.01", "native_filter": "bloom:fpp=0.01", "fpp": 0.01, "queries": 1024, "reps": 3, "keys_checked": 1000, "machine": "m", "cpu": "c", "immutable": {"bits_per_key": 9.92, "fp_rate": 0.01, "build_ns_per_key": 20.0, "query_ns": 5.0, "batch_ns": 4.0}, "mutable": {"bits_per_key": 9.92, "fp_rate": 0.0101, "add_ns_per_key": 30.0, "adds_per_second_1_thread": 33000000, "batch_add_ns_per_key": 18.0, "single_writer_add_ns_per_key": 12.0, "single_writer_batch_add_ns_per_key": 9.0, "adds_per_second_2_threads": 50000000, "adds_per_second_2_threads_wall": 45000000, "query_ns": 6.0, "batch_ns": 4.4}, "ratios": {"add_vs_build": 1.5, "batch_add_vs_build": 0.9, "single_writer_add_vs_build": 0.6, "single_writer_batch_add_vs_build": 0.45, "query": 1.2, "batch": 1.1, "add_vs_build_target": 1.5, "query_target": 1.2}}
{"keys": 2000, "filter": "mutable:fpp=0.01", "native_filter": "bloom:fpp=0.01", "fpp": 0.01, "queries": 1024, "reps": 3, "keys_checked": 2000, "machine": "m", "cpu": "c", "immutable": {"bits_per_key": 9.92, "fp_rate": 0.01, "build_ns_per_key": 20.0, "query_ns": 5.0, "batch_ns": 4.0}, "mutable": {"bits_per_key": 9.92, "fp_rate": 0.0101, "add_ns_per_key": 30.0, "adds_per_second_1_thread": 33000000, "batch_add_ns_per_key": null, "single_writer_add_ns_per_key": 12.0, "single_writer_batch_add_ns_per_key": 9.0, "adds_per_second_2_threads": 50000000, "adds_per_second_2_threads_wall": 45000000, "query_ns": 6.0, "batch_ns": 4.4}, "ratios": {"add_vs_build": 1.5, "batch_add_vs_build": null, "single_writer_add_vs_build": 0.6, "single_writer_batch_add_vs_build": 0.45, "query": 1.2, "batch": 1.1, "add_vs_build_target": 1.5, "query_target": 1.2}}
{"keys": 1000, "filter": "mutable:fpp=0.01", "native_filter": "bloom:fpp=0.01", "fpp": 0.01, "queries": 1024, "reps": 3, "keys_checked": 1000, "machine": "m", "cpu": "c", "immutable": {"bits_per_key": 9.92, "fp_rate": 0.01, "build_ns_per_key": 20.0, "query_ns": 5.0, "batch_ns": 4.0}, "mutable": {"bits_per_key": 9.92, "fp_rate": 0.0101, "add_ns_per_key": 31.0, "adds_per_second_1_thread": 33000000, "batch_add_ns_per_key": 18.0, "single_writer_add_ns_per_key": 12.0, "single_writer_batch_add_ns_per_key": 9.0, "adds_per_second_2_threads": 50000000, "adds_per_second_2_threads_wall": 45000000, "query_ns": 6.0, "batch_ns": 4.4}, "ratios": {"add_vs_build": 1.5, "batch_add_vs_build": 0.9, "single_writer_add_vs_build": 0.6, "single_writer_batch_add_vs_build": 0.45, "query": 1.2, "batch": 1.1, "add_vs_build_target": 1.5, "query_target": 1.2}}
)";

// Google Benchmark's JSON of two functions at two arguments, 3 repetitions
// reported as aggregates (mean, median), one function lacking an argument,
// listed out of the order the program registered them (as random
// interleaving lists them).
constexpr char kGoogleBenchmark[] = R"({
  "context": {"host_name": "h", "machine": "m", "cpu": "c"},
  "benchmarks": [
    {"name": "BM_Get/1000_median", "family_index": 1, "per_family_instance_index": 0, "run_name": "BM_Get/1000", "run_type": "aggregate", "repetitions": 3, "aggregate_name": "median", "cpu_time": 12.0, "real_time": 12.5, "time_unit": "ns", "label": "get big"},
    {"name": "BM_Add/10_mean", "family_index": 0, "per_family_instance_index": 0, "run_name": "BM_Add/10", "run_type": "aggregate", "repetitions": 3, "aggregate_name": "mean", "cpu_time": 9.0, "real_time": 9.5, "time_unit": "ns", "label": "add small"},
    {"name": "BM_Add/1000_median", "family_index": 0, "per_family_instance_index": 1, "run_name": "BM_Add/1000", "run_type": "aggregate", "repetitions": 3, "aggregate_name": "median", "cpu_time": 30.0, "real_time": 31.0, "time_unit": "ns", "label": "add big", "bytes_per_second": 2.5e9},
    {"name": "BM_Add/10_median", "family_index": 0, "per_family_instance_index": 0, "run_name": "BM_Add/10", "run_type": "aggregate", "repetitions": 3, "aggregate_name": "median", "cpu_time": 8.25, "real_time": 9.5, "time_unit": "ns", "label": "add small"}
  ]
})";

// db_bench's range rows of one shape: no filter, RocksDB's prefix Bloom
// filter alone, and the same tables behind the presence front, their rates
// of the same three repetitions.
constexpr char kRangeRows[] = R"(
{"section": "range", "config": "none", "front": "", "key_shape": "random 16 bytes", "keys": 400, "value_bytes": 32, "scan_width": 64, "lookups_per_rep": 50, "reps": 3, "machine": "m", "cpu": "c", "rocksdb_version": "7.8.3", "range_bits_per_key": 0.0, "correlated": {"scans_per_second": 1000, "scans_per_second_by_repetition": [1000, 1000, 1000], "data_reads_per_scan": 1.0}, "uniform": {"scans_per_second": 1000, "scans_per_second_by_repetition": [1000, 1000, 1000], "data_reads_per_scan": 1.0}, "nonempty": {"scans_per_second": 900, "scans_per_second_by_repetition": [900, 900, 900]}}
{"section": "range", "config": "lib:rocksdb.fastbloom", "front": "", "key_shape": "random 16 bytes", "keys": 400, "value_bytes": 32, "scan_width": 64, "lookups_per_rep": 50, "reps": 3, "machine": "m", "cpu": "c", "rocksdb_version": "7.8.3", "range_bits_per_key": 0.0, "correlated": {"scans_per_second": 2000, "scans_per_second_by_repetition": [2000, 1000, 2000], "data_reads_per_scan": 0.5}, "uniform": {"scans_per_second": 4000, "scans_per_second_by_repetition": [4000, 4000, 4000], "data_reads_per_scan": 0.25}, "nonempty": {"scans_per_second": 900, "scans_per_second_by_repetition": [900, 900, 900]}}
{"section": "range", "config": "lib:rocksdb.fastbloom", "front": "presence", "key_shape": "random 16 bytes", "keys": 400, "value_bytes": 32, "scan_width": 64, "lookups_per_rep": 50, "reps": 3, "machine": "m", "cpu": "c", "rocksdb_version": "7.8.3", "range_bits_per_key": 0.0, "correlated": {"scans_per_second": 20000, "scans_per_second_by_repetition": [20000, 20000, 30000], "data_reads_per_scan": 0.01}, "uniform": {"scans_per_second": 40000, "scans_per_second_by_repetition": [40000, 44000, 40000], "data_reads_per_scan": 0.02}, "nonempty": {"scans_per_second": 880, "scans_per_second_by_repetition": [880, 880, 880]}}
)";

// A reader of the files of a test: a run "run" of filter_bench, and one
// file of each other kind.
absl::StatusOr<std::string> ReadTestFile(const std::string& path) {
  const std::map<std::string, std::string> files = {
      {"docs/results/run.json", kRows},
      {"docs/results/run.run.json", kAbout},
      {"docs/results/redis.json",
       R"({"runs": [{"keys": 1000, "sstfilter": {"memory_bytes": 2000}}]})"},
      {"docs/results/range.json",
       R"({"keys": 10, "queries_per_rate": 100, "rows": []})"},
      {"docs/results/presence.json", R"({"section": "other"})"},
      {"docs/results/range_db.json",
       R"({"section": "range", "config": 5, "rocksdb_version": "7.8.3"})"},
      {"docs/results/db.json", kDbRows},
      {"docs/results/range_fronts.json", kRangeRows},
      {"docs/results/range_fronts_bad.json",
       absl::StrReplaceAll(kRangeRows, {{"[2000, 1000, 2000]", "\"x\""}})},
      {"docs/results/mutable.json", kMutableRows},
      {"docs/results/gbench.json", kGoogleBenchmark},
      {"docs/results/gbench_no_context.json",
       R"({"context": {}, "benchmarks": []})"},
      {"docs/results/mutable_broken.json",
       R"({"keys": 10, "filter": "mutable:fpp=0.01", "reps": 1, "queries": 1024, "machine": "m", "cpu": "c"})"}};
  const auto it = files.find(path);
  if (it == files.end()) return absl::NotFoundError(path);
  return it->second;
}

// Only the text between the markers is rewritten.
TEST(ResultsTableTest, RegeneratesOnlyTheBlocks) {
  const FileReader read = ReadTestFile;
  const std::string markdown =
      "# Title\n\nBefore.\n<!-- results:begin filter_bench run -->\n"
      "| stale |\n<!-- results:end -->\nAfter.\n";
  absl::StatusOr<std::string> out = RegenerateBlocks(markdown, read);
  ASSERT_TRUE(out.ok()) << out.status();
  absl::StatusOr<std::string> table = FilterBenchTable(kRows, kAbout, {});
  ASSERT_TRUE(table.ok());
  EXPECT_EQ(*out, absl::StrCat("# Title\n\nBefore.\n"
                               "<!-- results:begin filter_bench run -->\n",
                               *table, "<!-- results:end -->\nAfter.\n"));
  EXPECT_EQ(FirstStaleBlock(markdown, *out),
            "<!-- results:begin filter_bench run -->");
  absl::StatusOr<std::string> again = RegenerateBlocks(*out, read);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *out);
  EXPECT_EQ(FirstStaleBlock(*out, *again), "");

  absl::StatusOr<std::string> some = RegenerateBlocks(
      "<!-- results:begin filter_bench run impls=lib:leveldb.bloom,bloom -->\n"
      "<!-- results:end -->\n",
      read);
  ASSERT_TRUE(some.ok()) << some.status();
  EXPECT_THAT(*some, HasSubstr("| `bloom` |"));
  EXPECT_THAT(*some, HasSubstr("| `lib:leveldb.bloom` |"));
  EXPECT_THAT(*some, Not(HasSubstr("| `lib:rocksdb.fastbloom` |")));
}

TEST(ResultsTableTest, RefusesBadBlocks) {
  const FileReader read = ReadTestFile;
  EXPECT_TRUE(absl::IsNotFound(
      RegenerateBlocks(
          "<!-- results:begin filter_bench other -->\n<!-- results:end -->\n",
          read)
          .status()));
  for (const char* markdown : {
           "<!-- results:begin filter_bench run -->\n| no end |\n",
           "<!-- results:begin filter_bench run -->\n"
           "<!-- results:begin filter_bench run -->\n<!-- results:end -->\n",
           "<!-- results:begin -->\n<!-- results:end -->\n",
           "<!-- results:begin run -->\n<!-- results:end -->\n",
           "<!-- results:begin sorted run -->\n<!-- results:end -->\n",
           "<!-- results:begin filter_bench run sorted -->\n"
           "<!-- results:end -->\n",
           "<!-- results:begin redis_bench redis about -->\n"
           "<!-- results:end -->\n",
           "<!-- results:begin range_bench range readme -->\n"
           "<!-- results:end -->\n",
           "<!-- results:begin range_bench run -->\n<!-- results:end -->\n",
       }) {
    EXPECT_TRUE(
        absl::IsInvalidArgument(RegenerateBlocks(markdown, read).status()))
        << markdown;
  }
}

// Each kind goes to its own renderer, with its options.
TEST(ResultsTableTest, EachKindHasItsRenderer) {
  const FileReader read = ReadTestFile;
  // A saved file lacking implementations and figures still prints, with "–".
  absl::StatusOr<std::string> redis =
      Render("redis_bench", "docs/results/redis.json", {}, read);
  ASSERT_TRUE(redis.ok()) << redis.status();
  EXPECT_THAT(*redis, HasSubstr("against the set: – less memory"));
  redis = Render("redis_bench", "docs/results/redis.json", {"readme"}, read);
  ASSERT_TRUE(redis.ok()) << redis.status();
  EXPECT_THAT(*redis, HasSubstr("10^3 keys: – less server memory"));

  absl::StatusOr<std::string> range =
      Render("range_bench", "docs/results/range.json", {}, read);
  ASSERT_TRUE(range.ok()) << range.status();
  EXPECT_THAT(*range, HasSubstr("False-positive rate of empty ranges, 10 "
                                "keys, 100 fresh ranges per cell."));

  // Rows of other sections are skipped: no presence rows.
  EXPECT_TRUE(absl::IsInvalidArgument(
      Render("presence", "docs/results/presence.json", {}, read).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(
      Render("db_bench", "docs/results/presence.json", {}, read).status()));
  // A range row missing its figures, or with a field of the wrong type, is
  // refused by name rather than read.
  const absl::Status range_db =
      Render("range_db", "docs/results/range_db.json", {}, read).status();
  EXPECT_TRUE(absl::IsInvalidArgument(range_db)) << range_db;
  EXPECT_THAT(std::string(range_db.message()), HasSubstr("without a usable"));
  EXPECT_TRUE(absl::IsInvalidArgument(
      Render("range_db", "docs/results/presence.json", {}, read).status()));
}

// A front's scans/s over the same tables alone and over no filter, each the
// median of the per-repetition ratios where the rows pair by repetition.
TEST(ResultsTableTest, RangeFrontRatiosPairTheRepetitions) {
  absl::StatusOr<std::string> range =
      Render("range_db", "docs/results/range_fronts.json", {}, ReadTestFile);
  ASSERT_TRUE(range.ok()) << range.status();
  // Correlated: 10, 20, 15 against alone (the medians give 10); uniform: 10,
  // 11, 10 (the medians give 10).
  EXPECT_THAT(*range, HasSubstr("| random 16 bytes | `lib:rocksdb.fastbloom` "
                                "behind `presence` | 0.0 | 20000 / 40000 | "
                                "15.000 / 10.000 | 20.000 / 40.000 | 0.978 | "
                                "0.0100 / 0.0200 |"));
  // Repetitions that are not numbers are refused by name.
  const absl::Status bad =
      Render("range_db", "docs/results/range_fronts_bad.json", {}, ReadTestFile)
          .status();
  EXPECT_TRUE(absl::IsInvalidArgument(bad)) << bad;
  EXPECT_THAT(std::string(bad.message()),
              HasSubstr("correlated.scans_per_second_by_repetition"));
}

// Each point row over RocksDB's Bloom filter of its own run and tree; runs
// split where the release changes; a row lacking figures refused by name.
TEST(ResultsTableTest, DbPointRatiosComeFromTheSameRun) {
  const FileReader read =
      [](const std::string& path) -> absl::StatusOr<std::string> {
    absl::StatusOr<std::string> text = ReadTestFile(path);
    if (!text.ok()) return text;
    // Without the last, broken, run.
    return std::string(text->substr(0, text->rfind("{\"section\": \"point\"")));
  };
  absl::StatusOr<std::string> point =
      Render("db_point", "docs/results/db.json", {}, read);
  ASSERT_TRUE(point.ok()) << point.status();
  EXPECT_THAT(*point, HasSubstr("**RocksDB 7.8.3**, 1000 keys"));
  EXPECT_THAT(*point, HasSubstr("**RocksDB 9.7.4**, 1000 keys"));
  // Rates of the same repetitions: the median of their ratios (1.25, 1.3,
  // 1.4), not the ratio of the medians (125000 / 100000).
  EXPECT_THAT(*point, HasSubstr("| `bloom` | settled | 10.00 | 0.990 | 125000 "
                                "| 1.300 | – | 0.0050 | 0.500 | 51000 |"));
  EXPECT_THAT(*point, HasSubstr("| `bloom` | settled | 10.00 | 0.990 | 180000 "
                                "| 0.900 | – | 0.0050 | 0.500 | 61000 |"));
  EXPECT_THAT(*point, HasSubstr("| `bloom` | settled | 18000 | 2.000 | "
                                "0.0050 | 0.0003 |"));
  // LevelDB's rows in a table of their own, against LevelDB's Bloom filter.
  EXPECT_THAT(*point, HasSubstr("LevelDB, in the same run:"));
  EXPECT_THAT(*point, HasSubstr("| `bloom` | settled | 10.70 | 77000 | 1.100 | "
                                "0.0100 | 0.833 | 41000 |"));
  EXPECT_EQ(point->find("LevelDB"), point->rfind("LevelDB"));
  // 7.8.3's run had no direct reads: one table of them, 9.7.4's.
  EXPECT_EQ(point->find("With direct reads"),
            point->rfind("With direct reads"));

  absl::StatusOr<std::string> partitioned =
      Render("db_partitioned", "docs/results/db.json", {}, read);
  ASSERT_TRUE(partitioned.ok()) << partitioned.status();
  EXPECT_THAT(*partitioned,
              HasSubstr("| `bloom` | 10.00 | 76000 | 0.975 | 4000 | 1.000 | "
                        "0.0100 |"));

  absl::StatusOr<std::string> levels =
      Render("db_levels", "docs/results/db.json", {}, read);
  ASSERT_TRUE(levels.ok()) << levels.status();
  EXPECT_THAT(*levels, HasSubstr("| config | tree | L0 | L4 | L5 |\n"));
  EXPECT_THAT(*levels, HasSubstr("| `bloom` | settled | 30.0 (1.0%) | "
                                 "20.0 (9.0%) | 9.0 (90.0%) |\n"));
  EXPECT_THAT(*levels, HasSubstr("| `lib:rocksdb.fastbloom` | settled | | "
                                 "10.0 (10.0%) | 10.0 (90.0%) |\n"));
  EXPECT_THAT(*levels, HasSubstr("| `bloom` | settled | 9.9 (100.0%) |\n"));

  absl::StatusOr<std::string> prefix =
      Render("db_prefix", "docs/results/db.json", {}, read);
  ASSERT_TRUE(prefix.ok()) << prefix.status();
  EXPECT_THAT(*prefix, HasSubstr("| `bloom` | prefixes | 0.078 | 350000 | "
                                 "3.500 | 0.0100 | 1.000 | 0.990 |"));

  const absl::Status broken =
      Render("db_point", "docs/results/db.json", {}, ReadTestFile).status();
  EXPECT_TRUE(absl::IsInvalidArgument(broken)) << broken;
  EXPECT_THAT(std::string(broken.message()), HasSubstr("without a usable"));
  EXPECT_TRUE(absl::IsInvalidArgument(
      Render("db_point", "docs/results/db.json", {"readme"}, read).status()));
}

// Both filters of each key count side by side, every figure from its row;
// a null timing prints as "–", and a row lacking figures is refused by name.
TEST(ResultsTableTest, MutableBenchPrintsBothFiltersOfEachSize) {
  const FileReader read = ReadTestFile;
  absl::StatusOr<std::string> table =
      Render("mutable_bench", "docs/results/mutable.json", {}, read);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_THAT(*table, HasSubstr("Measured on m (c)."));
  EXPECT_THAT(*table,
              HasSubstr("| 1 | 1000 | `bloom:fpp=0.01` | 9.92 | 1.000 | "
                        "20.0 | – | – | – | 5.0 | 4.0 |"));
  EXPECT_THAT(*table,
              HasSubstr("| 1 | 1000 | `mutable:fpp=0.01` | 9.92 | 1.010 | "
                        "30.0 | 18.0 | 12.0 | 9.0 | 6.0 | 4.4 |"));
  EXPECT_THAT(*table,
              HasSubstr("| 1 | 2000 | `mutable:fpp=0.01` | 9.92 | 1.010 | "
                        "30.0 | – | 12.0 | 9.0 | 6.0 | 4.4 |"));
  EXPECT_THAT(*table, HasSubstr("| 2 | 1000 | `mutable:fpp=0.01` | 9.92 | "
                                "1.010 | 31.0 | 18.0 |"));
  EXPECT_THAT(*table, HasSubstr("`Add` ≤ 1.5× the build, queries ≤ 1.2×"));
  EXPECT_THAT(*table,
              HasSubstr("| 1 | 1000 | 1.50 | 0.90 | 0.60 | 0.45 | 1.20 | "
                        "1.10 | 33.0 | 50.0 | 45.0 |"));
  const absl::Status broken =
      Render("mutable_bench", "docs/results/mutable_broken.json", {}, read)
          .status();
  EXPECT_TRUE(absl::IsInvalidArgument(broken)) << broken;
  EXPECT_THAT(std::string(broken.message()), HasSubstr("lacks"));
  EXPECT_TRUE(absl::IsInvalidArgument(
      Render("mutable_bench", "docs/results/mutable.json", {"readme"}, read)
          .status()));
}

// The medians only, a row per function and a column per argument, and the
// machine the program's context names.
TEST(ResultsTableTest, GoogleBenchmarkPrintsMediansByArgument) {
  const FileReader read = ReadTestFile;
  absl::StatusOr<std::string> table =
      Render("google_benchmark", "docs/results/gbench.json", {}, read);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_THAT(*table, HasSubstr("ns per operation, the median CPU time of 3 "
                                "repetitions. Measured on m (c)."));
  EXPECT_THAT(*table, HasSubstr("| benchmark | 10 | 1000 |\n|---|---|---|\n"
                                "| `BM_Add` | 8.2 | 30.0 |\n"
                                "| `BM_Get` | – | 12.0 |\n"));
  // By label: a table per function in the order registered, bytes a second
  // where counted.
  absl::StatusOr<std::string> by_label =
      Render("google_benchmark", "docs/results/gbench.json", {"labels"}, read);
  ASSERT_TRUE(by_label.ok()) << by_label.status();
  EXPECT_THAT(*by_label, HasSubstr("`BM_Add`:\n\n| case | ns | GB/s |\n"
                                   "|---|---|---|\n| add small | 8.2 | – |\n"
                                   "| add big | 30.0 | 2.5 |\n\n`BM_Get`:\n\n"
                                   "| case | ns |\n|---|---|\n"
                                   "| get big | 12.0 |\n"));
  EXPECT_TRUE(absl::IsInvalidArgument(
      Render("google_benchmark", "docs/results/gbench.json", {"grid"}, read)
          .status()));
  EXPECT_TRUE(absl::IsInvalidArgument(
      Render("google_benchmark", "docs/results/gbench_no_context.json", {},
             read)
          .status()));
  EXPECT_TRUE(absl::IsInvalidArgument(
      Render("google_benchmark", "docs/results/mutable.json", {}, read)
          .status()));
}

}  // namespace
}  // namespace docs
}  // namespace sstfilter
