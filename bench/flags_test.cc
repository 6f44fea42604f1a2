// Tests of flag validation: defaults, lists, and a one-line error naming the
// flag for every bad value. (filter_bench_test.sh checks the exit status of the
// binary.)

#include "bench/flags.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "bench/built_filter.h"
#include "bench/workload.h"
#include "filter/filter_arena.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace bench {
namespace {

// Every implementation but bloom:path=portable, which runs only when named, in
// the headline suite.
TEST(FlagsTest, DefaultsRunEveryImplementation) {
  absl::StatusOr<Options> options = MakeOptions(RawFlags());
  ASSERT_TRUE(options.ok()) << options.status();
  std::vector<std::string> default_impls;
  for (const ImplEntry* entry : options->bench.impls) {
    default_impls.push_back(entry->name);
  }
  EXPECT_EQ(default_impls,
            (std::vector<std::string>{
                "bloom", "leveldb", "burr", "lib:leveldb.bloom",
                "lib:rocksdb.fastbloom", "lib:rocksdb.legacybloom",
                "lib:rocksdb.ribbon"}));
  EXPECT_STREQ(options->suite->name, "headline");
  EXPECT_TRUE(options->cases_from_suite);
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

// The cases of a suite, as the harness runs them: "random16 10000" or
// "lsm3200 3200x10000".
std::vector<std::string> CaseList(const BenchConfig& config) {
  absl::StatusOr<std::vector<Workload>> workloads =
      ExpandWorkloads(config.workloads, config.keys, config.other_keys);
  EXPECT_TRUE(workloads.ok()) << workloads.status();
  std::vector<std::string> cases;
  for (const Workload& w : workloads.value_or(std::vector<Workload>())) {
    cases.push_back(w.num_filters > 1
                        ? absl::StrFormat("%s %dx%d", w.name, w.num_filters,
                                          w.keys_per_filter)
                        : absl::StrFormat("%s %d", w.name, w.keys_per_filter));
  }
  return cases;
}

// The default run answers in about two minutes: random16 in L2 and in L3,
// and a store's many filters out of cache, with every implementation and the
// default reps.
TEST(FlagsTest, HeadlineSuiteIsTheDefault) {
  absl::StatusOr<Options> options = MakeOptions(RawFlags());
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(CaseList(options->bench),
            (std::vector<std::string>{"random16 10000", "random16 1000000",
                                      "lsm3200 3200x10000"}));
  RawFlags named;
  named.suite = "headline";
  EXPECT_EQ(CaseList(MakeOptions(named)->bench), CaseList(options->bench));
}

// Its lsm case is smaller than lsm6400 but still many filters whose bytes
// exceed the L3 cache, as a store's do.
TEST(FlagsTest, HeadlineLsmCaseIsOutOfCache) {
  absl::StatusOr<Options> options = MakeOptions(RawFlags());
  ASSERT_TRUE(options.ok()) << options.status();
  absl::StatusOr<std::vector<Workload>> workloads = ExpandWorkloads(
      options->bench.workloads, options->bench.keys, options->bench.other_keys);
  ASSERT_TRUE(workloads.ok());
  const Workload& lsm = workloads->back();
  ASSERT_GT(lsm.num_filters, 1000u);
  EXPECT_LT(lsm.num_filters, FindWorkload("lsm6400")->num_filters);
  const double bits_per_key = *options->bench.filter_sizes[0].bits_per_key;
  EXPECT_GT(static_cast<double>(lsm.total_keys()) * bits_per_key / 8,
            kL3CacheBytes);
}

// --suite=full is what a run without flags did before there were suites.
TEST(FlagsTest, FullSuiteRunsEveryWorkloadAndSize) {
  RawFlags raw;
  raw.suite = "full";
  absl::StatusOr<Options> options = MakeOptions(raw);
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->bench.workloads,
            (std::vector<std::string>{"random16", "sequential", "varlen",
                                      "lsm6400"}));
  EXPECT_EQ(options->bench.keys,
            (std::vector<uint64_t>{10000, 1000000, 100000000}));
  EXPECT_EQ(options->bench.other_keys, (std::vector<uint64_t>{10000, 1000000}));
  EXPECT_EQ(options->bench.impls, MakeOptions(RawFlags())->bench.impls);
  EXPECT_EQ(options->bench.reps, 3);
  EXPECT_EQ(options->suite->plot_keys, 1000000u);
}

TEST(FlagsTest, QuickIsTheQuickSuite) {
  RawFlags raw;
  raw.quick = true;
  absl::StatusOr<Options> options = MakeOptions(raw);
  ASSERT_TRUE(options.ok());
  EXPECT_STREQ(options->suite->name, "quick");
  EXPECT_EQ(options->bench.keys, (std::vector<uint64_t>{10000, 1000000}));
  EXPECT_EQ(options->bench.workloads,
            (std::vector<std::string>{"random16", "sequential", "varlen"}));
  EXPECT_EQ(options->suite->plot_keys, 100000u);
  raw.suite = "quick";  // both say the same
  ASSERT_TRUE(MakeOptions(raw).ok());
  EXPECT_EQ(MakeOptions(raw)->bench.workloads, options->bench.workloads);
}

TEST(FlagsTest, QuickConflictsWithAnotherSuite) {
  RawFlags raw;
  raw.quick = true;
  raw.suite = "full";
  absl::StatusOr<Options> options = MakeOptions(raw);
  ASSERT_FALSE(options.ok());
  EXPECT_EQ(options.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(options.status().message(),
            "--suite=full: conflicts with --quick, which is --suite=quick");
}

TEST(FlagsTest, UnknownSuiteNamesTheValueAndTheSuites) {
  RawFlags raw;
  raw.suite = "fast";
  absl::StatusOr<Options> options = MakeOptions(raw);
  ASSERT_FALSE(options.ok());
  EXPECT_EQ(options.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(options.status().message(),
            "--suite=fast: unknown suite 'fast' (the suites are headline, "
            "full, quick)");
}

// --workloads and --keys replace the suite's cases; the suite still sets the
// plot's size.
TEST(FlagsTest, ExplicitCasesOverrideTheSuite) {
  RawFlags raw;
  raw.suite = "full";
  raw.workloads = "varlen";
  absl::StatusOr<Options> options = MakeOptions(raw);
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_FALSE(options->cases_from_suite);
  EXPECT_EQ(CaseList(options->bench),
            (std::vector<std::string>{"varlen 10000", "varlen 1000000"}));
  raw.keys = "1e3";
  options = MakeOptions(raw);
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(CaseList(options->bench),
            (std::vector<std::string>{"varlen 1000"}));
  RawFlags keys_only;
  keys_only.keys = "5000";
  options = MakeOptions(keys_only);
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(CaseList(options->bench),
            (std::vector<std::string>{"random16 5000", "lsm3200 3200x10000"}));
}

// Every suite names known workloads, and --help says what each runs and how
// long it takes.
TEST(FlagsTest, UsageGivesEachSuitesCasesAndDuration) {
  // The usage message wraps lines; its words, one space apart.
  const std::string usage = absl::StrJoin(
      absl::StrSplit(UsageText(), absl::ByAnyChar(" \n"), absl::SkipEmpty()),
      " ");
  for (const Suite& suite : AllSuites()) {
    SCOPED_TRACE(suite.name);
    for (const std::string& name : suite.workloads) {
      EXPECT_NE(FindWorkload(name), nullptr) << name;
    }
    EXPECT_EQ(std::string(suite.duration).rfind("about ", 0), 0u);
    const size_t at =
        usage.find(absl::StrCat(" ", suite.name, " ", suite.duration));
    ASSERT_NE(at, std::string::npos) << usage;
    EXPECT_NE(usage.find(DescribeCases(suite), at), std::string::npos) << usage;
  }
  EXPECT_EQ(DescribeCases(*FindSuite("full")),
            "random16 at 10^4, 10^6, 10^8 keys; sequential and varlen at "
            "10^4, 10^6 keys; lsm6400");
  EXPECT_EQ(DescribeCases(*FindSuite("headline")),
            "random16 at 10^4, 10^6 keys; lsm3200");
}

// --filter names what runs: a known name, any other spec (sized or not), a
// lib: peer; anything else is one line naming it.
TEST(FlagsTest, FilterNamesSpecsAndPeers) {
  RawFlags raw;
  raw.filter = *ParseSpecList(
      "bloom:path=portable,lib:leveldb.bloom,hybrid:family=native,"
      "burr:fpp=0.001");
  absl::StatusOr<Options> options = MakeOptions(raw);
  ASSERT_TRUE(options.ok()) << options.status();
  std::vector<std::string> names;
  for (const ImplEntry* entry : options->bench.impls) {
    names.push_back(entry->name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{
                       "bloom:path=portable", "lib:leveldb.bloom",
                       "hybrid:family=native", "burr:fpp=0.001"}));
  // An unsized spec takes each case's size; a sized one keeps its own.
  absl::StatusOr<std::unique_ptr<ImplRunner>> hybrid =
      options->bench.impls[2]->make(FilterOptions::BitsPerKey(12), false);
  ASSERT_TRUE(hybrid.ok()) << hybrid.status();
  absl::StatusOr<std::unique_ptr<ImplRunner>> burr =
      options->bench.impls[3]->make(FilterOptions::BitsPerKey(12), false);
  ASSERT_TRUE(burr.ok()) << burr.status();

  const std::pair<const char*, const char*> refused[] = {
      {"blom", "--filter: unknown filter family \"blom\""},
      {"lib:rocksdb.bloomier",
       "--filter: unknown peer \"lib:rocksdb.bloomier\""},
      {"bloom:10:path=fast", "is not one of best, portable"},
  };
  for (const auto& [filter, message] : refused) {
    RawFlags bad;
    bad.filter = *ParseSpecList(filter);
    absl::StatusOr<Options> refusal = MakeOptions(bad);
    ASSERT_FALSE(refusal.ok()) << filter;
    EXPECT_EQ(refusal.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(refusal.status().message().find(message), std::string::npos)
        << refusal.status().message();
    EXPECT_EQ(refusal.status().message().find('\n'), std::string::npos);
  }
  RawFlags impls;
  impls.impls = "sstfilter";
  EXPECT_NE(MakeOptions(impls).status().message().find(
                "--impls is replaced by --filter"),
            std::string::npos);
}

}  // namespace
}  // namespace bench
}  // namespace sstfilter
