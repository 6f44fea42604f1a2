// ReadEpochs and WritersLock under threads that race their hot paths against
// the background thread's swaps, each check one that a guard or lock that
// did not hold would fail.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

#include "engines/rocksdb/presence/read_epochs.h"
#include "engines/rocksdb/presence/writers_lock.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace presence_internal {
namespace {

constexpr int kReaders = 3;
constexpr auto kRunFor = std::chrono::milliseconds(600);

constexpr uint64_t kLive = 0x11fe11fe11fe11feu;
constexpr uint64_t kRetired = 0xdeadu;

// A filter stand-in whose retirement is visible: instead of freeing it, the
// swapper marks it retired (and keeps it, so that reading it stays defined).
struct Published {
  std::atomic<uint64_t> state{kLive};
};

TEST(ReadEpochsTest, NoReaderSeesWhatTheSwapperRetiredAfterWaiting) {
  ReadEpochs epochs;
  std::vector<std::unique_ptr<Published>> all;
  all.push_back(std::make_unique<Published>());
  std::atomic<Published*> current{all.back().get()};
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> reads{0};
  std::atomic<uint64_t> retired_seen{0};

  std::vector<std::thread> readers;
  for (int r = 0; r < kReaders; ++r) {
    readers.emplace_back([&] {
      while (!stop.load(std::memory_order_relaxed)) {
        ReadEpochs::Guard guard(&epochs);
        ASSERT_TRUE(guard.active());
        Published* seen = current.load(std::memory_order_seq_cst);
        // Long enough inside the guard for a swap to overlap it.
        for (int i = 0; i < 8; ++i) {
          if (seen->state.load(std::memory_order_acquire) != kLive) {
            retired_seen.fetch_add(1, std::memory_order_relaxed);
          }
        }
        reads.fetch_add(1, std::memory_order_relaxed);
      }
    });
  }
  uint64_t swaps = 0;
  const auto end = std::chrono::steady_clock::now() + kRunFor;
  while (std::chrono::steady_clock::now() < end) {
    all.push_back(std::make_unique<Published>());
    Published* old = current.exchange(all.back().get());
    epochs.WaitForReaders();
    old->state.store(kRetired, std::memory_order_release);
    ++swaps;
  }
  stop = true;
  for (std::thread& reader : readers) reader.join();
  EXPECT_EQ(retired_seen.load(), 0u)
      << "of " << reads.load() << " reads, during " << swaps << " swaps";
  EXPECT_GT(swaps, 100u);
  EXPECT_GT(reads.load(), 1000u);
}

TEST(ReadEpochsTest, NestedGuardsKeepTheOuterMark) {
  ReadEpochs epochs;
  std::atomic<bool> waited{false};
  std::thread swapper;
  {
    ReadEpochs::Guard outer(&epochs);
    { ReadEpochs::Guard inner(&epochs); }
    swapper = std::thread([&] {
      epochs.WaitForReaders();
      waited = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_FALSE(waited.load()) << "the wait ended while the outer guard held";
  }
  swapper.join();
  EXPECT_TRUE(waited.load());
}

TEST(WritersLockTest, NoWriteOverlapsASwap) {
  WritersLock lock;
  std::atomic<bool> swapping{false};
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> writes{0};
  std::atomic<uint64_t> overlaps{0};

  std::vector<std::thread> writers;
  for (int w = 0; w < kReaders; ++w) {
    writers.emplace_back([&] {
      while (!stop.load(std::memory_order_relaxed)) {
        std::shared_lock<WritersLock> shared(lock);
        for (int i = 0; i < 8; ++i) {
          if (swapping.load(std::memory_order_relaxed)) {
            overlaps.fetch_add(1, std::memory_order_relaxed);
          }
        }
        writes.fetch_add(1, std::memory_order_relaxed);
      }
    });
  }
  uint64_t swaps = 0;
  const auto end = std::chrono::steady_clock::now() + kRunFor;
  while (std::chrono::steady_clock::now() < end) {
    std::unique_lock<WritersLock> exclusive(lock);
    swapping.store(true, std::memory_order_relaxed);
    std::this_thread::yield();
    swapping.store(false, std::memory_order_relaxed);
    ++swaps;
  }
  stop = true;
  for (std::thread& writer : writers) writer.join();
  EXPECT_EQ(overlaps.load(), 0u)
      << "of " << writes.load() << " writes, during " << swaps << " swaps";
  EXPECT_GT(swaps, 100u);
  EXPECT_GT(writes.load(), 1000u);
}

TEST(WritersLockTest, AWriteInsideAWriteDoesNotWaitForAPendingSwap) {
  WritersLock lock;
  std::shared_lock<WritersLock> outer(lock);
  std::thread swapper([&] { std::unique_lock<WritersLock> exclusive(lock); });
  // Give the swap time to mark itself pending; the inner write must still
  // enter (the swap waits for the outer one), or this test hangs.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  { std::shared_lock<WritersLock> inner(lock); }
  outer.unlock();
  swapper.join();
}

}  // namespace
}  // namespace presence_internal
}  // namespace sstfilter
