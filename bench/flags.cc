#include "bench/flags.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "bench/built_filter.h"
#include "bench/impls.h"
#include "bench/workload.h"
#include "util/flag_check.h"

// --filter is the tools' shared SpecList, whose list faults (an empty entry,
// a repeat) CheckFlags reports; every other value flag is a string validated
// by MakeOptions.
ABSL_FLAG(sstfilter::SpecList, filter, {},
          "comma list of what to run: sstfilter policy specs "
          "(filter/filter_spec.h), sized by --bits_per_key or --fpp unless "
          "they give a size (bloom,burr:fpp=0.001,hybrid:family=native), and "
          "other libraries' filters (lib:rocksdb.fastbloom); default: bloom, "
          "leveldb, burr and every lib: peer; --list prints the names");
ABSL_FLAG(std::string, impls, "",
          "replaced by --filter, which takes the same names as specs and "
          "lib: peers");
ABSL_FLAG(std::string, suite, "",
          "the cases to run: headline (the default), full or quick; the "
          "usage message above says what each runs and how long it takes");
ABSL_FLAG(std::string, workloads, "",
          "comma list of workloads: random16,sequential,varlen,lsm6400,"
          "lsm3200 (default: the suite's)");
ABSL_FLAG(std::string, keys, "",
          "comma list of keys per filter for the single-filter workloads, "
          "e.g. 1e4,10^6 (default: the suite's)");
ABSL_FLAG(std::string, bits_per_key, "",
          "comma list of bits/key settings, in [1, 100] (default: 10)");
ABSL_FLAG(std::string, fpp, "",
          "comma list of target false-positive rates, in (0, 1); peers get "
          "the standard Bloom bits/key for each");
ABSL_FLAG(std::string, reps, "",
          "repetitions per figure, median reported (default: 3)");
ABSL_FLAG(std::string, format, "table",
          "output: table or json (one object per row)");
ABSL_FLAG(std::string, plot, "",
          "also sweep 6..20 bits/key and draw FP rate against bits/key to "
          "this PNG");
ABSL_FLAG(std::string, placement, "natural",
          "where each filter's first byte sits: natural (where its builder "
          "left it) or 0..63 bytes past a 64-byte cache line boundary");
ABSL_FLAG(bool, huge_pages, false,
          "copy every filter, and the memory floors' buffer, into a "
          "FilterArena (filter/filter_arena.h): memory that asks the kernel "
          "for transparent huge pages, each filter 64-byte aligned unless "
          "--placement says otherwise");
ABSL_FLAG(std::string, timing, "auto",
          "how implementations share the clock: interleaved (every block of "
          "1,024 queries asked of each in turn), sequential (one after "
          "another), or auto (interleaved when each one's filters are more "
          "than twice the L3 cache, so that interleaving evicts nothing that "
          "would have stayed)");
ABSL_FLAG(bool, quick, false, "the same as --suite=quick");
ABSL_FLAG(bool, list, false,
          "print the implementation and workload names, then exit");
ABSL_FLAG(bool, inject_false_negative, false,
          "testing: make one added key read 'no' in every implementation; "
          "the run must fail with a false-negative error (exit status 3)");

