// What verifying a build costs (filter/verified_build.h): nanoseconds per key
// of building a filter with a policy's builder and with VerifiedFilterBuilder,
// which also keeps every key and queries the finished filter for each, and the
// bytes per key it keeps. 16-byte distinct keys at 1%, 10^4 keys (a
// partition, in cache) and 10^6 (a table's full filter, past L2). Every
// verified build must pass its check, or the case reports an error.
//
//   bazel run -c opt //bench/micro:verified_build_benchmark

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "filter/bloom/bloom.h"
#include "filter/burr/burr.h"
#include "filter/filter_policy.h"
#include "filter/testing/filter_test_util.h"
#include "filter/verified_build.h"

namespace sstfilter {
namespace {

enum Family { kNative, kCompact };

std::unique_ptr<const FilterPolicy> PolicyOf(int64_t family) {
  const FilterOptions options = FilterOptions::Fpp(0.01);
  return family == kNative ? *NewBloomFilterPolicy(options)
                           : *NewBurrFilterPolicy(options);
}

void Label(benchmark::State& state) {
  state.SetLabel(state.range(0) == kNative ? "native" : "compact");
  state.SetItemsProcessed(state.iterations() * state.range(1));
}

void BM_Build(benchmark::State& state) {
  const std::unique_ptr<const FilterPolicy> policy = PolicyOf(state.range(0));
  const std::vector<std::string> keys =
      test::Keys16(0, 0, static_cast<uint64_t>(state.range(1)));
  std::unique_ptr<FilterBuilder> builder = policy->NewBuilder();
  std::string filter;
  for (auto _ : state) {
    for (const std::string& key : keys) builder->AddKey(key);
    filter.clear();
    builder->Finish(&filter);
    benchmark::DoNotOptimize(filter.data());
  }
  Label(state);
}

void BM_VerifiedBuild(benchmark::State& state) {
  const std::unique_ptr<const FilterPolicy> policy = PolicyOf(state.range(0));
  const std::vector<std::string> keys =
      test::Keys16(0, 0, static_cast<uint64_t>(state.range(1)));
  VerifiedFilterBuilder builder(*policy);
  std::string filter;
  for (auto _ : state) {
    for (const std::string& key : keys) builder.AddKey(key);
    filter.clear();
    if (!builder.Finish(&filter).ok()) {
      state.SkipWithError("verification failed");
      break;
    }
    benchmark::DoNotOptimize(filter.data());
  }
  Label(state);
  AddedKeys kept;
  for (const std::string& key : keys) kept.Add(key);
  state.counters["kept_bytes_per_key"] =
      static_cast<double>(kept.AllocatedBytes()) /
      static_cast<double>(keys.size());
}

void Cases(benchmark::internal::Benchmark* b) {
  for (int64_t family : {kNative, kCompact}) {
    for (int64_t n : {10000, 1000000}) b->Args({family, n});
  }
  b->Unit(benchmark::kMillisecond);
}

BENCHMARK(BM_Build)->Apply(Cases);
BENCHMARK(BM_VerifiedBuild)->Apply(Cases);

}  // namespace
}  // namespace sstfilter
