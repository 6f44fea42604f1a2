// A rocksdb::EventListener that reports each flush and compaction of a
// RocksDB database to a BackgroundWorkListener (background_work.h):
//  - a flush from OnFlushBegin to OnFlushCompleted: the memtable written
//    into a table, synced and installed in the MANIFEST;
//  - a compaction from OnCompactionBegin to OnCompactionCompleted: its
//    inputs read, its tables written, synced and installed. A trivial move
//    (a file handed down a level, nothing rewritten) is a compaction to
//    RocksDB's listener too, and so to the test; the crash tests' tree
//    makes few (a file whose keys overlap nothing in the level below).
// Ids are RocksDB's job ids. Flushes during recovery at open are not
// reported (RocksDB tells no listener of them).
//
// REQUIRES: listener outlives every database the result is attached to.

#ifndef SSTFILTER_TESTS_CRASH_ROCKSDB_BACKGROUND_LISTENER_H_
#define SSTFILTER_TESTS_CRASH_ROCKSDB_BACKGROUND_LISTENER_H_

#include <memory>

#include "rocksdb/listener.h"
#include "tests/crash/background_work.h"

namespace sstfilter {
namespace test {

std::shared_ptr<rocksdb::EventListener> NewRocksDbBackgroundListener(
    BackgroundWorkListener* listener);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_CRASH_ROCKSDB_BACKGROUND_LISTENER_H_
