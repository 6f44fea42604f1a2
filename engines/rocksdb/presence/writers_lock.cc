#include "engines/rocksdb/presence/writers_lock.h"

#include <thread>

#include "util/asymmetric_fence.h"

namespace sstfilter {
namespace presence_internal {

void WritersLock::lock_shared() {
  WriterSlot* slot = slots_.Mine();
  if (slot == nullptr) {
    beyond_slots_.lock_shared();
    return;
  }
  const uint32_t holds = slot->holds.load(std::memory_order_relaxed);
  if (holds != 0) {
    // A write inside this thread's own write: a swap waiting for the outer
    // one waits for this one too, so it must not wait for the swap.
    slot->holds.store(holds + 1, std::memory_order_relaxed);
    return;
  }
  for (;;) {
    slot->holds.store(1, std::memory_order_relaxed);
    LightFence();
    if (!swap_pending_.load(std::memory_order_acquire)) return;
    slot->holds.store(0, std::memory_order_release);
    // Wait for the swap to end; it holds swap_ until then.
    std::lock_guard<std::mutex> wait(swap_);
  }
}

void WritersLock::unlock_shared() {
  WriterSlot* slot = slots_.Mine();
  if (slot == nullptr) {
    beyond_slots_.unlock_shared();
    return;
  }
  slot->holds.store(slot->holds.load(std::memory_order_relaxed) - 1,
                    std::memory_order_release);
}

void WritersLock::lock() {
  swap_.lock();
  swap_pending_.store(true, std::memory_order_relaxed);
  HeavyFence();
  slots_.ForEach([](WriterSlot& slot) {
    while (slot.holds.load(std::memory_order_acquire) != 0) {
      std::this_thread::yield();
    }
  });
  beyond_slots_.lock();
}

void WritersLock::unlock() {
  beyond_slots_.unlock();
  swap_pending_.store(false, std::memory_order_release);
  swap_.unlock();
}

}  // namespace presence_internal
}  // namespace sstfilter
