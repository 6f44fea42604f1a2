// A leveldb::Env that reports each table LevelDB writes to a
// BackgroundWorkListener (background_work.h): the window is the life of a
// "<number>.ldb" file open for writing (or until its deletion, when a
// compaction abandons it), the id its file number; a table announced by the
// info log's "Level-0 table #<number>: started" is a flush, any other a
// compaction (README.md, "Where a kill lands"). A flush run between two keys
// of a compaction is reported inside that compaction's window. A table's
// Sync takes at least kMinTableSync, as on a disk.
// REQUIRES: Options::info_log is null (LevelDB opens it through this Env);
// base and listener outlive the env, and the env every database using it.

#ifndef SSTFILTER_TESTS_CRASH_LEVELDB_TABLE_WRITES_ENV_H_
#define SSTFILTER_TESTS_CRASH_LEVELDB_TABLE_WRITES_ENV_H_

#include <cstdint>
#include <set>
#include <string>

#include "absl/synchronization/mutex.h"
#include "leveldb/env.h"
#include "tests/crash/background_work.h"

namespace sstfilter {
namespace test {

class LevelDbTableWritesEnv : public leveldb::EnvWrapper {
 public:
  LevelDbTableWritesEnv(leveldb::Env* base, BackgroundWorkListener* listener);

  leveldb::Status NewWritableFile(const std::string& path,
                                  leveldb::WritableFile** result) override;
  leveldb::Status NewLogger(const std::string& path,
                            leveldb::Logger** result) override;

  // The info log saw LevelDB announce a flush into table number.
  void FlushAnnounced(uint64_t number);

 private:
  BackgroundWorkListener* const listener_;
  absl::Mutex mu_;
  // Tables announced as flushes and not yet created.
  std::set<uint64_t> announced_ ABSL_GUARDED_BY(mu_);
};

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_CRASH_LEVELDB_TABLE_WRITES_ENV_H_
