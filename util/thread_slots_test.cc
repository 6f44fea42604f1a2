#include "util/thread_slots.h"

#include <atomic>
#include <cstdint>
#include <set>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace sstfilter {
namespace {

struct alignas(64) CountSlot {
  std::atomic<uint64_t> count{0};
};

// Runs body(t) on `threads` threads that stay alive until every body ran
// (a thread's index is freed when it exits).
template <typename Body>
void RunTogether(int threads, Body body) {
  std::atomic<int> finished{0};
  std::vector<std::thread> running;
  for (int t = 0; t < threads; ++t) {
    running.emplace_back([&, t] {
      body(t);
      finished.fetch_add(1);
      while (finished.load() < threads) {
      }
    });
  }
  for (std::thread& thread : running) thread.join();
}

TEST(ThreadSlotsTest, LiveThreadsHoldDistinctIndicesThatExitFrees) {
  constexpr int kThreads = 8;
  const uint32_t main_index = ThisThreadIndex();
  EXPECT_EQ(ThisThreadIndex(), main_index);
  for (int wave = 0; wave < 3; ++wave) {
    std::vector<uint32_t> indices(kThreads);
    RunTogether(kThreads, [&](int t) {
      indices[t] = ThisThreadIndex();
      EXPECT_EQ(ThisThreadIndex(), indices[t]);
    });
    std::set<uint32_t> distinct(indices.begin(), indices.end());
    distinct.insert(main_index);
    EXPECT_EQ(distinct.size(), kThreads + 1u) << "wave " << wave;
    // Every wave after the first reuses the indices the last one freed, so
    // none grows past the threads alive at once (plus any a test runner's
    // own threads hold).
    for (const uint32_t index : indices) {
      EXPECT_LT(index, 2u * kThreads + 2u) << "wave " << wave;
    }
  }
}

TEST(ThreadSlotsTest, EachThreadWritesItsOwnSlotAndForEachSeesThemAll) {
  constexpr int kThreads = 6;
  constexpr uint64_t kIncrements = 10'000;
  ThreadSlots<CountSlot> slots;
  std::vector<CountSlot*> mine(kThreads);
  RunTogether(kThreads, [&](int t) {
    mine[t] = slots.Mine();
    ASSERT_NE(mine[t], nullptr);
    for (uint64_t i = 0; i < kIncrements; ++i) {
      // A plain read-modify-write: only this thread writes the slot.
      CountSlot* slot = slots.Mine();
      EXPECT_EQ(slot, mine[t]);
      slot->count.store(slot->count.load(std::memory_order_relaxed) + 1,
                        std::memory_order_relaxed);
    }
  });
  EXPECT_EQ(std::set<CountSlot*>(mine.begin(), mine.end()).size(),
            static_cast<size_t>(kThreads));
  uint64_t total = 0;
  slots.ForEach([&](CountSlot& slot) { total += slot.count.load(); });
  EXPECT_EQ(total, kThreads * kIncrements);
}

TEST(ThreadSlotsTest, SlotsAreCacheLinesApart) {
  ThreadSlots<CountSlot> slots;
  CountSlot* first = nullptr;
  CountSlot* second = nullptr;
  RunTogether(2, [&](int t) { (t == 0 ? first : second) = slots.Mine(); });
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % 64, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(second) % 64, 0u);
  EXPECT_NE(first, second);
}

}  // namespace
}  // namespace sstfilter
