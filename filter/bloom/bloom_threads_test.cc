// One native Bloom filter reader shared by 4 threads querying at once (single
// and batched): readers are immutable, so every thread sees the answers a lone
// thread sees. Tagged "tsan": run under `bazel test --config=tsan
// //filter:bloom_threads_test`.

#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "filter/bloom/bloom.h"
#include "filter/bloom/bloom_impl.h"
#include "gtest/gtest.h"
#include "tests/testing/filter_test_util.h"

namespace sstfilter {
namespace bloom_internal {
namespace {

using ::sstfilter::test::BuildFilter;
using ::sstfilter::test::Key16;
using ::sstfilter::test::Keys16;

TEST(BloomThreadsTest, FourThreadsShareOneReader) {
  constexpr int kThreads = 4;
  constexpr uint64_t kKeys = 20000;
  constexpr uint64_t kQueries = 40000;
  for (ProbePath path : {ProbePath::kScalar, ProbePath::kAvx2}) {
    if (!ProbePathAvailable(path)) continue;
    std::unique_ptr<const FilterPolicy> policy = std::move(
        *NewBloomFilterPolicyWithPath(FilterOptions::Fpp(0.01), path));
    const std::string filter = BuildFilter(*policy, Keys16(0, 0, kKeys));
    std::unique_ptr<FilterReader> reader = policy->NewReader(filter);

    // Answers of one thread alone, for present (set 0) and absent (set 1) keys.
    std::vector<std::string> keys;
    for (uint64_t i = 0; i < kQueries; ++i) keys.push_back(Key16(i % 2, i / 2));
    std::vector<char> expected(kQueries);
    for (uint64_t i = 0; i < kQueries; ++i)
      expected[i] = reader->MayMatch(keys[i]);

    std::vector<uint64_t> mismatches(kThreads, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        std::vector<absl::string_view> views(keys.begin(), keys.end());
        std::unique_ptr<bool[]> batched(new bool[kQueries]);
        for (int round = 0; round < 3; ++round) {
          // Threads start at different offsets so they touch the same blocks at
          // different times.
          for (uint64_t j = 0; j < kQueries; ++j) {
            const uint64_t i = (j + t * kQueries / kThreads) % kQueries;
            if (reader->MayMatch(keys[i]) != static_cast<bool>(expected[i])) {
              ++mismatches[t];
            }
          }
          reader->MayMatch(absl::MakeConstSpan(views), batched.get());
          for (uint64_t i = 0; i < kQueries; ++i) {
            if (batched[i] != static_cast<bool>(expected[i])) ++mismatches[t];
          }
          if (reader->ExpectedFpp() <= 0.0) ++mismatches[t];
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    for (int t = 0; t < kThreads; ++t)
      EXPECT_EQ(mismatches[t], 0u) << "thread " << t;
    // Every present key matched.
    for (uint64_t i = 0; i < kQueries; i += 2) ASSERT_TRUE(expected[i]);
  }
}

}  // namespace
}  // namespace bloom_internal
}  // namespace sstfilter
