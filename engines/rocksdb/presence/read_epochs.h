// Lets the thread that swaps a column family's filter free the old one only
// once no lookup can still be probing it, without a lock or a shared counter
// on the lookup path: each lookup marks itself in one of several cache-line
// slots (chosen per thread) for the current epoch, and the swapping thread
// moves to the next epoch and waits until the old epoch's marks are gone.
// Two epochs alternate, so lookups that start during the wait never delay it.
//
// Why it is safe: the swapper unpublishes the old filter, then advances the
// epoch, then sees each slot's old-epoch count at zero; all three, and every
// lookup's mark and its load of the filter pointer, are sequentially
// consistent. A lookup whose mark the swapper did not see therefore marked
// itself after the check, and its load comes later still, so it loads the
// new filter.

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_READ_EPOCHS_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_READ_EPOCHS_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>

namespace sstfilter {
namespace presence_internal {

class ReadEpochs {
 public:
  // Marks the calling thread as possibly reading filters from construction to
  // destruction.
  class Guard {
   public:
    explicit Guard(ReadEpochs* epochs);
    ~Guard() { counter_->fetch_sub(1, std::memory_order_release); }
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;

   private:
    std::atomic<int64_t>* counter_;
  };

  // Returns once every Guard that existed when it was called is gone.
  // Callers unpublish what they will free first. One caller at a time is
  // served; others wait their turn.
  void WaitForReaders();

 private:
  // More slots than the cores a database server usually has, so that threads
  // rarely share a cache line.
  static constexpr size_t kSlots = 64;
  struct alignas(64) Slot {
    std::atomic<int64_t> readers[2] = {};
  };

  Slot slots_[kSlots];
  std::atomic<uint64_t> epoch_{0};
  std::mutex waiter_;
};

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_READ_EPOCHS_H_
