// A leveldb::Env that reports every file a LevelDB database writes to a
// SyncedFiles, so that a test can simulate a power loss
// (synced_files.h): after SyncedFiles::LosePower every write, sync, create,
// rename and removal fails with an IO error, and DropUnsynced then cuts the
// files back to what they held at their last sync.
//
// REQUIRES: files and the env outlive every database opened with it.

#ifndef SSTFILTER_TESTS_CRASH_LEVELDB_POWER_LOSS_ENV_H_
#define SSTFILTER_TESTS_CRASH_LEVELDB_POWER_LOSS_ENV_H_

#include <string>

#include "leveldb/env.h"
#include "tests/crash/synced_files.h"

namespace sstfilter {
namespace test {

class LevelDbPowerLossEnv : public leveldb::EnvWrapper {
 public:
  explicit LevelDbPowerLossEnv(SyncedFiles* files);

  leveldb::Status NewWritableFile(const std::string& path,
                                  leveldb::WritableFile** result) override;
  leveldb::Status NewAppendableFile(const std::string& path,
                                    leveldb::WritableFile** result) override;
  leveldb::Status RenameFile(const std::string& from,
                             const std::string& to) override;
  leveldb::Status RemoveFile(const std::string& path) override;

 private:
  leveldb::Status Open(const std::string& path, bool append,
                       leveldb::WritableFile** result);

  SyncedFiles* files_;
};

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_CRASH_LEVELDB_POWER_LOSS_ENV_H_
