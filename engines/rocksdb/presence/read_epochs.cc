#include "engines/rocksdb/presence/read_epochs.h"

#include <thread>

namespace sstfilter {
namespace presence_internal {
namespace {

// Threads take slots in turn, so the first kSlots threads never share one.
size_t ThisThreadSlot(size_t slots) {
  static std::atomic<size_t> next_slot{0};
  thread_local const size_t slot =
      next_slot.fetch_add(1, std::memory_order_relaxed);
  return slot % slots;
}

}  // namespace

ReadEpochs::Guard::Guard(ReadEpochs* epochs) {
  const uint64_t epoch = epochs->epoch_.load(std::memory_order_seq_cst);
  counter_ = &epochs->slots_[ThisThreadSlot(kSlots)].readers[epoch & 1];
  counter_->fetch_add(1, std::memory_order_seq_cst);
}

void ReadEpochs::WaitForReaders() {
  std::lock_guard<std::mutex> one_waiter(waiter_);
  const uint64_t old_epoch = epoch_.fetch_add(1, std::memory_order_seq_cst);
  for (Slot& slot : slots_) {
    while (slot.readers[old_epoch & 1].load(std::memory_order_seq_cst) != 0) {
      std::this_thread::yield();
    }
  }
}

}  // namespace presence_internal
}  // namespace sstfilter
