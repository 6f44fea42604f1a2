// A PresenceFilterListener that reports each save (OnSaveBegin to OnSaveEnd)
// and each rebuild (OnRebuildBegin to OnRebuildEnd, its cause its
// PresenceRebuildReasonName) of a PresenceFilteredDB's filters to a
// BackgroundWorkListener (background_work.h) as kSave and kRebuild work.
// Ids count the saves (rebuilds) seen begin, from 1. A save ends on the
// thread it began on; a column family has one rebuild at a time, and an end
// closes the oldest open one.
// REQUIRES: listener outlives the result, and the result every database it
// is given to.

#ifndef SSTFILTER_TESTS_CRASH_PRESENCE_BACKGROUND_LISTENER_H_
#define SSTFILTER_TESTS_CRASH_PRESENCE_BACKGROUND_LISTENER_H_

#include <memory>

#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "tests/crash/background_work.h"

namespace sstfilter {
namespace test {

std::unique_ptr<PresenceFilterListener> NewPresenceBackgroundListener(
    BackgroundWorkListener* listener);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_CRASH_PRESENCE_BACKGROUND_LISTENER_H_
