// CountingBloomFilter shared by threads as its header allows (any number of
// threads in its const methods at once; Add, Remove and Clear exclusive):
// threads query a filter that has had keys added and removed, single and
// batched, read its statistics and copy it, and every answer must be the one
// a lone thread gets. Then writers and readers take turns under a
// reader-writer lock, the use the header recommends for a shared mutable set.
//
// Tagged "tsan": CI runs it under ThreadSanitizer.

#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"
#include "inmemory/counting/counting_bloom.h"
#include "tests/concurrency/run_on_threads.h"

namespace sstfilter {
namespace {

using test::Key16;
using test::kThreads;
using test::RunOnThreads;

constexpr uint64_t kKeys = 2000;
constexpr uint64_t kRemovedSet = 1;  // added, then removed
constexpr uint64_t kAbsentSet = 1000;

CountingBloomFilter MakeFilter() {
  absl::StatusOr<CountingBloomFilter> filter =
      CountingBloomFilter::Create(FilterOptions::Fpp(0.01), 2 * kKeys);
  EXPECT_TRUE(filter.ok()) << filter.status();
  return *std::move(filter);
}

TEST(SharedCountingBloomTest, ConstMethodsFromThreads) {
  CountingBloomFilter filter = MakeFilter();
  std::vector<std::string> queries;
  for (uint64_t i = 0; i < kKeys; ++i) {
    filter.Add(Key16(0, i));
    filter.Add(Key16(kRemovedSet, i));
    queries.push_back(Key16(0, i));
    queries.push_back(Key16(kRemovedSet, i));
    queries.push_back(Key16(kAbsentSet, i));
  }
  for (uint64_t i = 0; i < kKeys; ++i)
    ASSERT_TRUE(filter.Remove(Key16(kRemovedSet, i)));
  const CountingBloomFilter& shared = filter;
  const size_t n = queries.size();
  std::vector<char> lone(n);
  for (size_t i = 0; i < n; ++i) lone[i] = shared.MayContain(queries[i]);
  for (size_t i = 0; i < n; i += 3)
    ASSERT_TRUE(lone[i]) << "false negative, key " << i / 3;
  const double lone_fpp = shared.ExpectedFpp();

  std::vector<uint64_t> mismatches(kThreads, 0);
  RunOnThreads(kThreads, [&](int t) {
    constexpr size_t kBatch = 64;
    uint64_t& mine = mismatches[t];
    std::vector<absl::string_view> batch;
    bool results[kBatch];
    for (size_t start = 0; start < n; start += kBatch) {
      const size_t first =
          (start + static_cast<size_t>(t) * n / kThreads) % n / kBatch * kBatch;
      batch.assign(queries.begin() + first,
                   queries.begin() + std::min(n, first + kBatch));
      shared.MayContain(batch, results);
      for (size_t b = 0; b < batch.size(); ++b) {
        mine += results[b] != static_cast<bool>(lone[first + b]);
        mine +=
            shared.MayContain(batch[b]) != static_cast<bool>(lone[first + b]);
      }
      mine += shared.ExpectedFpp() != lone_fpp;
      mine += shared.NumKeys() != kKeys;
    }
    const CountingBloomFilter copy = shared;  // reads every counter
    mine += copy != shared;
  });
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(mismatches[t], 0u) << "thread " << t;
}

// Two writers add and remove their own keys under the exclusive lock while
// two readers query under the shared one: a key a writer holds matches.
TEST(SharedCountingBloomTest, WritersAndReadersTakeTurnsUnderALock) {
  CountingBloomFilter filter = MakeFilter();
  std::shared_mutex mu;
  std::vector<uint64_t> misses(kThreads, 0);
  RunOnThreads(kThreads, [&](int t) {
    if (t < 2) {
      // Writer t: keys of set t + 10, each added, checked and removed.
      for (uint64_t i = 0; i < kKeys / 2; ++i) {
        const std::string key = Key16(t + 10, i);
        {
          std::unique_lock<std::shared_mutex> lock(mu);
          filter.Add(key);
        }
        {
          std::shared_lock<std::shared_mutex> lock(mu);
          misses[t] += !filter.MayContain(key);
        }
        if (i % 2 == 0) {
          std::unique_lock<std::shared_mutex> lock(mu);
          misses[t] += !filter.Remove(key);
        }
      }
    } else {
      for (uint64_t i = 0; i < kKeys; ++i) {
        std::shared_lock<std::shared_mutex> lock(mu);
        (void)filter.MayContain(Key16(kAbsentSet, i));
        (void)filter.ExpectedFpp();
      }
    }
  });
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(misses[t], 0u) << "thread " << t;
  // The odd keys stay.
  for (uint64_t t = 10; t < 12; ++t) {
    for (uint64_t i = 1; i < kKeys / 2; i += 2)
      EXPECT_TRUE(filter.MayContain(Key16(t, i)));
  }
}

}  // namespace
}  // namespace sstfilter
