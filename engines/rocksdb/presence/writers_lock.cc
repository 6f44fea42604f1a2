#include "engines/rocksdb/presence/writers_lock.h"

namespace sstfilter {
namespace presence_internal {

WritersLock::WritersLock() {
  pthread_rwlockattr_t attributes;
  pthread_rwlockattr_init(&attributes);
  pthread_rwlockattr_setkind_np(&attributes,
                                PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
  pthread_rwlock_init(&lock_, &attributes);
  pthread_rwlockattr_destroy(&attributes);
}

WritersLock::~WritersLock() { pthread_rwlock_destroy(&lock_); }

}  // namespace presence_internal
}  // namespace sstfilter
