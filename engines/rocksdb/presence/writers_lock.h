// The lock that orders writes against filter swaps: every write holds it
// shared while it adds its keys and writes; a swap holds it exclusively.
// A waiting swap goes before new writes (writer preference), so that a
// steady stream of overlapping writes cannot hold a swap off forever, as a
// reader-preferring lock (glibc's default for std::shared_mutex) would.
// It is a pthread rwlock, which thread sanitizers understand.

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_WRITERS_LOCK_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_WRITERS_LOCK_H_

#include <pthread.h>

namespace sstfilter {
namespace presence_internal {

class WritersLock {
 public:
  WritersLock();
  ~WritersLock();
  WritersLock(const WritersLock&) = delete;
  WritersLock& operator=(const WritersLock&) = delete;

  // For std::shared_lock (writes) and std::unique_lock (swaps).
  void lock_shared() { pthread_rwlock_rdlock(&lock_); }
  void unlock_shared() { pthread_rwlock_unlock(&lock_); }
  void lock() { pthread_rwlock_wrlock(&lock_); }
  void unlock() { pthread_rwlock_unlock(&lock_); }

 private:
  pthread_rwlock_t lock_;
};

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_WRITERS_LOCK_H_
