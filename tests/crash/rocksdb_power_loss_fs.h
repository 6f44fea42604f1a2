// A rocksdb::FileSystem that reports every file a RocksDB database writes to
// a SyncedFiles, so that a test can simulate a power loss
// (synced_files.h): after SyncedFiles::LosePower every write, sync, create,
// rename and removal fails with an IO error, and DropUnsynced then cuts the
// files back to what they held at their last sync. Directory syncs are
// reported too: RocksDB syncs the directory after creating a table, a
// write-ahead log or a MANIFEST.
//
// Use it through NewRocksDbPowerLossEnv. REQUIRES: files outlives the env,
// and the env every database opened with it.

#ifndef SSTFILTER_TESTS_CRASH_ROCKSDB_POWER_LOSS_FS_H_
#define SSTFILTER_TESTS_CRASH_ROCKSDB_POWER_LOSS_FS_H_

#include <memory>

#include "rocksdb/env.h"
#include "tests/crash/synced_files.h"

namespace sstfilter {
namespace test {

// The default Env with its file system wrapped as above.
std::unique_ptr<rocksdb::Env> NewRocksDbPowerLossEnv(SyncedFiles* files);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_CRASH_ROCKSDB_POWER_LOSS_FS_H_
