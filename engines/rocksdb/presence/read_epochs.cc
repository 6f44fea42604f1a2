#include "engines/rocksdb/presence/read_epochs.h"

#include <thread>

namespace sstfilter {
namespace presence_internal {

void ReadEpochs::WaitForReaders() {
  std::lock_guard<std::mutex> one_waiter(waiter_);
  const uint64_t current = epoch_.fetch_add(1, std::memory_order_seq_cst) + 1;
  HeavyFence();
  slots_.ForEach([current](EpochSlot& slot) {
    for (;;) {
      const uint64_t epoch = slot.epoch.load(std::memory_order_acquire);
      if (epoch == 0 || epoch >= current) return;
      std::this_thread::yield();
    }
  });
}

}  // namespace presence_internal
}  // namespace sstfilter
