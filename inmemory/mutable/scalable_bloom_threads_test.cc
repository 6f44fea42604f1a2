// ScalableBloomFilter shared by threads: four add disjoint keys into a filter
// whose first layer holds 1,000, so that layers are made while others add and
// two threads query; every key whose Add has returned must match on the other
// threads, no layer may hold more than its capacity, and each full layer must
// be exactly full; a filter saved meanwhile restores, and matches every key
// published before the save began. Tagged "tsan": CI also runs it under
// `bazel test --config=tsan`.

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/string_view.h"
#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"
#include "inmemory/mutable/mutable_test_util.h"
#include "inmemory/mutable/scalable_bloom.h"

namespace sstfilter {
namespace {

using ::sstfilter::test::Key16;

TEST(ScalableBloomThreadsTest, FourWritersTwoReadersAcrossLayers) {
  constexpr int kWriters = 4;
  constexpr int kReaders = 2;
  constexpr uint64_t kKeysPerWriter = 15000;
  ScalableBloomOptions options;
  options.fpp = 0.01;
  options.initial_keys = 1000;
  absl::StatusOr<std::unique_ptr<ScalableBloomFilter>> made =
      ScalableBloomFilter::Create(options);
  ASSERT_TRUE(made.ok()) << made.status();
  ScalableBloomFilter& filter = **made;

  std::vector<std::vector<std::string>> keys(kWriters);
  for (int t = 0; t < kWriters; ++t) {
    for (uint64_t i = 0; i < kKeysPerWriter; ++i)
      keys[t].push_back(Key16(t, i));
  }
  std::vector<uint64_t> errors(kWriters, 0);
  std::vector<uint64_t> added(kWriters, 0);
  std::vector<uint64_t> restore_misses(kReaders, 0);
  const mutable_test::QueryWhileAddingResult seen =
      mutable_test::QueryWhileAdding(
          filter, keys, kReaders,
          [&](size_t t, uint64_t i) {
            absl::StatusOr<bool> result = filter.Add(keys[t][i]);
            if (!result.ok()) {
              ++errors[t];
            } else {
              added[t] += *result;
            }
          },
          [&](int r, const std::vector<uint64_t>& published) {
            filter.Layers();
            filter.ApproximateCount();
            filter.ExpectedFpp();
            const absl::StatusOr<std::unique_ptr<ScalableBloomFilter>>
                restored = ScalableBloomFilter::Restore(filter.Save());
            EXPECT_TRUE(restored.ok()) << restored.status();
            for (int t = 0; t < kWriters && restored.ok(); ++t) {
              for (uint64_t i = 0; i < published[t]; i += 97) {
                restore_misses[r] += !(*restored)->MayContain(keys[t][i]);
              }
            }
          });
  for (int r = 0; r < kReaders; ++r) {
    EXPECT_EQ(seen.misses[r], 0u) << "reader " << r;
    EXPECT_EQ(restore_misses[r], 0u) << "reader " << r;
    EXPECT_GT(seen.checks[r], 0u) << "reader " << r << " never ran";
  }
  uint64_t total_added = 0;
  for (int t = 0; t < kWriters; ++t) {
    EXPECT_EQ(errors[t], 0u) << "writer " << t;
    total_added += added[t];
    for (uint64_t i = 0; i < kKeysPerWriter; ++i) {
      ASSERT_TRUE(filter.MayContain(keys[t][i]));
    }
  }
  // 60,000 keys: layers of 1,000, 2,000, ..., 32,000 hold 63,000, so 6
  // layers, each but the newest exactly full, none past its capacity.
  const std::vector<ScalableBloomFilter::LayerInfo> layers = filter.Layers();
  ASSERT_EQ(layers.size(), 6u);
  uint64_t held = 0;
  for (size_t i = 0; i < layers.size(); ++i) {
    EXPECT_LE(layers[i].keys, layers[i].capacity);
    if (i + 1 < layers.size()) {
      EXPECT_EQ(layers[i].keys, layers[i].capacity) << i;
    }
    held += layers[i].keys;
  }
  // Each added key took a place; a place may also go to a key whose Add then
  // found every bit set (a concurrent duplicate or a false positive).
  EXPECT_GE(held, total_added);
  EXPECT_GT(total_added, kWriters * kKeysPerWriter * 99 / 100);
}

}  // namespace
}  // namespace sstfilter
