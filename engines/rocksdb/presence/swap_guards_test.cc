// ReadEpochs and WritersLock under threads that race their hot paths against
// the background thread's swaps: each check fails when the guard or the lock
// does not hold.

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
// Swaps per test, each after the other threads have made this much progress
// since the last one, so that the two interleave however slowly the machine
// runs (a sanitizer, a loaded core) and the test needs no clock.
constexpr uint64_t kSwaps = 300;
constexpr uint64_t kProgressPerSwap = 8;

// Returns once counter has passed since + kProgressPerSwap.
uint64_t AwaitProgress(const std::atomic<uint64_t>& counter, uint64_t since) {
  uint64_t now;
  while ((now = counter.load(std::memory_order_relaxed)) <
         since + kProgressPerSwap) {
    std::this_thread::yield();
  }
  return now;
}

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
  uint64_t seen_reads = 0;
  for (uint64_t swap = 0; swap < kSwaps; ++swap) {
    seen_reads = AwaitProgress(reads, seen_reads);
    all.push_back(std::make_unique<Published>());
    Published* old = current.exchange(all.back().get());
    epochs.WaitForReaders();
    old->state.store(kRetired, std::memory_order_release);
  }
  stop = true;
  for (std::thread& reader : readers) reader.join();
  EXPECT_EQ(retired_seen.load(), 0u)
      << "of " << reads.load() << " reads, during " << kSwaps << " swaps";
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
  uint64_t seen_writes = 0;
  for (uint64_t swap = 0; swap < kSwaps; ++swap) {
    seen_writes = AwaitProgress(writes, seen_writes);
    std::unique_lock<WritersLock> exclusive(lock);
    swapping.store(true, std::memory_order_relaxed);
    std::this_thread::yield();
    swapping.store(false, std::memory_order_relaxed);
  }
  stop = true;
  for (std::thread& writer : writers) writer.join();
  EXPECT_EQ(overlaps.load(), 0u)
      << "of " << writes.load() << " writes, during " << kSwaps << " swaps";
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
