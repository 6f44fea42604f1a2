#include "tests/layout/build_drift.h"

#include <string>
#include <vector>

#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sstfilter::layout {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// What `bazel query --output=build` prints for a small tree: a public
// library, an alias to it, a renamed adapter, two targets of one name, a fuzz
// target from tests/fuzz/fuzz.bzl and a shell test.
constexpr char kQuery[] = R"query(# /src/ws/filter/bloom/BUILD.bazel:3:11
cc_library(
  name = "bloom",
  visibility = ["//visibility:public"],
  copts = ["-Wall"] + select({"//:fastbuild": ["-O2"], "//conditions:default": []}),
  srcs = ["//filter/bloom:bloom.cc", "//filter/bloom:bloom_impl.h"],
  hdrs = ["//filter/bloom:bloom.h"],
  deps = ["//util:hash", "@com_google_absl//absl/status:statusor", "@xxhash//:xxhash"],
)

# /src/ws/filter/BUILD.bazel:9:6
alias(
  name = "bloom",
  visibility = ["//visibility:public"],
  actual = "//filter/bloom:bloom",
)

# /src/ws/util/BUILD.bazel:5:11
cc_library(
  name = "hash",
  visibility = ["//:__subpackages__"],
  srcs = ["//util:hash.cc"],
  hdrs = ["//util:hash.h"],
)

# /src/ws/engines/rocksdb/BUILD.bazel:5:11
cc_library(
  name = "rocksdb",
  visibility = ["//visibility:public"],
  srcs = ["//engines/rocksdb:adapter.cc"],
  hdrs = ["//engines/rocksdb:adapter.h"],
  deps = ["//filter:bloom", "@com_github_facebook_rocksdb//:rocksdb"],
)

# /src/ws/tests/BUILD.bazel:7:8
cc_test(
  name = "readme_example_test",
  srcs = ["//tests:readme_example_test.cc"],
  deps = ["//engines/rocksdb:rocksdb", "@com_google_googletest//:gtest_main"],
)

# /src/ws/inmemory/mutable/BUILD.bazel:7:8
cc_test(
  name = "readme_example_test",
  srcs = ["//inmemory/mutable:readme_example_test.cc"],
  deps = ["@com_google_googletest//:gtest_main"],
)

# /src/ws/tests/fuzz/BUILD.bazel:20:19
cc_test(
  name = "bloom_reader_fuzzer",
  deps = ["//filter:bloom"] + select({"//tests/fuzz:libfuzzer": [], "//conditions:default": ["//tests/fuzz:replay_main"]}),
  srcs = ["//tests/fuzz:bloom_reader_fuzzer.cc"],
  tags = ["fuzz_target"],
)
# Rule bloom_reader_fuzzer instantiated at (most recent call last):
#   /src/ws/tests/fuzz/BUILD.bazel:20:19 in <toplevel>
#   /src/ws/tests/fuzz/fuzz.bzl:33:17 in sstfilter_fuzz_test

# /src/ws/tests/fuzz/BUILD.bazel:5:11
cc_library(
  name = "replay_main",
  testonly = True,
  srcs = ["//tests/fuzz:replay_main.cc"],
)

# /src/ws/bench/BUILD.bazel:40:8
sh_test(
  name = "bench_test",
  srcs = ["//bench:bench_test.sh"],
  args = ["$(location //util:hash)", "--quick"],
  data = ["//:README.md", "//bench:bench_lib.sh"],
  size = "small",
  shard_count = 2,
  tags = ["manual", "benchmark"],
)
)query";

