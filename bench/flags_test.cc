// Tests of flag validation: defaults, lists, and a one-line error naming the
// flag for every bad value. (filter_bench_test.sh checks the exit status of the
// binary.)

#include "bench/flags.h"

#include <string>

#include "bench/built_filter.h"
#include "filter/filter_arena.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace bench {
namespace {

// Every implementation but sstfilter.portable, which runs only when named.
TEST(FlagsTest, DefaultsCoverEverything) {
  absl::StatusOr<Options> options = MakeOptions(RawFlags());
  ASSERT_TRUE(options.ok()) << options.status();
  std::vector<std::string> default_impls;
  for (const ImplEntry* entry : options->bench.impls) {
    default_impls.push_back(entry->name);
  }
  EXPECT_EQ(default_impls, (std::vector<std::string>{
                               "sstfilter", "sstfilter.leveldb_compat",
                               "sstfilter.burr", "leveldb", "rocksdb.fastbloom",
                               "rocksdb.legacybloom", "rocksdb.ribbon"}));
  EXPECT_EQ(options->bench.workloads,
            (std::vector<std::string>{"random16", "sequential", "varlen",
                                      "lsm6400"}));
  EXPECT_EQ(options->bench.keys,
            (std::vector<uint64_t>{10000, 1000000, 100000000}));
  EXPECT_EQ(options->bench.other_keys, (std::vector<uint64_t>{10000, 1000000}));
  ASSERT_EQ(options->bench.filter_sizes.size(), 1u);
  EXPECT_EQ(options->bench.filter_sizes[0].bits_per_key, 10.0);
  EXPECT_EQ(options->bench.reps, 3);
  EXPECT_EQ(options->bench.placement, kNaturalPlacement);
  EXPECT_EQ(options->format, Format::kTable);
}

TEST(FlagsTest, PlacementIsAnOffsetFromACacheLine) {
  RawFlags raw;
  raw.placement = "48";
  absl::StatusOr<Options> options = MakeOptions(raw);
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->bench.placement, 48);
}

TEST(FlagsTest, PlaceFilterPutsTheSameBytesAtTheOffset) {
  BuiltFilter filter;
  filter.storage = "some filter bytes";
  filter.bytes = filter.storage;
  for (int placement : {0, 16, 33, 63}) {
    PlaceFilter(placement, /*arena=*/nullptr, &filter);
    EXPECT_EQ(filter.bytes, "some filter bytes");
    EXPECT_EQ(
        reinterpret_cast<uintptr_t>(filter.bytes.data()) % kCacheLineBytes,
        static_cast<uintptr_t>(placement));
  }
  EXPECT_TRUE(filter.storage.empty());  // the builder's copy is freed
}

TEST(FlagsTest, PlaceFilterInAnArena) {
  FilterArena arena;
  for (int placement : {kNaturalPlacement, 0, 16, 33, 63}) {
    BuiltFilter filter;
    filter.storage = "some filter bytes";
    filter.bytes = filter.storage;
    PlaceFilter(placement, &arena, &filter);
    EXPECT_EQ(filter.bytes, "some filter bytes");
    EXPECT_EQ(filter.placed, nullptr);
    // In an arena, natural placement is the arena's: at a cache line.
    EXPECT_EQ(
        reinterpret_cast<uintptr_t>(filter.bytes.data()) % kCacheLineBytes,
        static_cast<uintptr_t>(placement == kNaturalPlacement ? 0 : placement));
  }
}

TEST(FlagsTest, HugePagesFlag) {
  RawFlags raw;
  EXPECT_FALSE(MakeOptions(raw)->bench.huge_pages);
  raw.huge_pages = true;
  EXPECT_TRUE(MakeOptions(raw)->bench.huge_pages);
}

TEST(FlagsTest, TimingFlag) {
  RawFlags raw;
  EXPECT_EQ(MakeOptions(raw)->bench.timing, Timing::kAuto);
  raw.timing = "interleaved";
  EXPECT_EQ(MakeOptions(raw)->bench.timing, Timing::kInterleaved);
  raw.timing = "sequential";
  EXPECT_EQ(MakeOptions(raw)->bench.timing, Timing::kSequential);
}

