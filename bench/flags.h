// filter_bench's command line: the flags, their defaults, and validation. Every
// bad value is a one-line InvalidArgumentError naming the flag and the value;
// the binary prints it and exits with status 2 (kUsageExit).

#ifndef SSTFILTER_BENCH_FLAGS_H_
#define SSTFILTER_BENCH_FLAGS_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "bench/harness.h"
#include "bench/impls.h"
#include "bench/suites.h"
#include "filter/spec_list.h"

namespace sstfilter {
namespace bench {

constexpr int kUsageExit = 2;          // bad flags
constexpr int kFalseNegativeExit = 3;  // an added key did not match
constexpr int kErrorExit = 1;          // anything else

enum class Format { kTable, kJson };

// The flags as given, before validation.
struct RawFlags {
  std::string impls;  // replaced by --filter: refused, saying so
  SpecList filter;    // --filter: specs and lib: peers
  std::string workloads;
  std::string keys;
  std::string bits_per_key;
  std::string fpp;
  std::string reps;
  std::string format = "table";
  std::string placement = "natural";
  bool huge_pages = false;
  std::string timing = "auto";
  std::string plot;
  std::string suite;   // empty: kDefaultSuite, or kQuickSuite with --quick
  bool quick = false;  // the same as --suite=quick
  bool list = false;
  bool inject_false_negative = false;
};

struct Options {
  BenchConfig bench;
  // The implementations --filter names, which bench.impls points into.
  std::vector<std::shared_ptr<const SpecImpl>> spec_impls;
  Format format = Format::kTable;
  std::string plot;              // PNG path, empty: no plot
  const Suite* suite = nullptr;  // never null once made
  // Whether the suite chose the workloads and sizes (neither --workloads nor
  // --keys was given).
  bool cases_from_suite = true;
  bool list = false;
};

// Validates raw flags and applies defaults (which depend on the suite).
absl::StatusOr<Options> MakeOptions(const RawFlags& raw);

// Parses argv with Abseil's flags library. Unknown flags, malformed values and
// stray arguments are returned as errors (Abseil alone would exit with status
// 1). --help and friends behave as Abseil defines them.
absl::StatusOr<Options> ParseCommandLine(int argc, char** argv);

// Usage text for --help: the synopsis and what each suite runs, and for how
// long.
std::string UsageText();

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_FLAGS_H_
