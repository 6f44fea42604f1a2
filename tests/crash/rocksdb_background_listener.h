// A rocksdb::EventListener that reports each flush (OnFlushBegin to
// OnFlushCompleted) and compaction (OnCompactionBegin to
// OnCompactionCompleted, trivial moves included) of a RocksDB database to a
// BackgroundWorkListener (background_work.h). Ids are RocksDB's job ids.
// Flushes during recovery at open are not reported (RocksDB tells no
// listener of them).
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
