// The engine adapters (engines/rocksdb/) shared by threads, as RocksDB and
// LevelDB share them: a RocksDB FilterBitsReader asked by Get (single) and
// MultiGet (batched) on many threads at once, readers and builders made by
// one policy on several threads at once (flushes and compactions run in
// parallel), for every registered policy factory, the read-only policy of
// every registered format, and the per-level and hybrid policies; and
// LevelDB's KeyMayMatch and CreateFilter on several threads at once. Each
// answer and each filter must be the one a lone thread gets.
//
// Tagged "tsan": CI runs it under ThreadSanitizer.

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "engines/leveldb/leveldb_adapter.h"
#include "engines/rocksdb/build_in_context.h"
#include "engines/rocksdb/rocksdb_adapter.h"
#include "engines/rocksdb/rocksdb_hybrid_policy.h"
#include "engines/rocksdb/rocksdb_per_level_policy.h"
#include "engines/tree/per_level_allocation.h"
#include "filter/filter_policy.h"
#include "filter/format_registry.h"
#include "filter/rocksdb/rocksdb_filter_bits.h"
#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"
#include "leveldb/filter_policy.h"
#include "leveldb/slice.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/slice.h"
#include "tests/concurrency/run_on_threads.h"

namespace sstfilter {
namespace {

using test::BuildAt;
using test::Built;
using test::Key16;
using test::kThreads;
using test::RunOnThreads;

constexpr uint64_t kKeys = 1000;
constexpr uint64_t kAbsentSet = 1000;
constexpr int kMultiGetBatch = 32;  // RocksDB 7.8's MultiGet batch

struct Keys {
  std::vector<std::string> added = test::Keys16(0, 0, kKeys);
  std::vector<std::string> queries;  // added and absent, interleaved
  Keys() {
    for (uint64_t i = 0; i < kKeys; ++i) {
      queries.push_back(Key16(0, i));
      queries.push_back(Key16(kAbsentSet, i));
    }
  }
};

std::vector<std::shared_ptr<const FilterPolicy>> EveryFactorysPolicy() {
  std::vector<std::shared_ptr<const FilterPolicy>> policies;
  for (const FamilyVariant& factory : RegisteredFamilyVariants()) {
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
        factory.factory(FilterOptions::Fpp(0.01));
    EXPECT_TRUE(policy.ok()) << factory.spec << " " << policy.status();
    if (policy.ok()) policies.push_back(*std::move(policy));
  }
  return policies;
}

// The number of answers that differ from a lone thread's when kThreads
// threads ask one FilterBitsReader of filter at once, single and in
// MultiGet's batches, and each also asks a reader of its own made meanwhile.
// Expects every added key (the even queries) to match.
uint64_t SharedBitsReaderMismatches(const rocksdb::FilterPolicy& policy,
                                    const std::string& filter,
                                    const std::vector<std::string>& queries) {
  const std::unique_ptr<rocksdb::FilterBitsReader> shared(
      policy.GetFilterBitsReader(filter));
  const size_t n = queries.size();
  std::vector<char> lone(n);
  for (size_t i = 0; i < n; ++i) lone[i] = shared->MayMatch(queries[i]);
  for (size_t i = 0; i < n; i += 2)
    EXPECT_TRUE(lone[i]) << "false negative, key " << i / 2;

  std::vector<uint64_t> mismatches(kThreads, 0);
  RunOnThreads(kThreads, [&](int t) {
    const std::unique_ptr<rocksdb::FilterBitsReader> own(
        policy.GetFilterBitsReader(filter));
    std::vector<rocksdb::Slice> slices(kMultiGetBatch);
    std::vector<rocksdb::Slice*> pointers(kMultiGetBatch);
    bool results[kMultiGetBatch];
    uint64_t& mine = mismatches[t];
    for (size_t start = 0; start < n; start += kMultiGetBatch) {
      // Each thread walks the batches from its own offset.
      const size_t first = (start + static_cast<size_t>(t) * n / kThreads) % n /
                           kMultiGetBatch * kMultiGetBatch;
      const int count =
          static_cast<int>(std::min<size_t>(kMultiGetBatch, n - first));
      for (int b = 0; b < count; ++b) {
        const std::string& key = queries[first + b];
        mine += shared->MayMatch(key) != static_cast<bool>(lone[first + b]);
        mine += own->MayMatch(key) != static_cast<bool>(lone[first + b]);
        slices[b] = key;
        pointers[b] = &slices[b];
      }
      shared->MayMatch(count, pointers.data(), results);
      for (int b = 0; b < count; ++b)
        mine += results[b] != static_cast<bool>(lone[first + b]);
    }
  });
  uint64_t total = 0;
  for (uint64_t m : mismatches) total += m;
  return total;
}

// The number of filters that differ from a lone build when kThreads threads
// build keys at each of levels with policy at once.
uint64_t ConcurrentBuildMismatches(const rocksdb::FilterPolicy& policy,
                                   const std::vector<int>& levels,
                                   const std::vector<std::string>& keys) {
  std::vector<Built> lone;
  for (int level : levels) lone.push_back(BuildAt(policy, level, keys));
  std::vector<uint64_t> mismatches(kThreads, 0);
  RunOnThreads(kThreads, [&](int t) {
    for (size_t j = 0; j < levels.size(); ++j) {
      const size_t i = (j + t) % levels.size();
      const Built built = BuildAt(policy, levels[i], keys);
      mismatches[t] += built.has_filter != lone[i].has_filter ||
                       built.filter != lone[i].filter;
    }
  });
  uint64_t total = 0;
  for (uint64_t m : mismatches) total += m;
  return total;
}

TEST(SharedAdaptersTest, RocksDbReadersOfEveryPolicy) {
  const Keys keys;
  for (const std::shared_ptr<const FilterPolicy>& policy :
       EveryFactorysPolicy()) {
    SCOPED_TRACE(policy->Name());
    const std::shared_ptr<const rocksdb::FilterPolicy> adapted =
        AsRocksDbFilterPolicy(policy);
    EXPECT_EQ(ConcurrentBuildMismatches(*adapted, {-1, 0, 3}, keys.added), 0u);
    const Built built = BuildAt(*adapted, -1, keys.added);
    ASSERT_TRUE(built.has_filter);
    EXPECT_EQ(SharedBitsReaderMismatches(*adapted, built.filter, keys.queries),
              0u);

    absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> read_only =
        NewRocksDbReadOnlyFilterPolicy(policy->Name());
    ASSERT_TRUE(read_only.ok()) << read_only.status();
    EXPECT_EQ(
        SharedBitsReaderMismatches(**read_only, built.filter, keys.queries),
        0u);
  }
}

// The policies that choose a filter by level: each level's filter read
// shared, and builds at several levels at once (the hybrid policy's counters
// count every one).
TEST(SharedAdaptersTest, RocksDbPerLevelAndHybridPolicies) {
  const Keys keys;
  const std::vector<TreeLevel> tree = *LeveledTree(4, 10);
  const std::vector<int> levels = {-1, 0, 1, 2, 3};
  HybridTreeOptions hybrid_options;
  hybrid_options.bloom_before_level = 2;
  hybrid_options.counters = std::make_shared<HybridCounters>();
  const std::vector<
      std::pair<std::string,
                absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>>>>
      policies = {
          {"per-level", NewRocksDbPerLevelFilterPolicy(tree, 10)},
          {"hybrid", NewRocksDbHybridFilterPolicy(tree, 10, hybrid_options)}};
  for (const auto& [name, policy] : policies) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(policy.ok()) << policy.status();
    const HybridCounters& counters = *hybrid_options.counters;
    const uint64_t builds_before =
        counters.compact_builds.load() + counters.native_builds.load();
    EXPECT_EQ(ConcurrentBuildMismatches(**policy, levels, keys.added), 0u);
    const uint64_t builds =
        counters.compact_builds.load() + counters.native_builds.load();
    if (name == "hybrid") {
      // The lone builds, then kThreads builds at each level; a level without
      // a filter counts none.
      EXPECT_GT(builds, builds_before);
      EXPECT_EQ((builds - builds_before) % (kThreads + 1), 0u);
    }
    for (int level : levels) {
      SCOPED_TRACE(level);
      const Built built = BuildAt(**policy, level, keys.added);
      if (!built.has_filter) continue;
      EXPECT_EQ(
          SharedBitsReaderMismatches(**policy, built.filter, keys.queries), 0u);
    }
  }
}

// LevelDB calls KeyMayMatch from every lookup's thread and CreateFilter from
// flushes and compactions, all at once.
TEST(SharedAdaptersTest, LevelDbPolicyOfEveryPolicy) {
  const Keys keys;
  const std::vector<leveldb::Slice> added(keys.added.begin(), keys.added.end());
  for (const std::shared_ptr<const FilterPolicy>& policy :
       EveryFactorysPolicy()) {
    SCOPED_TRACE(policy->Name());
    const std::unique_ptr<leveldb::FilterPolicy> adapted =
        AsLevelDbFilterPolicy(policy);
    std::string filter;
    adapted->CreateFilter(added.data(), static_cast<int>(added.size()),
                          &filter);
    const size_t n = keys.queries.size();
    std::vector<char> lone(n);
    for (size_t i = 0; i < n; ++i)
      lone[i] = adapted->KeyMayMatch(keys.queries[i], filter);
    for (size_t i = 0; i < n; i += 2)
      ASSERT_TRUE(lone[i]) << "false negative, key " << i / 2;

    std::vector<uint64_t> mismatches(kThreads, 0);
    RunOnThreads(kThreads, [&](int t) {
      std::string built;
      adapted->CreateFilter(added.data(), static_cast<int>(added.size()),
                            &built);
      mismatches[t] += built != filter;
      for (size_t j = 0; j < n; ++j) {
        const size_t i = (j + static_cast<size_t>(t) * n / kThreads) % n;
        mismatches[t] += adapted->KeyMayMatch(keys.queries[i], filter) !=
                         static_cast<bool>(lone[i]);
      }
    });
    for (int t = 0; t < kThreads; ++t)
      EXPECT_EQ(mismatches[t], 0u) << "thread " << t;
  }
}

}  // namespace
}  // namespace sstfilter