// The sstfilter_rules.tsv of a CMake tree that agrees with kQuery.
// Each line's last five fields: size, shard count, labels, arguments, data.
constexpr char kRules[] =
    "cc_library\tfilter/bloom\tbloom\tPUBLIC HOT_PATH\tbloom.cc bloom_impl.h\t"
    "bloom.h\tsstfilter::hash absl::statusor xxHash::xxhash\t\t\t\t\t\n"
    "cc_library\tutil\thash\t\thash.cc\thash.h\t\t\t\t\t\t\n"
    "cc_library\tengines/rocksdb\trocksdb_adapter\tPUBLIC\tadapter.cc\t"
    "adapter.h\tsstfilter::bloom RocksDB::rocksdb-shared\t\t\t\t\t\n"
    "cc_test\ttests\ttests_readme_example_test\t\treadme_example_test.cc\t\t"
    "sstfilter::rocksdb_adapter GTest::gtest_main\t\t\t\t\t\n"
    "cc_test\tinmemory/mutable\tmutable_readme_example_test\t\t"
    "readme_example_test.cc\t\tGTest::gtest_main\tmedium\t\t\t\t\n"
    "fuzz_test\ttests/fuzz\tbloom_reader_fuzzer\t\tbloom_reader_fuzzer.cc\t\t"
    "sstfilter::bloom\t\t\t\t\t\n"
    "cc_library\ttests/fuzz\treplay_main\tTESTONLY\treplay_main.cc\t\t\t\t\t"
    "\t\t\n"
    "sh_test\tbench\tbench_test\tMANUAL\tbench_test.sh\t\t\tsmall\t2\t"
    "benchmark\t$<TARGET_FILE:hash> --quick\tREADME.md bench/bench_lib.sh\n";

std::vector<std::string> Differences(const std::string& query,
                                     const std::string& rules) {
  const auto bazel = ParseBazelQuery(query);
  const auto cmake = ParseCMakeRules(rules);
  EXPECT_TRUE(bazel.ok()) << bazel.status();
  EXPECT_TRUE(cmake.ok()) << cmake.status();
  if (!bazel.ok() || !cmake.ok()) return {"unparsed"};
  return CompareBuilds(*bazel, *cmake);
}

TEST(BuildDriftTest, AgreeingBuildsHaveNoDifference) {
  EXPECT_THAT(Differences(kQuery, kRules), IsEmpty());
}

TEST(BuildDriftTest, ReadsEveryRuleButAliases) {
  const auto bazel = ParseBazelQuery(kQuery);
  ASSERT_TRUE(bazel.ok()) << bazel.status();
  ASSERT_EQ(bazel->size(), 8u);
  EXPECT_EQ((*bazel)[0].package, "filter/bloom");
  EXPECT_TRUE((*bazel)[0].is_public);
  EXPECT_FALSE((*bazel)[1].is_public);  // //:__subpackages__ only
}

// A fuzz target's data lists every corpus file: hundreds of labels on one
// line, which a recursive matcher would overflow the stack on.
TEST(BuildDriftTest, AnAttributeOfHundredsOfLabelsIsRead) {
  std::string corpus;
  for (int i = 0; i < 5000; ++i) {
    absl::StrAppend(&corpus, i == 0 ? "" : ", ", "\"//tests/fuzz:corpus/seed_",
                    i, "\"");
  }
  const std::string query = absl::StrReplaceAll(
      kQuery,
      {{"  srcs = [\"//tests/fuzz:bloom_reader_fuzzer.cc\"],",
        absl::StrCat("  srcs = [\"//tests/fuzz:bloom_reader_fuzzer.cc\"],\n"
                     "  data = [",
                     corpus, "],")}});
  ASSERT_GT(query.size(), 100000u);
  EXPECT_THAT(Differences(query, kRules), IsEmpty());
}

TEST(BuildDriftTest, ASourceAddedToBazelOnlyIsReported) {
  const std::string query = absl::StrReplaceAll(
      kQuery,
      {{"\"//util:hash.cc\"", "\"//util:hash.cc\", \"//util:hash_avx2.cc\""}});
  EXPECT_THAT(Differences(query, kRules),
              ElementsAre("cc_library util:hash: source hash_avx2.cc is in "
                          "BUILD.bazel only"));
}

TEST(BuildDriftTest, ASourceAddedToCMakeOnlyIsReported) {
  const std::string rules = absl::StrReplaceAll(
      kRules, {{"\thash.cc\t", "\thash.cc hash_avx2.cc\t"}});
  EXPECT_THAT(Differences(kQuery, rules),
              ElementsAre("cc_library util:hash: source hash_avx2.cc is in "
                          "CMakeLists.txt only"));
}

TEST(BuildDriftTest, HeadersAndDependenciesAreCompared) {
  const std::string rules = absl::StrReplaceAll(
      kRules,
      {{"\tbloom.h\t", "\t\t"},
       {"sstfilter::hash absl::statusor", "absl::statusor absl::span"}});
  EXPECT_THAT(
      Differences(kQuery, rules),
      ElementsAre(
          "cc_library filter/bloom:bloom: header bloom.h is in BUILD.bazel "
          "only",
          "cc_library filter/bloom:bloom: dependency sstfilter::hash is in "
          "BUILD.bazel only",
          "cc_library filter/bloom:bloom: dependency absl::span is in "
          "CMakeLists.txt only"));
}

