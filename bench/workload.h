// Workloads and the query sets of one benchmark case, shared by every
// implementation so that all of them answer exactly the same queries.
//
// A workload is F filters of n keys each (F = 1 except lsm6400). Filter f holds
// the keys of indexes [f * n, (f + 1) * n) (keys.h); absent keys have indexes
// from kAbsentBase.

#ifndef SSTFILTER_BENCH_WORKLOAD_H_
#define SSTFILTER_BENCH_WORKLOAD_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "bench/keys.h"
#include "filter/filter_policy.h"

namespace sstfilter {
namespace bench {

// The last-level cache of the machines the benchmark was designed on (2-core
// Zen 3 EPYC): a workload meant to run out of cache holds more filter bytes.
constexpr double kL3CacheBytes = 32 * 1024 * 1024;

struct WorkloadSpec {
  const char* name;
  KeyKind kind;
  size_t num_filters;        // 0: one filter, of each --keys size
  uint64_t keys_per_filter;  // used when num_filters > 0
  const char* description;
};

// random16, sequential, varlen, lsm6400, lsm3200, in that order.
const std::vector<WorkloadSpec>& AllWorkloads();
const WorkloadSpec* FindWorkload(absl::string_view name);

// One workload at one size.
struct Workload {
  std::string name;
  KeyKind kind;
  size_t num_filters;
  uint64_t keys_per_filter;

  uint64_t total_keys() const { return num_filters * keys_per_filter; }
  uint64_t first_index(size_t filter) const { return filter * keys_per_filter; }
};

// The workloads the named specs stand for, in order: a spec of fixed size
// (lsm) as it is, each other one at every size, random16 (the headline) at
// `keys` and the others at `other_keys`. An unknown name is an
// InvalidArgumentError.
absl::StatusOr<std::vector<Workload>> ExpandWorkloads(
    const std::vector<std::string>& names, const std::vector<uint64_t>& keys,
    const std::vector<uint64_t>& other_keys);

// Queries, as key indexes, and the filter each one asks (filters is empty when
// there is one filter). Keys are made just before they are asked (measure.h).
struct QuerySet {
  KeyKind kind;
  std::vector<uint64_t> indexes;
  std::vector<uint32_t> filters;

  size_t size() const { return indexes.size(); }
};

// Everything about one case that does not depend on the implementation.
struct CaseData {
  Workload workload;
  FilterOptions options;
  // Added keys, a random filter and key per query.
  QuerySet positive;
  // Absent keys: the false-positive sample and the negative timing.
  QuerySet negative;
  // Half added, half absent, in random order.
  QuerySet mixed;
  // Like mixed, but each aligned group of kBatchSize asks one filter.
  QuerySet batched;
  std::vector<uint32_t> random32;  // one random word per query (memory floor)
  double key_bytes;                // mean key length of the added keys queried
  int placement = -1;       // kNaturalPlacement, or bytes past a cache line
  bool huge_pages = false;  // filters and memory floors in a FilterArena
};

// Builds the query sets: num_queries queries each (a multiple of kBatchSize),
// drawn with a fixed seed, so every run asks the same queries.
CaseData MakeCaseData(const Workload& workload, const FilterOptions& options,
                      size_t num_queries);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_WORKLOAD_H_
