#include "util/asymmetric_fence.h"

#include <cstdlib>

#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace sstfilter {
namespace fence_internal {

#if defined(__linux__) && defined(__NR_membarrier)

namespace {

long Membarrier(int command) { return syscall(__NR_membarrier, command, 0, 0); }

}  // namespace

bool RegisterExpeditedMembarrier() {
  const long offered = Membarrier(MEMBARRIER_CMD_QUERY);
  if (offered < 0 || (offered & MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0 ||
      (offered & MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0) {
    return false;
  }
  return Membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
}

}  // namespace fence_internal

void HeavyFence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (!fence_internal::ExpeditedMembarrier()) return;
  if (fence_internal::Membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0) return;
  // The kernel accepted the registration, so this cannot fail (membarrier(2)
  // lists no other error). Should it, the slower global command gives the
  // same barrier; continuing without either would break the hot side's
  // ordering, which leaves nothing safe to do but stop.
  if (fence_internal::Membarrier(MEMBARRIER_CMD_GLOBAL) == 0) return;
  std::abort();
}

#else  // no membarrier: LightFence is a full fence

bool RegisterExpeditedMembarrier() { return false; }

}  // namespace fence_internal

void HeavyFence() { std::atomic_thread_fence(std::memory_order_seq_cst); }

#endif

}  // namespace sstfilter
