// The suites of cases filter_bench runs when --workloads and --keys do not
// name them: which workloads, at which filter sizes, and how long that takes.
// Every other flag (--impls, --reps, --bits_per_key, ...) applies to each
// suite alike, and --workloads or --keys, when given, replace the suite's.

#ifndef SSTFILTER_BENCH_SUITES_H_
#define SSTFILTER_BENCH_SUITES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace sstfilter {
namespace bench {

struct Suite {
  const char* name;
  std::vector<std::string> workloads;
  std::vector<uint64_t> keys;        // keys per filter of random16
  std::vector<uint64_t> other_keys;  // keys per filter of sequential, varlen
  uint64_t plot_keys;                // keys per filter of --plot's FP sweep
  // Wall time of the whole run with the default implementations and reps on
  // a 2-core machine, as a rule of thumb (the machine's speed drifts).
  const char* duration;
};

// The suite a run without --suite (and without --quick) takes.
constexpr char kDefaultSuite[] = "headline";
// The suite --quick stands for.
constexpr char kQuickSuite[] = "quick";

// headline, full, quick: the default first, then by length.
const std::vector<Suite>& AllSuites();
const Suite* FindSuite(absl::string_view name);

// "random16 at 10^4, 10^6 keys; lsm3200": the cases, for --help and the
// progress line that opens a run.
std::string DescribeCases(const Suite& suite);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_SUITES_H_
