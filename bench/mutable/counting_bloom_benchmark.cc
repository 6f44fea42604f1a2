// Nanoseconds per Add, Remove and MayContain of the counting Bloom filter, at
// 1% and two sizes (in cache, and past L2). Every operation takes the next of
// n distinct 16-byte keys, never a small repeated set, which would let the
// branch predictor and the caches learn the answers. Before timing, each case
// checks that every added key matches.
//
//   bazel run -c opt //bench/mutable:counting_bloom_benchmark

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "benchmark/benchmark.h"
#include "filter/filter_policy.h"
#include "filter/testing/filter_test_util.h"
#include "inmemory/counting/counting_bloom.h"

namespace sstfilter {
namespace {

constexpr size_t kKeyBytes = 16;

// The tests' keys Key16(set, 0..n-1) in one flat buffer: different sets never
// share a key.
class Keys {
 public:
  Keys(uint64_t set, size_t n) {
    bytes_.reserve(n * kKeyBytes);
    for (size_t i = 0; i < n; ++i) bytes_ += test::Key16(set, i);
  }
  size_t size() const { return bytes_.size() / kKeyBytes; }
  absl::string_view operator[](size_t i) const {
    return absl::string_view(&bytes_[i * kKeyBytes], kKeyBytes);
  }

 private:
  std::string bytes_;
};

CountingBloomFilter Filled(const Keys& keys, benchmark::State& state) {
  CountingBloomFilter filter =
      *CountingBloomFilter::Create(FilterOptions::Fpp(0.01), keys.size());
  for (size_t i = 0; i < keys.size(); ++i) filter.Add(keys[i]);
  for (size_t i = 0; i < keys.size(); ++i) {
    if (!filter.MayContain(keys[i])) state.SkipWithError("false negative");
  }
  return filter;
}

void Report(benchmark::State& state, const CountingBloomFilter& filter) {
  state.SetItemsProcessed(state.iterations());
  state.counters["bytes_per_key"] = static_cast<double>(filter.MemoryBytes()) /
                                    static_cast<double>(filter.ExpectedKeys());
}

// Adds n keys, clears, adds them again: the filter never holds more than n.
void BM_Add(benchmark::State& state) {
  const Keys keys(0, static_cast<size_t>(state.range(0)));
  CountingBloomFilter filter = Filled(keys, state);
  filter.Clear();
  size_t i = 0;
  for (auto _ : state) {
    filter.Add(keys[i]);
    if (++i == keys.size()) {
      i = 0;
      filter.Clear();  // about 0.05 ns per add, spread over n adds
    }
  }
  Report(state, filter);
}

// Removes the n keys one by one; refills (untimed) when empty.
void BM_Remove(benchmark::State& state) {
  const Keys keys(0, static_cast<size_t>(state.range(0)));
  CountingBloomFilter filter = Filled(keys, state);
  size_t i = 0;
  bool all_removed = true;
  for (auto _ : state) {
    all_removed &= filter.Remove(keys[i]);
    if (++i == keys.size()) {
      i = 0;
      state.PauseTiming();
      for (size_t j = 0; j < keys.size(); ++j) filter.Add(keys[j]);
      state.ResumeTiming();
    }
  }
  if (!all_removed) state.SkipWithError("a Remove of an added key failed");
  Report(state, filter);
}

// A window of n keys sliding over 2n: each iteration adds one key and removes
// the oldest, as a cache or memtable does.
void BM_AddAndRemove(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  const Keys keys(0, 2 * n);
  CountingBloomFilter filter =
      *CountingBloomFilter::Create(FilterOptions::Fpp(0.01), n);
  for (size_t i = 0; i < n; ++i) filter.Add(keys[i]);
  size_t oldest = 0;
  bool all_removed = true;
  for (auto _ : state) {
    filter.Add(keys[(oldest + n) % keys.size()]);
    all_removed &= filter.Remove(keys[oldest]);
    oldest = (oldest + 1) % keys.size();
  }
  if (!all_removed) state.SkipWithError("a Remove of an added key failed");
  Report(state, filter);
}

// Queries of keys never added (set 1) or all added (set 0).
void MayContain(benchmark::State& state, uint64_t query_set) {
  const Keys added(0, static_cast<size_t>(state.range(0)));
  const CountingBloomFilter filter = Filled(added, state);
  const Keys queries(query_set, added.size());
  size_t i = 0;
  uint64_t matches = 0;
  for (auto _ : state) {
    matches += filter.MayContain(queries[i]) ? 1 : 0;
    if (++i == queries.size()) i = 0;
  }
  benchmark::DoNotOptimize(matches);
  Report(state, filter);
}

void BM_MayContainAbsent(benchmark::State& state) { MayContain(state, 1); }
void BM_MayContainPresent(benchmark::State& state) { MayContain(state, 0); }

// Batches of 32 absent keys; one iteration is one key.
void BM_MayContainBatch32(benchmark::State& state) {
  const Keys added(0, static_cast<size_t>(state.range(0)));
  const CountingBloomFilter filter = Filled(added, state);
  const Keys queries(1, added.size() / 32 * 32);
  std::vector<absl::string_view> views(queries.size());
  for (size_t i = 0; i < views.size(); ++i) views[i] = queries[i];
  bool results[32];
  size_t i = 0;
  uint64_t matches = 0;
  for (auto _ : state) {
    if (i % 32 == 0) {
      if (i == views.size()) i = 0;
      filter.MayContain(absl::MakeConstSpan(&views[i], 32), results);
    }
    matches += results[i % 32] ? 1 : 0;
    ++i;
  }
  benchmark::DoNotOptimize(matches);
  Report(state, filter);
}

// 10^4 keys: 54 KB, in L2. 10^6: 5.4 MB, past L2.
BENCHMARK(BM_Add)->Arg(10000)->Arg(1000000);
BENCHMARK(BM_Remove)->Arg(10000)->Arg(1000000);
BENCHMARK(BM_AddAndRemove)->Arg(10000)->Arg(1000000);
BENCHMARK(BM_MayContainAbsent)->Arg(10000)->Arg(1000000);
BENCHMARK(BM_MayContainPresent)->Arg(10000)->Arg(1000000);
BENCHMARK(BM_MayContainBatch32)->Arg(10000)->Arg(1000000);

}  // namespace
}  // namespace sstfilter
