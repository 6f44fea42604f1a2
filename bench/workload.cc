#include "bench/workload.h"

#include "bench/built_filter.h"

namespace sstfilter {
namespace bench {
namespace {

// Any constant: the same queries in every run.
constexpr uint64_t kQuerySeed = 0x5eed0f5eed0f5eedULL;
constexpr uint64_t kLsmFilters = 6400;         // filters in lsm6400
constexpr uint64_t kLsmKeysPerFilter = 10000;  // keys per lsm filter
// Half of lsm6400, for runs that must be short: building the filters is most
// of an lsm case's time, and 40 MB of them at 10 bits/key still exceed the L3.
constexpr uint64_t kSmallLsmFilters = 3200;

// A deterministic stream of 64-bit random numbers.
class Stream {
 public:
  explicit Stream(uint64_t salt) : state_(kQuerySeed ^ Mix64(salt)) {}
  uint64_t Next() { return Mix64(++state_); }
  uint64_t Below(uint64_t n) {
    return static_cast<uint64_t>((__uint128_t{Next()} * n) >> 64);
  }

 private:
  uint64_t state_;
};

enum class Mix { kPresent, kAbsent, kHalf };

QuerySet MakeQuerySet(const Workload& w, size_t num_queries, Mix mix,
                      bool group_filters, uint64_t salt) {
  Stream rng(salt);
  QuerySet set{w.kind, {}, {}};
  set.indexes.reserve(num_queries);
  const bool multi = w.num_filters > 1;
  if (multi) set.filters.reserve(num_queries);
  uint32_t filter = 0;
  uint64_t next_absent =
      kAbsentBase + salt * num_queries;  // disjoint across sets
  for (size_t i = 0; i < num_queries; ++i) {
    if (multi && (!group_filters || i % kBatchSize == 0)) {
      filter = static_cast<uint32_t>(rng.Below(w.num_filters));
    }
    const bool present =
        mix == Mix::kPresent || (mix == Mix::kHalf && (rng.Next() & 1) != 0);
    set.indexes.push_back(present ? w.first_index(filter) +
                                        rng.Below(w.keys_per_filter)
                                  : next_absent++);
    if (multi) set.filters.push_back(filter);
  }
  return set;
}

}  // namespace

const std::vector<WorkloadSpec>& AllWorkloads() {
  static const auto* workloads = new std::vector<WorkloadSpec>{
      {"random16", KeyKind::kRandom16, 0, 0,
       "random 16-byte keys (the headline)"},
      {"sequential", KeyKind::kSequential, 0, 0,
       "\"user%012d\" keys, in index order"},
      {"varlen", KeyKind::kVarlen, 0, 0, "random keys of 8 to 100 bytes"},
      {"lsm6400", KeyKind::kRandom16, kLsmFilters, kLsmKeysPerFilter,
       "6,400 filters of 10^4 random 16-byte keys, a random filter per query"},
      {"lsm3200", KeyKind::kRandom16, kSmallLsmFilters, kLsmKeysPerFilter,
       "3,200 filters of 10^4 random 16-byte keys, a random filter per query "
       "(half of lsm6400, still more than the L3)"},
  };
  return *workloads;
}

const WorkloadSpec* FindWorkload(absl::string_view name) {
  for (const WorkloadSpec& spec : AllWorkloads()) {
    if (name == spec.name) return &spec;
  }
  return nullptr;
}

absl::StatusOr<std::vector<Workload>> ExpandWorkloads(
    const std::vector<std::string>& names, const std::vector<uint64_t>& keys,
    const std::vector<uint64_t>& other_keys) {
  std::vector<Workload> workloads;
  for (const std::string& name : names) {
    const WorkloadSpec* spec = FindWorkload(name);
    if (spec == nullptr) {
      return absl::InvalidArgumentError("unknown workload " + name);
    }
    if (spec->num_filters > 0) {
      workloads.push_back(
          {spec->name, spec->kind, spec->num_filters, spec->keys_per_filter});
      continue;
    }
    const bool headline = spec->kind == KeyKind::kRandom16;
    for (uint64_t n : headline ? keys : other_keys) {
      workloads.push_back({spec->name, spec->kind, 1, n});
    }
  }
  return workloads;
}

CaseData MakeCaseData(const Workload& w, const FilterOptions& options,
                      size_t num_queries) {
  CaseData data{w,
                options,
                MakeQuerySet(w, num_queries, Mix::kPresent, false, 1),
                MakeQuerySet(w, num_queries, Mix::kAbsent, false, 2),
                MakeQuerySet(w, num_queries, Mix::kHalf, false, 3),
                MakeQuerySet(w, num_queries, Mix::kHalf, true, 4),
                {},
                0.0};
  Stream rng(5);
  data.random32.reserve(num_queries);
  for (size_t i = 0; i < num_queries; ++i) {
    data.random32.push_back(static_cast<uint32_t>(rng.Next()));
  }
  size_t bytes = 0;
  char key[kMaxKeyBytes];
  for (uint64_t index : data.positive.indexes)
    bytes += MakeKey(w.kind, index, key);
  data.key_bytes =
      static_cast<double>(bytes) / static_cast<double>(num_queries);
  return data;
}

}  // namespace bench
}  // namespace sstfilter