TEST(BuildDriftTest, ATargetInOneBuildOnlyIsReported) {
  std::string rules = kRules;
  rules = rules.substr(0, rules.find("sh_test\tbench\tbench_test")) +
          "cc_binary\tbench\tbench_tool\t\tbench_tool.cc\t\t\t\t\t\t\t\n";
  EXPECT_THAT(
      Differences(kQuery, rules),
      ElementsAre("sh_test bench:bench_test is in BUILD.bazel only",
                  "cc_binary bench:bench_tool is in CMakeLists.txt only"));
}

TEST(BuildDriftTest, TagsSizeShardsArgumentsAndDataAreCompared) {
  const std::string rules = absl::StrReplaceAll(
      kRules, {{"\tMANUAL\tbench_test.sh", "\t\tbench_test.sh"},
               {"\tsmall\t2\tbenchmark\t", "\tlarge\t\ttsan\t"},
               {"$<TARGET_FILE:hash> --quick", "--quick $<TARGET_FILE:hash>"},
               {"README.md bench/bench_lib.sh", "README.md"}});
  EXPECT_THAT(
      Differences(kQuery, rules),
      ElementsAre(
          "sh_test bench:bench_test is manual in BUILD.bazel only",
          "sh_test bench:bench_test: tag benchmark is in BUILD.bazel only",
          "sh_test bench:bench_test: tag tsan is in CMakeLists.txt only",
          "sh_test bench:bench_test is small in BUILD.bazel, large in "
          "CMakeLists.txt",
          "sh_test bench:bench_test has shard count '2' in BUILD.bazel, '' in "
          "CMakeLists.txt",
          "sh_test bench:bench_test has arguments [location hash --quick] in "
          "BUILD.bazel, [--quick location hash] in CMakeLists.txt",
          "sh_test bench:bench_test: data bench/bench_lib.sh is in BUILD.bazel "
          "only"));
}

TEST(BuildDriftTest, PublicAndTestOnlyFlagsAreCompared) {
  const std::string rules = absl::StrReplaceAll(
      kRules, {{"\tbloom\tPUBLIC HOT_PATH\t", "\tbloom\tHOT_PATH\t"},
               {"\treplay_main\tTESTONLY\t", "\treplay_main\t\t"}});
  EXPECT_THAT(Differences(kQuery, rules),
              ElementsAre("cc_library filter/bloom:bloom is public in "
                          "BUILD.bazel only",
                          "cc_library tests/fuzz:replay_main is testonly in "
                          "BUILD.bazel only"));
}

TEST(BuildDriftTest, TheNamingRulesAreRequired) {
  // The adapter under its Bazel name, and a colliding name left unprefixed.
  const std::string rules = absl::StrReplaceAll(
      kRules, {{"\trocksdb_adapter\t", "\trocksdb\t"},
               {"\tmutable_readme_example_test\t", "\treadme_example_test\t"}});
  const std::vector<std::string> differences = Differences(kQuery, rules);
  EXPECT_THAT(differences,
              testing::Contains("cc_library engines/rocksdb:rocksdb_adapter is "
                                "in BUILD.bazel only"));
  EXPECT_THAT(differences,
              testing::Contains("cc_test inmemory/mutable:readme_example_test "
                                "is in CMakeLists.txt only"));
}

TEST(BuildDriftTest, ADependencyWithoutACMakeNameIsReported) {
  const std::string query = absl::StrReplaceAll(
      kQuery,
      {{"\"@xxhash//:xxhash\"", "\"@xxhash//:xxhash\", \"@zlib//:z\""}});
  EXPECT_THAT(Differences(query, kRules),
              ElementsAre("cc_library filter/bloom:bloom: dependency unmapped "
                          "@zlib//:z is in BUILD.bazel only"));
}

TEST(BuildDriftTest, MalformedInputsAreErrors) {
  EXPECT_FALSE(ParseBazelQuery("").ok());
  EXPECT_FALSE(ParseBazelQuery("cc_library(\n)\n").ok());
  EXPECT_FALSE(ParseCMakeRules("cc_library\tutil\thash\n").ok());
}

}  // namespace
}  // namespace sstfilter::layout
