// Helpers shared by the tests of inmemory/mutable: making a filter, presenting
// an in-memory filter as a FilterReader (so bloom_test_util.h's CountMatches
// and friends serve it), and running writer threads while reader threads
// query what they have published.

#ifndef SSTFILTER_INMEMORY_MUTABLE_MUTABLE_TEST_UTIL_H_
#define SSTFILTER_INMEMORY_MUTABLE_MUTABLE_TEST_UTIL_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/filter_policy.h"
#include "gtest/gtest.h"
#include "inmemory/mutable/mutable_bloom.h"

namespace sstfilter {
namespace mutable_test {

// A filter that must be made: the test fails (and the filter is empty) if not.
inline MutableBloomFilter Make(const FilterOptions& options,
                               uint64_t expected_keys) {
  absl::StatusOr<MutableBloomFilter> filter =
      MutableBloomFilter::Create(options, expected_keys);
  EXPECT_TRUE(filter.ok()) << filter.status();
  return std::move(filter).value();  // aborts on an error
}

// MayMatch is the filter's MayContain, single and batched.
template <typename Filter>
class AsReader final : public FilterReader {
 public:
  explicit AsReader(const Filter& filter) : filter_(filter) {}

  bool MayMatch(absl::string_view key) const override {
    return filter_.MayContain(key);
  }
  void MayMatch(absl::Span<const absl::string_view> keys,
                bool* results) const override {
    filter_.MayContain(keys, results);
  }
  double ExpectedFpp() const override { return filter_.ExpectedFpp(); }

 private:
  const Filter& filter_;
};

// What the readers of QueryWhileAdding saw.
struct QueryWhileAddingResult {
  std::vector<uint64_t> misses;  // per reader: published keys not matched
  std::vector<uint64_t> checks;  // per reader: published keys asked
};

// keys.size() writer threads: writer t calls add(t, i) for i = 0, 1, ... in
// order, publishing each key with a release store once add returns. Then
// `readers` reader threads, which start first (on two cores the writers could
// otherwise finish before a reader runs), until the writers are done ask
// filter about published keys: the last 64 of each writer batched, and one
// more of each single. Every 64 rounds reader r calls
// now_and_then(r, published), published[t] being how many of writer t's keys
// had been published when the call began (for whole-filter reads).
template <typename Filter, typename Add, typename NowAndThen>
QueryWhileAddingResult QueryWhileAdding(
    const Filter& filter, const std::vector<std::vector<std::string>>& keys,
    int readers, Add add, NowAndThen now_and_then) {
  const size_t writers = keys.size();
  std::unique_ptr<std::atomic<uint64_t>[]> published(
      new std::atomic<uint64_t>[writers]);
  for (size_t t = 0; t < writers; ++t) published[t].store(0);
  std::atomic<int> readers_started{0};
  std::atomic<size_t> writers_running{writers};
  QueryWhileAddingResult result;
  result.misses.assign(readers, 0);
  result.checks.assign(readers, 0);

  std::vector<std::thread> threads;
  for (size_t t = 0; t < writers; ++t) {
    threads.emplace_back([&, t] {
      while (readers_started.load(std::memory_order_acquire) < readers) {
        std::this_thread::yield();
      }
      for (uint64_t i = 0; i < keys[t].size(); ++i) {
        add(t, i);
        published[t].store(i + 1, std::memory_order_release);
      }
      writers_running.fetch_sub(1, std::memory_order_release);
    });
  }
  for (int r = 0; r < readers; ++r) {
    threads.emplace_back([&, r] {
      constexpr uint64_t kRecent = 64;
      std::vector<absl::string_view> batch;
      std::unique_ptr<bool[]> results(new bool[writers * kRecent]);
      std::vector<uint64_t> snapshot(writers);
      readers_started.fetch_add(1, std::memory_order_release);
      for (uint64_t round = 1;
           writers_running.load(std::memory_order_acquire) > 0; ++round) {
        batch.clear();
        for (size_t t = 0; t < writers; ++t) {
          const uint64_t n = published[t].load(std::memory_order_acquire);
          for (uint64_t i = n > kRecent ? n - kRecent : 0; i < n; ++i) {
            batch.push_back(keys[t][i]);
          }
          if (n > 0 && !filter.MayContain(keys[t][(round * 7919) % n])) {
            ++result.misses[r];
          }
        }
        filter.MayContain(absl::MakeConstSpan(batch), results.get());
        for (size_t i = 0; i < batch.size(); ++i) {
          result.misses[r] += !results[i];
        }
        result.checks[r] += batch.size() + writers;
        if (round % 64 == static_cast<uint64_t>(r)) {
          for (size_t t = 0; t < writers; ++t) {
            snapshot[t] = published[t].load(std::memory_order_acquire);
          }
          now_and_then(r, snapshot);
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  return result;
}

}  // namespace mutable_test
}  // namespace sstfilter

#endif  // SSTFILTER_INMEMORY_MUTABLE_MUTABLE_TEST_UTIL_H_
