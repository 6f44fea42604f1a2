// filter_policy.h promises that a FilterPolicy and a FilterReader may be shared
// across threads. These tests share them between threads and compare every
// answer with the one computed on a single thread. They are tagged "tsan" so
// that CI also runs them under ThreadSanitizer (bazel test --config=tsan
// --test_tag_filters=tsan //...), which turns a data race on shared state into
// a failure even when the answers happen to agree.

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "filter/leveldb/leveldb_bloom.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

constexpr int kThreads = 4;
constexpr int kKeys = 5000;

std::unique_ptr<const FilterPolicy> MakePolicy() {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      NewLevelDbFilterPolicy(FilterOptions::BitsPerKey(10));
  EXPECT_TRUE(policy.ok()) << policy.status();
  return *std::move(policy);
}

std::vector<std::string> Keys(absl::string_view prefix, int n) {
  std::vector<std::string> keys;
  for (int i = 0; i < n; ++i) keys.push_back(absl::StrCat(prefix, i));
  return keys;
}

TEST(SharedFilterTest, ReaderAnswersTheSameOnEveryThread) {
  const std::unique_ptr<const FilterPolicy> policy = MakePolicy();
  const std::vector<std::string> added = Keys("added", kKeys);
  const std::vector<std::string> probes = Keys("probe", kKeys);
  std::string filter;
  policy->CreateFilter(
      std::vector<absl::string_view>(added.begin(), added.end()), &filter);
  const std::unique_ptr<FilterReader> reader = policy->NewReader(filter);

  // Single-threaded answers for the probe keys (mostly "no", a few false
  // positives).
  std::vector<bool> expected;
  for (const std::string& key : probes)
    expected.push_back(reader->MayMatch(key));
  const double expected_fpp = reader->ExpectedFpp();

  std::vector<int> mismatches(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const std::vector<absl::string_view> batch(probes.begin(), probes.end());
      std::unique_ptr<bool[]> batched(new bool[batch.size()]);
      reader->MayMatch(batch, batched.get());
      for (size_t i = 0; i < probes.size(); ++i) {
        if (reader->MayMatch(probes[i]) != expected[i]) ++mismatches[t];
        if (batched[i] != expected[i]) ++mismatches[t];
        if (policy->KeyMayMatch(probes[i], filter) != expected[i])
          ++mismatches[t];
      }
      for (const std::string& key : added) {
        if (!reader->MayMatch(key)) ++mismatches[t];
      }
      if (reader->ExpectedFpp() != expected_fpp) ++mismatches[t];
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(mismatches[t], 0) << "thread " << t;
}

TEST(SharedFilterTest, BuildersFromOnePolicyAreIndependent) {
  const std::unique_ptr<const FilterPolicy> policy = MakePolicy();
  std::vector<std::vector<std::string>> keys;
  std::vector<std::string> expected;
  for (int t = 0; t < kThreads; ++t) {
    keys.push_back(Keys(absl::StrCat("thread", t, "_"), kKeys));
    expected.emplace_back();
    policy->CreateFilter(
        std::vector<absl::string_view>(keys[t].begin(), keys[t].end()),
        &expected[t]);
  }

  std::vector<std::string> built(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const std::unique_ptr<FilterBuilder> builder = policy->NewBuilder();
      for (const std::string& key : keys[t]) builder->AddKey(key);
      builder->Finish(&built[t]);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(built[t], expected[t]) << "thread " << t;
}

}  // namespace
}  // namespace sstfilter
