#include "util/thread_slots.h"

#include <algorithm>
#include <functional>
#include <mutex>
#include <vector>

namespace sstfilter {
namespace thread_slots_internal {

__thread uint32_t this_thread_index_plus_one = 0;

namespace {
// Set once the thread's index was given back, while its thread-local
// destructors run: a later caller gets no index (and so no slot) rather than
// one another thread may hold by then.
__thread bool index_given_back = false;
}  // namespace

namespace {

// The indices handed out: never destroyed, since threads may exit after
// static destructors have run.
class IndexPool {
 public:
  static IndexPool& Get() {
    static IndexPool* const pool = new IndexPool;
    return *pool;
  }

  uint32_t Take() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.empty()) return next_++;
    std::pop_heap(free_.begin(), free_.end(), std::greater<uint32_t>());
    const uint32_t index = free_.back();
    free_.pop_back();
    return index;
  }

  void Give(uint32_t index) {
    std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(index);
    std::push_heap(free_.begin(), free_.end(), std::greater<uint32_t>());
  }

 private:
  std::mutex mutex_;
  std::vector<uint32_t> free_;  // a min-heap: the smallest free index first
  uint32_t next_ = 0;
};

// Gives the thread's index back when the thread exits.
class IndexHolder {
 public:
  IndexHolder() : index_(IndexPool::Get().Take()) {}
  ~IndexHolder() {
    this_thread_index_plus_one = 0;
    index_given_back = true;
    IndexPool::Get().Give(index_);
  }
  uint32_t index() const { return index_; }

 private:
  const uint32_t index_;
};

}  // namespace

uint32_t TakeThreadIndex() {
  if (index_given_back) return kNoThreadIndex;
  thread_local IndexHolder holder;
  this_thread_index_plus_one = holder.index() + 1;
  return holder.index();
}

}  // namespace thread_slots_internal
}  // namespace sstfilter