namespace sstfilter {
namespace bench {
namespace {

// Keys per filter; also keeps every present index below kAbsentBase.
constexpr uint64_t kMaxKeys = 1'000'000'000;
constexpr int kMaxReps = 1000;
constexpr double kDefaultBitsPerKey = 10;

std::vector<std::string> SplitList(const std::string& value) {
  return absl::StrSplit(value, ',');
}

// Accepts 1000000, 1e6 and 10^6.
bool ParseCount(absl::string_view text, uint64_t* out) {
  if (absl::ConsumePrefix(&text, "10^")) {
    int exponent;
    if (!absl::SimpleAtoi(text, &exponent) || exponent < 0 || exponent > 18)
      return false;
    *out = 1;
    for (int i = 0; i < exponent; ++i) *out *= 10;
    return true;
  }
  if (absl::SimpleAtoi(text, out)) return true;
  double value;
  if (!absl::SimpleAtod(text, &value) || !(value >= 0) || value > 1e18 ||
      value != std::floor(value)) {
    return false;
  }
  *out = static_cast<uint64_t>(value);
  return true;
}

absl::StatusOr<std::vector<double>> ParseDoubles(absl::string_view flag,
                                                 const std::string& value,
                                                 double low, double high,
                                                 bool open_range) {
  std::vector<double> values;
  for (const std::string& item : SplitList(value)) {
    double v;
    if (!absl::SimpleAtod(item, &v) || std::isnan(v)) {
      return FlagError(flag, value, "'" + item + "' is not a number");
    }
    const bool in_range =
        open_range ? (v > low && v < high) : (v >= low && v <= high);
    if (!in_range) {
      return FlagError(flag, value,
                       absl::StrFormat("%s is outside %c%g, %g%c", item,
                                       open_range ? '(' : '[', low, high,
                                       open_range ? ')' : ']'));
    }
    values.push_back(v);
  }
  return values;
}

// Lines of the usage message: as wide as Abseil's flag help, and the suites'
// cases indented under their names.
constexpr size_t kUsageWidth = 80;
constexpr size_t kUsageIndent = 12;

// Breaks text at spaces into lines of at most kUsageWidth, each indented.
std::string Wrap(const std::string& text, size_t indent) {
  std::vector<std::string> lines;
  std::string line;
  for (absl::string_view word : absl::StrSplit(text, ' ')) {
    if (!line.empty() && indent + line.size() + 1 + word.size() > kUsageWidth) {
      lines.push_back(std::move(line));
      line.clear();
    }
    if (!line.empty()) line += ' ';
    absl::StrAppend(&line, word);
  }
  lines.push_back(std::move(line));
  return std::string(indent, ' ') +
         absl::StrJoin(lines, "\n" + std::string(indent, ' '));
}

// --suite, or --quick, or the default.
absl::StatusOr<const Suite*> ChooseSuite(const RawFlags& raw) {
  if (raw.quick && !raw.suite.empty() && raw.suite != kQuickSuite) {
    return FlagError("suite", raw.suite,
                     "conflicts with --quick, which is --suite=quick");
  }
  const std::string name = !raw.suite.empty() ? raw.suite
                           : raw.quick        ? kQuickSuite
                                              : kDefaultSuite;
  const Suite* suite = FindSuite(name);
  if (suite == nullptr) {
    std::vector<std::string> names;
    for (const Suite& s : AllSuites()) names.push_back(s.name);
    return FlagError("suite", raw.suite,
                     "unknown suite '" + raw.suite + "' (the suites are " +
                         absl::StrJoin(names, ", ") + ")");
  }
  return suite;
}

}  // namespace

absl::StatusOr<Options> MakeOptions(const RawFlags& raw) {
  Options options;
  absl::StatusOr<const Suite*> suite = ChooseSuite(raw);
  if (!suite.ok()) return suite.status();
  options.suite = *suite;
  options.cases_from_suite = raw.workloads.empty() && raw.keys.empty();
  options.list = raw.list;
  options.plot = raw.plot;
  if (!raw.plot.empty()) {
    // Checked before the run: the plot is drawn after every case has run.
    std::filesystem::path dir = std::filesystem::path(raw.plot).parent_path();
    if (dir.empty()) dir = ".";
    std::error_code error;
    if (!std::filesystem::is_directory(dir, error)) {
      return FlagError("plot", raw.plot,
                       "'" + dir.string() + "' is not a directory");
    }
  }
  BenchConfig& bench = options.bench;
  bench.drop_one_key = raw.inject_false_negative;

  if (!raw.impls.empty()) {
    return FlagError("impls", raw.impls,
                     "--impls is replaced by --filter: sstfilter's filters by "
                     "spec (bloom, leveldb, burr), others as lib: peers "
                     "(--list prints the names)");
  }
  if (raw.filter.entries.empty()) {
    for (const ImplEntry& entry : Registry()) {
      if (entry.in_default_run) bench.impls.push_back(&entry);
    }
  } else {
    for (const std::string& name : raw.filter.entries) {
      if (const ImplEntry* entry = FindImpl(name)) {
        bench.impls.push_back(entry);
        continue;
      }
      absl::StatusOr<std::unique_ptr<const SpecImpl>> impl = MakeSpecImpl(name);
      if (!impl.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("--filter: ", impl.status().message()));
      }
      options.spec_impls.push_back(*std::move(impl));
      bench.impls.push_back(&options.spec_impls.back()->entry);
    }
  }

  if (raw.workloads.empty()) {
    bench.workloads = options.suite->workloads;
  } else {
    std::set<std::string> seen;
    for (const std::string& name : SplitList(raw.workloads)) {
      if (FindWorkload(name) == nullptr) {
        return FlagError(
            "workloads", raw.workloads,
            "unknown workload '" + name + "' (--list prints the names)");
      }
      if (!seen.insert(name).second) {
        return FlagError("workloads", raw.workloads,
                         "'" + name + "' listed twice");
      }
      bench.workloads.push_back(name);
    }
  }

  if (raw.keys.empty()) {
    bench.keys = options.suite->keys;
    bench.other_keys = options.suite->other_keys;
  } else {
    for (const std::string& item : SplitList(raw.keys)) {
      uint64_t n;
      if (!ParseCount(item, &n) || n < 1 || n > kMaxKeys) {
        return FlagError("keys", raw.keys,
                         absl::StrFormat("'%s' is not a key count in [1, %d]",
                                         item, kMaxKeys));
      }
      bench.keys.push_back(n);
    }
    bench.other_keys = bench.keys;
  }

  if (!raw.bits_per_key.empty()) {
    absl::StatusOr<std::vector<double>> bits =
        ParseDoubles("bits_per_key", raw.bits_per_key, kMinBitsPerKey,
                     kMaxBitsPerKey, false);
    if (!bits.ok()) return bits.status();
    for (double b : *bits)
      bench.filter_sizes.push_back(FilterOptions::BitsPerKey(b));
  }
  if (!raw.fpp.empty()) {
    absl::StatusOr<std::vector<double>> fpps =
        ParseDoubles("fpp", raw.fpp, 0, 1, true);
    if (!fpps.ok()) return fpps.status();
    for (double p : *fpps) bench.filter_sizes.push_back(FilterOptions::Fpp(p));
  }
  if (bench.filter_sizes.empty()) {
    bench.filter_sizes.push_back(FilterOptions::BitsPerKey(kDefaultBitsPerKey));
  }

