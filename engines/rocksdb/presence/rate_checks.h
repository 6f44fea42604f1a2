// Which filters need a rebuild after a flush or compaction: one whose
// estimated false-positive rate passed its bound, and one that serves no
// more (a rebuild failed earlier; the database has moved on since).

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_RATE_CHECKS_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_RATE_CHECKS_H_

#include <cstdint>
#include <functional>

#include "absl/types/span.h"
#include "engines/rocksdb/presence/column_family_filter.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "engines/rocksdb/presence/read_epochs.h"
#include "engines/rocksdb/presence/writers_lock.h"

namespace sstfilter {
namespace presence_internal {

// A rate check reads this many of a filter's blocks (256 KiB) rather than
// the whole filter: a fill flushing 1 MB memtables flushes dozens of times a
// second.
constexpr uint64_t kRateCheckBlocks = 4096;

using RebuildFn =
    std::function<void(ColumnFamilyFilter* filter, PresenceRebuildReason)>;

// Calls rebuild, in the order of filters, for each filter that is not
// cancelled and has no building filter: with kRateAboveTarget when its
// serving filter's sampled rate is above max_rate, with its last rebuild's
// reason when none serves. Stops early when the calling thread has no
// ReadEpochs slot (a later check will do). REQUIRES: writers and epochs are
// those the filters are swapped under.
void CheckRates(absl::Span<ColumnFamilyFilter* const> filters, double max_rate,
                WritersLock* writers, ReadEpochs* epochs,
                const RebuildFn& rebuild);

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_RATE_CHECKS_H_
