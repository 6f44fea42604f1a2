// What format version 2's CRC32C costs (filter/format_version_2.md), version 1
// beside it, 16-byte keys at 1%:
//  - BM_OneCallQuery: LevelDB's path, KeyMayMatch(key, filter) on filters of
//    40 keys (LevelDB's one filter per 2 KB of data); 4,096 filters and 2^20
//    distinct query keys, none repeated within a pass. Absent keys are the
//    worst case for version 2: it verifies the CRC before every "no".
//  - BM_NewReader: a reader object over a table's full filter (the CRC is
//    verified once, here: the cost a table open pays), and over a filter of
//    3,400 keys, about 4 KB: a partition of RocksDB's partitioned filters
//    (metadata_block_size 4096), whose reader RocksDB creates at every load
//    into its block cache.
//
//   bazel run -c opt //bench/micro:self_checksum_benchmark --
//       --benchmark_repetitions=3 --benchmark_enable_random_interleaving=true

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "filter/bloom/bloom.h"
#include "filter/burr/burr.h"
#include "filter/filter_policy.h"
#include "filter/testing/filter_test_util.h"

namespace sstfilter {
namespace {

enum Family { kNative, kCompact };

std::unique_ptr<const FilterPolicy> PolicyOf(int64_t family, int64_t version) {
  FilterOptions options = FilterOptions::Fpp(0.01);
  options.self_checksum = version == 2;
  return family == kNative ? *NewBloomFilterPolicy(options)
                           : *NewBurrFilterPolicy(options);
}

void Label(benchmark::State& state, const char* what) {
  state.SetLabel(absl::StrCat(state.range(0) == kNative ? "native" : "compact",
                              " v", state.range(1), " ", what));
}

constexpr uint64_t kFilters = 4096;
constexpr uint64_t kKeysPerFilter = 40;
constexpr uint64_t kQueryKeys = 1 << 20;

// range(0): family; range(1): version; range(2): 1 for present keys.
void BM_OneCallQuery(benchmark::State& state) {
  const std::unique_ptr<const FilterPolicy> policy =
      PolicyOf(state.range(0), state.range(1));
  std::vector<std::string> filters(kFilters);
  for (uint64_t f = 0; f < kFilters; ++f) {
    filters[f] = test::BuildFilter(
        *policy, test::Keys16(0, f * kKeysPerFilter, kKeysPerFilter));
  }
  const bool present = state.range(2) == 1;
  // Present: key i of filter i % kFilters; absent: keys of another set.
  const std::vector<std::string> keys =
      present ? test::Keys16(0, 0, kFilters * kKeysPerFilter)
              : test::Keys16(1, 0, kQueryKeys);
  uint64_t i = 0;
  uint64_t matches = 0;
  for (auto _ : state) {
    const uint64_t k = i % keys.size();
    const uint64_t f = present ? k / kKeysPerFilter : k % kFilters;
    matches += policy->KeyMayMatch(keys[k], filters[f]);
    ++i;
  }
  benchmark::DoNotOptimize(matches);
  if (present && matches != i) state.SkipWithError("a present key missed");
  Label(state, present ? "present" : "absent");
  state.SetItemsProcessed(state.iterations());
}

// range(0): family; range(1): version; range(2): keys in the filter.
void BM_NewReader(benchmark::State& state) {
  const std::unique_ptr<const FilterPolicy> policy =
      PolicyOf(state.range(0), state.range(1));
  const std::string filter = test::BuildFilter(
      *policy, test::Keys16(0, 0, static_cast<uint64_t>(state.range(2))));
  for (auto _ : state) {
    std::unique_ptr<FilterReader> reader = policy->NewReader(filter);
    benchmark::DoNotOptimize(reader.get());
  }
  Label(state, absl::StrCat(filter.size(), " bytes").c_str());
  // The rate of the CRC over the filter; version 1 reads none of its bytes.
  if (state.range(1) == 2) {
    state.SetBytesProcessed(state.iterations() * filter.size());
  }
}

BENCHMARK(BM_OneCallQuery)
    ->ArgsProduct({{kNative, kCompact}, {1, 2}, {0, 1}})
    ->MinTime(0.3);
BENCHMARK(BM_NewReader)
    ->ArgsProduct({{kNative, kCompact}, {1, 2}, {3400, 10000, 1000000}})
    ->MinTime(0.3);

}  // namespace
}  // namespace sstfilter
