// Per-thread slots, each in a cache line of its own, for state that one
// thread writes on a hot path (a plain store where a shared counter would need
// a locked instruction) and another thread reads rarely, visiting every slot.
//
// Threads are numbered densely (ThisThreadIndex): a thread takes the smallest
// free index on its first call and frees it when it exits, so the slots grow
// with the threads alive at once. A slot outlives its thread and passes to
// the next thread given the same index; its owner leaves it as a new owner
// may find it.

#ifndef SSTFILTER_UTIL_THREAD_SLOTS_H_
#define SSTFILTER_UTIL_THREAD_SLOTS_H_

#include <atomic>
#include <cstdint>

namespace sstfilter {
namespace thread_slots_internal {

// This thread's index + 1, or 0 before its first ThisThreadIndex. __thread,
// not thread_local: it has no dynamic initialiser, so reading it from another
// file costs no call to a thread-local wrapper.
extern __thread uint32_t this_thread_index_plus_one;

uint32_t TakeThreadIndex();

// What ThisThreadIndex answers while the thread's own thread-local
// destructors run, after its index was given back: past every ThreadSlots.
constexpr uint32_t kNoThreadIndex = UINT32_MAX;

}  // namespace thread_slots_internal

// The calling thread's index: the smallest not held by another live thread
// when it first asked (thread_slots_internal::kNoThreadIndex once the thread
// is exiting and gave it back).
inline uint32_t ThisThreadIndex() {
  const uint32_t plus_one = thread_slots_internal::this_thread_index_plus_one;
  return plus_one != 0 ? plus_one - 1
                       : thread_slots_internal::TakeThreadIndex();
}

// Slot is a cache-line-aligned struct whose members are zero-initialised
// (value-initialisation of an array of it).
template <typename Slot>
class ThreadSlots {
 public:
  // Slots are allocated kSlotsPerChunk at a time, as threads with higher
  // indices first ask; kChunks bounds the threads served at once.
  static constexpr uint32_t kSlotsPerChunk = 64;
  static constexpr uint32_t kChunks = 1024;  // 65,536 threads
  static_assert(alignof(Slot) >= 64, "one cache line per slot");

  ThreadSlots() = default;
  ~ThreadSlots() {
    for (std::atomic<Slot*>& chunk : chunks_) {
      delete[] chunk.load(std::memory_order_relaxed);
    }
  }
  ThreadSlots(const ThreadSlots&) = delete;
  ThreadSlots& operator=(const ThreadSlots&) = delete;

  // The calling thread's slot, or null once more than kChunks *
  // kSlotsPerChunk threads are alive (callers fall back to a slower path).
  Slot* Mine() {
    const uint32_t index = ThisThreadIndex();
    const uint32_t chunk = index / kSlotsPerChunk;
    if (chunk >= kChunks) return nullptr;
    Slot* slots = chunks_[chunk].load(std::memory_order_acquire);
    if (slots == nullptr) slots = AddChunk(chunk);
    return &slots[index % kSlotsPerChunk];
  }

  // Calls visit(slot) for every slot allocated so far.
  template <typename Visit>
  void ForEach(Visit&& visit) {
    for (std::atomic<Slot*>& chunk : chunks_) {
      Slot* slots = chunk.load(std::memory_order_acquire);
      if (slots == nullptr) continue;
      for (uint32_t i = 0; i < kSlotsPerChunk; ++i) visit(slots[i]);
    }
  }

 private:
  Slot* AddChunk(uint32_t chunk) {
    Slot* fresh = new Slot[kSlotsPerChunk]();
    Slot* installed = nullptr;
    if (chunks_[chunk].compare_exchange_strong(installed, fresh,
                                               std::memory_order_acq_rel,
                                               std::memory_order_acquire)) {
      return fresh;
    }
    delete[] fresh;  // another thread of the same chunk was first
    return installed;
  }

  std::atomic<Slot*> chunks_[kChunks] = {};
};

}  // namespace sstfilter

#endif  // SSTFILTER_UTIL_THREAD_SLOTS_H_