TEST(FlagsTest, QuickDropsTheLargestSizeAndLsm) {
  RawFlags raw;
  raw.quick = true;
  absl::StatusOr<Options> options = MakeOptions(raw);
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->bench.keys, (std::vector<uint64_t>{10000, 1000000}));
  EXPECT_EQ(options->bench.workloads,
            (std::vector<std::string>{"random16", "sequential", "varlen"}));
}

TEST(FlagsTest, ListsAndNotations) {
  RawFlags raw;
  raw.impls = "leveldb,rocksdb.ribbon";
  raw.workloads = "varlen";
  raw.keys = "1000,1e5,10^6";
  raw.bits_per_key = "6,12.5";
  raw.fpp = "0.01";
  raw.reps = "5";
  raw.format = "json";
  absl::StatusOr<Options> options = MakeOptions(raw);
  ASSERT_TRUE(options.ok()) << options.status();
  ASSERT_EQ(options->bench.impls.size(), 2u);
  EXPECT_STREQ(options->bench.impls[1]->name, "rocksdb.ribbon");
  EXPECT_EQ(options->bench.keys,
            (std::vector<uint64_t>{1000, 100000, 1000000}));
  EXPECT_EQ(options->bench.other_keys, options->bench.keys);
  ASSERT_EQ(options->bench.filter_sizes.size(), 3u);
  EXPECT_EQ(options->bench.filter_sizes[1].bits_per_key, 12.5);
  EXPECT_EQ(options->bench.filter_sizes[2].fpp, 0.01);
  EXPECT_EQ(options->bench.reps, 5);
  EXPECT_EQ(options->format, Format::kJson);
}

TEST(FlagsTest, AnImplementationOutsideTheDefaultsRunsWhenNamed) {
  RawFlags raw;
  raw.impls = "sstfilter.portable,sstfilter";
  absl::StatusOr<Options> options = MakeOptions(raw);
  ASSERT_TRUE(options.ok()) << options.status();
  ASSERT_EQ(options->bench.impls.size(), 2u);
  EXPECT_STREQ(options->bench.impls[0]->name, "sstfilter.portable");
  EXPECT_FALSE(options->bench.impls[0]->in_default_run);
  EXPECT_STREQ(options->bench.impls[1]->name, "sstfilter");
}

struct BadCase {
  const char* flag;
  const char* value;
};

TEST(FlagsTest, BadValuesAreOneLineErrorsNamingTheFlag) {
  const BadCase cases[] = {
      {"impls", "nosuch"},
      {"impls", "leveldb,leveldb"},
      {"impls", ","},
      {"workloads", "random"},
      {"keys", "0"},
      {"keys", "-5"},
      {"keys", "1e4,abc"},
      {"keys", "2000000000"},
      {"keys", "1.5"},
      {"bits_per_key", "0.5"},
      {"bits_per_key", "101"},
      {"bits_per_key", "ten"},
      {"fpp", "0"},
      {"fpp", "1"},
      {"fpp", "1.5"},
      {"fpp", "nan"},
      {"reps", "0"},
      {"reps", "x"},
      {"format", "xml"},
      {"placement", "64"},
      {"placement", "-1"},
      {"placement", "aligned"},
      {"timing", "paired"},
      {"timing", ""},
      {"plot", "/nonexistent/dir/fpp.png"},
      {"plot", "/etc/passwd/fpp.png"},
  };
  for (const BadCase& c : cases) {
    RawFlags raw;
    const std::string flag = c.flag;
    if (flag == "impls") raw.impls = c.value;
    if (flag == "workloads") raw.workloads = c.value;
    if (flag == "keys") raw.keys = c.value;
    if (flag == "bits_per_key") raw.bits_per_key = c.value;
    if (flag == "fpp") raw.fpp = c.value;
    if (flag == "reps") raw.reps = c.value;
    if (flag == "format") raw.format = c.value;
    if (flag == "placement") raw.placement = c.value;
    if (flag == "timing") raw.timing = c.value;
    if (flag == "plot") raw.plot = c.value;
    absl::StatusOr<Options> options = MakeOptions(raw);
    ASSERT_FALSE(options.ok()) << flag << "=" << c.value;
    EXPECT_EQ(options.status().code(), absl::StatusCode::kInvalidArgument);
    const std::string message(options.status().message());
    EXPECT_NE(message.find("--" + flag + "="), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace bench
}  // namespace sstfilter