  if (!raw.reps.empty()) {
    int reps;
    if (!absl::SimpleAtoi(raw.reps, &reps) || reps < 1 || reps > kMaxReps) {
      return FlagError(
          "reps", raw.reps,
          absl::StrFormat("not a repetition count in [1, %d]", kMaxReps));
    }
    bench.reps = reps;
  }

  if (raw.placement != "natural") {
    int placement;
    if (!absl::SimpleAtoi(raw.placement, &placement) || placement < 0 ||
        placement >= static_cast<int>(kCacheLineBytes)) {
      return FlagError("placement", raw.placement,
                       "must be natural or a byte offset in [0, 63]");
    }
    bench.placement = placement;
  }
  bench.huge_pages = raw.huge_pages;
  if (raw.timing == "auto") {
    bench.timing = Timing::kAuto;
  } else if (raw.timing == "interleaved") {
    bench.timing = Timing::kInterleaved;
  } else if (raw.timing == "sequential") {
    bench.timing = Timing::kSequential;
  } else {
    return FlagError("timing", raw.timing,
                     "must be auto, interleaved or sequential");
  }

  if (raw.format == "table") {
    options.format = Format::kTable;
  } else if (raw.format == "json") {
    options.format = Format::kJson;
  } else {
    return FlagError("format", raw.format, "must be table or json");
  }
  return options;
}

absl::StatusOr<Options> ParseCommandLine(int argc, char** argv) {
  absl::SetProgramUsageMessage(UsageText());
  absl::FlagsUsageConfig usage;
  // --help lists the flags of this file (Abseil's default looks for main's
  // file).
  usage.contains_help_flags = [](absl::string_view path) {
    return absl::EndsWith(path, "bench/flags.cc");
  };
  usage.contains_helpshort_flags = usage.contains_help_flags;
  absl::SetFlagsUsageConfig(usage);
  absl::Status pre = CheckFlags(argc, argv);
  if (!pre.ok()) return pre;
  const std::vector<char*> rest = absl::ParseCommandLine(argc, argv);
  if (rest.size() > 1) {
    return absl::InvalidArgumentError(std::string("unexpected argument '") +
                                      rest[1] + "'");
  }
  RawFlags raw;
  raw.impls = absl::GetFlag(FLAGS_impls);
  raw.filter = absl::GetFlag(FLAGS_filter);
  raw.workloads = absl::GetFlag(FLAGS_workloads);
  raw.keys = absl::GetFlag(FLAGS_keys);
  raw.bits_per_key = absl::GetFlag(FLAGS_bits_per_key);
  raw.fpp = absl::GetFlag(FLAGS_fpp);
  raw.reps = absl::GetFlag(FLAGS_reps);
  raw.format = absl::GetFlag(FLAGS_format);
  raw.plot = absl::GetFlag(FLAGS_plot);
  raw.suite = absl::GetFlag(FLAGS_suite);
  raw.placement = absl::GetFlag(FLAGS_placement);
  raw.huge_pages = absl::GetFlag(FLAGS_huge_pages);
  raw.timing = absl::GetFlag(FLAGS_timing);
  raw.quick = absl::GetFlag(FLAGS_quick);
  raw.list = absl::GetFlag(FLAGS_list);
  raw.inject_false_negative = absl::GetFlag(FLAGS_inject_false_negative);
  return MakeOptions(raw);
}

std::string UsageText() {
  std::string text =
      "Benchmarks filter blocks: sstfilter's policies against LevelDB's and "
      "RocksDB's\n"
      "own filters, in one process, on the same keys.\n\n"
      "  filter_bench [--suite=headline|full|quick] "
      "[--filter=SPEC|lib:NAME,...]\n"
      "               [--workloads=a,b] [--keys=N,...] [--bits_per_key=X,...]\n"
      "               [--fpp=P,...] [--reps=N] [--quick]\n"
      "               [--placement=natural|0..63] [--huge_pages]\n"
      "               [--timing=auto|interleaved|sequential]\n"
      "               [--format=table|json] [--plot=FILE.png] [--list]\n\n"
      "Suites: the cases a run takes unless --workloads or --keys name them, "
      "and\nits wall time with the default implementations and reps on a "
      "2-core machine\n(up to twice that on a slower or busier one):\n";
  for (const Suite& suite : AllSuites()) {
    text += absl::StrFormat(
        "  %-9s %s%s\n%s\n", suite.name, suite.duration,
        suite.name == std::string(kDefaultSuite) ? "; the default" : "",
        Wrap(DescribeCases(suite), kUsageIndent));
  }
  text +=
      "Progress, one line per step, goes to stderr; the table or JSON to "
      "stdout.\n"
      "Exit status: 0 ok, 1 error, 2 bad flags, 3 false negative.";
  return text;
}

}  // namespace bench
}  // namespace sstfilter
