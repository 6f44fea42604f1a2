// Lets the thread that swaps a column family's filter free the old one only
// once no lookup can still be probing it, without a locked instruction on the
// lookup path: each lookup marks its thread's slot with the current epoch
// while it reads; the swapper advances the epoch and waits until no slot
// holds an older one. Why it is safe: README.md ("read_epochs.h").

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_READ_EPOCHS_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_READ_EPOCHS_H_

#include <atomic>
#include <cstdint>
#include <mutex>

#include "absl/base/attributes.h"
#include "util/asymmetric_fence.h"
#include "util/thread_slots.h"

namespace sstfilter {
namespace presence_internal {

// A thread's mark: the epoch in which it started reading, or 0.
struct alignas(64) EpochSlot {
  std::atomic<uint64_t> epoch{0};
};

class ReadEpochs {
 public:
  // Marks the calling thread as possibly reading filters from construction to
  // destruction. Guards nest: an inner one keeps the outer's mark. Inlined:
  // every lookup takes one.
  class Guard {
   public:
    ABSL_ATTRIBUTE_ALWAYS_INLINE explicit Guard(ReadEpochs* epochs)
        : slot_(epochs->slots_.Mine()) {
      if (slot_ == nullptr) return;
      outer_epoch_ = slot_->epoch.load(std::memory_order_relaxed);
      if (outer_epoch_ != 0) return;
      slot_->epoch.store(epochs->epoch_.load(std::memory_order_acquire),
                         std::memory_order_relaxed);
      LightFence();
    }
    ABSL_ATTRIBUTE_ALWAYS_INLINE ~Guard() {
      if (slot_ != nullptr && outer_epoch_ == 0) {
        slot_->epoch.store(0, std::memory_order_release);
      }
    }
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;

    // False when the thread has no slot (more threads alive than
    // ThreadSlots serves): then no filter may be read under this guard.
    bool active() const { return slot_ != nullptr; }

   private:
    EpochSlot* slot_;
    uint64_t outer_epoch_ = 0;
  };

  // Returns once every Guard that existed when it was called is gone.
  // Callers unpublish what they will free first. One caller at a time is
  // served; others wait their turn.
  void WaitForReaders();

 private:
  ThreadSlots<EpochSlot> slots_;
  // 0 marks a slot clear, so epochs start at 1.
  std::atomic<uint64_t> epoch_{1};
  std::mutex waiter_;
};

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_READ_EPOCHS_H_
