// A full memory barrier split into a cheap half (LightFence, for a hot path
// that stores then loads) and a costly half (HeavyFence, for a rare path that
// must see that store): Dekker's pattern, where each side stores, fences,
// then loads what the other side stored, and at least one of the two loads
// sees the other's store. util/README.md says how each half is made.

#ifndef SSTFILTER_UTIL_ASYMMETRIC_FENCE_H_
#define SSTFILTER_UTIL_ASYMMETRIC_FENCE_H_

#include <atomic>

namespace sstfilter {
namespace fence_internal {

// Registers the process for expedited membarrier; true when the kernel took
// the registration.
bool RegisterExpeditedMembarrier();

// Whether HeavyFence interrupts the other threads. Registration happens once,
// before either fence first relies on it.
inline bool ExpeditedMembarrier() {
  static const bool registered = RegisterExpeditedMembarrier();
  return registered;
}

}  // namespace fence_internal

// The hot side: orders this thread's earlier stores before its later loads
// as seen by any thread that calls HeavyFence between them.
inline void LightFence() {
  if (fence_internal::ExpeditedMembarrier()) {
    std::atomic_signal_fence(std::memory_order_seq_cst);
  } else {
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }
}

// The rare side: a full barrier in this thread and, where LightFence is only
// a compiler barrier, in every other thread of the process that is running.
void HeavyFence();

}  // namespace sstfilter

#endif  // SSTFILTER_UTIL_ASYMMETRIC_FENCE_H_
