// A PresenceFilterListener that reports each save and each rebuild of a
// PresenceFilteredDB's filters to a BackgroundWorkListener
// (background_work.h), as work of kinds kSave and kRebuild:
//  - a save from OnSaveBegin to OnSaveEnd: the filters encoded, written to
//    a temporary file, synced and renamed over the saved file;
//  - a rebuild from OnRebuildBegin to OnRebuildEnd: the column family
//    scanned at a snapshot into a new filter, which is swapped in; a
//    rebuild's cause is its PresenceRebuildReasonName.
// Ids count the saves (rebuilds) this listener has seen begin, from 1. A
// save ends on the thread it began on; a column family has one rebuild at a
// time, and an end closes the oldest open one.
//
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
