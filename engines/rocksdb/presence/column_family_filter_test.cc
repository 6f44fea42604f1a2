// A column family's adds take turns: writes on two threads and a scan on a
// third, all adding to the same filter words, lose no key. (Each add sets
// its bits with plain read-modify-writes; without the turns, two adds of one
// word lose one's bits.)

#include "engines/rocksdb/presence/column_family_filter.h"

#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/filter_policy.h"
#include "gtest/gtest.h"
#include "inmemory/mutable/mutable_bloom.h"

namespace sstfilter {
namespace presence_internal {
namespace {

constexpr int kWriters = 2;
constexpr int kKeysEach = 200000;
constexpr int kGroup = 64;

std::unique_ptr<PresenceFilter> NewFilter(uint64_t keys) {
  absl::StatusOr<MutableBloomFilter> filter =
      MutableBloomFilter::Create(FilterOptions::Fpp(0.01), keys);
  EXPECT_TRUE(filter.ok()) << filter.status();
  return std::make_unique<PresenceFilter>(*std::move(filter), PrefixItems(),
                                          /*range_items=*/false);
}

// Adds keys named prefix + i for i in [0, count), a group at a time, by add.
template <typename Add>
void AddKeys(const std::string& prefix, int count, Add add) {
  std::vector<std::string> group;
  std::vector<absl::string_view> views;
  for (int i = 0; i < count; ++i) {
    group.push_back(absl::StrCat(prefix, i));
    if (group.size() == kGroup || i + 1 == count) {
      views.assign(group.begin(), group.end());
      // Single keys too, as Put adds them.
      if (i % 3 == 0) {
        for (absl::string_view key : views) add(absl::MakeConstSpan(&key, 1));
      } else {
        add(absl::MakeConstSpan(views));
      }
      group.clear();
    }
  }
}

int Missing(const MutableBloomFilter& filter, const std::string& prefix,
            int count) {
  int missing = 0;
  for (int i = 0; i < count; ++i) {
    missing += !filter.MayContain(absl::StrCat(prefix, i));
  }
  return missing;
}

TEST(ColumnFamilyFilterTest, AddsOnThreeThreadsLoseNoKey) {
  // Sized for the writes' keys alone: the scan's push the fill past it, so
  // that words are shared often.
  const uint64_t keys = kWriters * kKeysEach;
  ColumnFamilyFilter column_family(0, "default");
  column_family.InstallBuilding(NewFilter(keys));
  column_family.PromoteBuilding();
  PresenceFilter* building = nullptr;
  {
    std::unique_ptr<PresenceFilter> filter = NewFilter(keys);
    building = filter.get();
    column_family.InstallBuilding(std::move(filter));
  }
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&column_family, w] {
      AddKeys(absl::StrCat("write", w, "-"), kKeysEach,
              [&](absl::Span<const absl::string_view> group) {
                if (group.size() == 1) {
                  column_family.Add(group[0]);
                } else {
                  column_family.Add(group);
                }
              });
    });
  }
  threads.emplace_back([&column_family, building] {
    AddKeys("scan-", kKeysEach, [&](absl::Span<const absl::string_view> group) {
      column_family.AddTo(building, group);
    });
  });
  for (std::thread& thread : threads) thread.join();

  const MutableBloomFilter& serving = column_family.serving()->keys;
  for (int w = 0; w < kWriters; ++w) {
    const std::string prefix = absl::StrCat("write", w, "-");
    EXPECT_EQ(Missing(serving, prefix, kKeysEach), 0) << prefix << " serving";
    EXPECT_EQ(Missing(building->keys, prefix, kKeysEach), 0)
        << prefix << " building";
  }
  EXPECT_EQ(Missing(building->keys, "scan-", kKeysEach), 0) << "scan";
}

}  // namespace
}  // namespace presence_internal
}  // namespace sstfilter
