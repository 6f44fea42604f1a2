// Whether a lookup should probe the filter, decided per thread from what that
// thread's recent probes answered. A probe is a cache miss in a filter of
// megabytes; it pays off only when it rules a key out, which spares RocksDB's
// own lookup (its memtables and every level's filter and index blocks, some
// ten times a probe). So while fewer than a quarter of a thread's recent
// probes rule a key out, the thread probes only every kSampleEvery-th lookup,
// sending the rest straight to RocksDB, and keeps the samples to notice when
// absent keys come back. Skipping a probe never changes an answer.

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_PROBE_SAMPLING_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_PROBE_SAMPLING_H_

#include <cstdint>

#include "util/thread_slots.h"

namespace sstfilter {
namespace presence_internal {

class ProbeSampling {
 public:
  // Probes judged at a time while probing every lookup, and while skipping
  // (fewer, so that absent keys coming back are noticed within a few hundred
  // lookups).
  static constexpr uint32_t kProbingWindow = 64;
  static constexpr uint32_t kSkippingWindow = 16;
  // While skipping: one lookup of this many probes.
  static constexpr uint32_t kSampleEvery = 16;
  // Probing goes on while at least 1 / kWorthProbing of the window's probes
  // ruled a key out.
  static constexpr uint32_t kWorthProbing = 4;

  // A thread's state; only that thread reads or writes it.
  struct alignas(64) Slot {
    uint32_t lookups_to_skip = 0;
    uint32_t probes = 0;     // in the current window
    uint32_t ruled_out = 0;  // of those
    bool skipping = false;
  };

  // The calling thread's state, or null (more threads than ThreadSlots
  // serves: then every lookup probes).
  Slot* Mine() { return slots_.Mine(); }

  // Whether this lookup should probe; counts it when it should not.
  static bool ShouldProbe(Slot* slot) {
    if (slot == nullptr || slot->lookups_to_skip == 0) return true;
    --slot->lookups_to_skip;
    return false;
  }

  // Counts a probe's answer, and at the end of a window picks the mode for
  // the next.
  static void Record(Slot* slot, bool ruled_out) {
    if (slot == nullptr) return;
    ++slot->probes;
    slot->ruled_out += ruled_out;
    const uint32_t window = slot->skipping ? kSkippingWindow : kProbingWindow;
    if (slot->probes == window) {
      slot->skipping = slot->ruled_out * kWorthProbing < window;
      slot->probes = 0;
      slot->ruled_out = 0;
    }
    slot->lookups_to_skip = slot->skipping ? kSampleEvery - 1 : 0;
  }

 private:
  ThreadSlots<Slot> slots_;
};

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_PROBE_SAMPLING_H_
