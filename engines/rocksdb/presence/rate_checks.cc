#include "engines/rocksdb/presence/rate_checks.h"

#include <shared_mutex>

namespace sstfilter {
namespace presence_internal {

void CheckRates(absl::Span<ColumnFamilyFilter* const> filters, double max_rate,
                WritersLock* writers, ReadEpochs* epochs,
                const RebuildFn& rebuild) {
  for (ColumnFamilyFilter* filter : filters) {
    if (filter->cancelled()) continue;
    bool serving = false;
    bool building = false;
    double rate = 0;
    PresenceRebuildReason last_rebuild = PresenceRebuildReason::kNone;
    {
      std::shared_lock<WritersLock> lock(*writers);
      building = filter->has_building();
      last_rebuild = filter->last_rebuild();
      ReadEpochs::Guard guard(epochs);
      if (!guard.active()) return;  // no slot for this thread: check later
      const PresenceFilter* current = filter->serving();
      serving = current != nullptr;
      if (serving && !building) {
        rate = current->keys.SampledExpectedFpp(kRateCheckBlocks);
      }
    }
    if (building) continue;
    if (!serving) {
      // A rebuild failed earlier; try again now the database has moved on.
      rebuild(filter, last_rebuild);
    } else if (rate > max_rate) {
      rebuild(filter, PresenceRebuildReason::kRateAboveTarget);
    }
  }
}

}  // namespace presence_internal
}  // namespace sstfilter
