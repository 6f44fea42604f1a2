// Runs the benchmark: every case (filter size setting x workload x key count),
// each repeated with the implementations interleaved, and reduces the
// repetitions to medians.

#ifndef SSTFILTER_BENCH_HARNESS_H_
#define SSTFILTER_BENCH_HARNESS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "bench/impls.h"
#include "bench/measure.h"
#include "filter/filter_policy.h"

namespace sstfilter {
namespace bench {

// How a case's implementations share the clock (block_timing.h).
enum class Timing {
  kAuto,         // interleaved when one implementation's filters are more
                 // than twice the L3 cache, else sequential
  kInterleaved,  // all built first, then every block asked of each in turn
  kSequential,   // each built and timed in turn, alone in memory
};

struct BenchConfig {
  std::vector<const ImplEntry*> impls;
  std::vector<std::string> workloads;
  std::vector<uint64_t> keys;        // filter sizes of random16 (the headline)
  std::vector<uint64_t> other_keys;  // filter sizes of sequential and varlen
  std::vector<FilterOptions>
      filter_sizes;  // one --bits_per_key or --fpp value each
  int reps = 3;
  size_t queries = size_t{1}
                   << 20;     // per query set; at least 10^6 for the FP rate
  bool drop_one_key = false;  // --inject_false_negative
  int placement = -1;         // --placement: kNaturalPlacement or 0..63
  bool huge_pages = false;    // --huge_pages
  Timing timing = Timing::kAuto;  // --timing
};

// One line of the report: medians over reps of one implementation on one case.
struct Row {
  std::string impl;
  std::string
      details;  // the implementation's own description of its configuration
  std::string workload;
  uint64_t keys = 0;               // keys per filter
  uint64_t filters = 1;            // filters in the workload
  double key_bytes = 0;            // mean key length
  double bits_per_key_config = 0;  // as this implementation was configured
  std::optional<double> bits_per_key_requested;  // the case's --bits_per_key
  std::optional<double> fpp_config;              // the case's --fpp
  bool has_batch = false;
  RepResult median;
  double hash_floor_ns = 0;
  int reps = 0;
  std::string check;         // which added keys were checked
  int placement = -1;        // as requested (kNaturalPlacement: as built)
  bool huge_pages = false;   // filters and memory floors in a FilterArena
  bool interleaved = false;  // timed block by block with the case's others
  int case_index = 0;        // rows of one case share it
};

using Progress = std::function<void(const std::string& line)>;

// Returns the rows, or the first error: a false negative (DataLossError), a
// filter of the wrong kind, or options an implementation refuses.
absl::StatusOr<std::vector<Row>> RunBench(const BenchConfig& config,
                                          const Progress& progress);

// FP rate of each implementation at each whole bits/key in [first, last], on
// one filter of `keys` random 16-byte keys (one repetition, every added key
// checked).
struct FppPoint {
  double bits_per_key_config;
  double bits_per_key;
  double fp_rate;
};
struct FppSeries {
  std::string impl;
  std::vector<FppPoint> points;
};
absl::StatusOr<std::vector<FppSeries>> SweepFpp(const BenchConfig& config,
                                                uint64_t keys, int first,
                                                int last,
                                                const Progress& progress);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_HARNESS_H_
