#ifndef SSTFILTER_UTIL_MUTEX_H_
#define SSTFILTER_UTIL_MUTEX_H_

#include <mutex>

#include "absl/base/thread_annotations.h"

namespace sstfilter {

// An exclusive lock that both of the project's lock checkers see: clang's
// -Wthread-safety through the capability annotations, and ThreadSanitizer
// because std::mutex locks through pthreads, which TSan intercepts. Use it
// instead of absl::Mutex: Debian's Abseil is built without TSan's
// annotations, so TSan cannot see an absl::Mutex and reports races on the
// data it guards.
class ABSL_LOCKABLE Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() { mutex_.lock(); }
  void Unlock() ABSL_UNLOCK_FUNCTION() { mutex_.unlock(); }

 private:
  std::mutex mutex_;
};

// Holds `mutex` from construction to destruction.
class ABSL_SCOPED_LOCKABLE MutexLock {
 public:
  explicit MutexLock(Mutex* mutex) ABSL_EXCLUSIVE_LOCK_FUNCTION(mutex)
      : mutex_(mutex) {
    mutex_->Lock();
  }
  ~MutexLock() ABSL_UNLOCK_FUNCTION() { mutex_->Unlock(); }

  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

 private:
  Mutex* const mutex_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_UTIL_MUTEX_H_
