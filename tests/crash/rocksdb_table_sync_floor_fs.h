// The default rocksdb::Env with a file system whose table files (".sst")
// take at least kMinTableSync (background_work.h) to sync, as on a disk, so
// that a crash test can aim a kill inside a flush or compaction on tmpfs
// too. Everything else passes through.

#ifndef SSTFILTER_TESTS_CRASH_ROCKSDB_TABLE_SYNC_FLOOR_FS_H_
#define SSTFILTER_TESTS_CRASH_ROCKSDB_TABLE_SYNC_FLOOR_FS_H_

#include <memory>

#include "rocksdb/env.h"

namespace sstfilter {
namespace test {

std::unique_ptr<rocksdb::Env> NewRocksDbTableSyncFloorEnv();

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_CRASH_ROCKSDB_TABLE_SYNC_FLOOR_FS_H_
