// The lock that orders writes against filter swaps: every write holds it
// shared while it adds its keys and writes; a swap holds it exclusively.
//
// A write takes it with no locked instruction: it counts itself in its
// thread's own slot (util/thread_slots.h), runs LightFence, and checks that
// no swap is pending; a swap marks itself pending, runs HeavyFence, and waits
// for every slot to empty (util/asymmetric_fence.h gives the pairing). A
// pending swap goes before new writes, which wait for it, so that a steady
// stream of overlapping writes cannot hold a swap off forever.

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_WRITERS_LOCK_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_WRITERS_LOCK_H_

#include <atomic>
#include <cstdint>
#include <mutex>
#include <shared_mutex>

#include "util/thread_slots.h"

namespace sstfilter {
namespace presence_internal {

// The writes a thread holds the lock for: more than one only when a write
// runs inside another (a callback of RocksDB's writing through the wrapper).
struct alignas(64) WriterSlot {
  std::atomic<uint32_t> holds{0};
};

class WritersLock {
 public:
  WritersLock() = default;
  WritersLock(const WritersLock&) = delete;
  WritersLock& operator=(const WritersLock&) = delete;

  // For std::shared_lock (writes) and std::unique_lock (swaps).
  void lock_shared();
  void unlock_shared();
  void lock();
  void unlock();

 private:
  ThreadSlots<WriterSlot> slots_;
  // Threads past ThreadSlots' capacity share this lock instead of a slot.
  std::shared_mutex beyond_slots_;
  // Held by the swap, from before it marks itself pending until unlock:
  // writes that find a swap pending wait on it.
  std::mutex swap_;
  std::atomic<bool> swap_pending_{false};
};

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_WRITERS_LOCK_H_
