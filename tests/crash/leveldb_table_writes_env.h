// A leveldb::Env that reports each table LevelDB writes to a
// BackgroundWorkListener (background_work.h). LevelDB has no event
// listener, so the window of background work is the life of a table file
// open for writing: from the NewWritableFile of "<number>.ldb" to the
// file's Close (or its deletion, when a compaction abandons it), the table
// and its filter written and synced. The id is the table's file number.
//
// Which kind: LevelDB 1.23 writes tables in exactly two places. A flush
// (DBImpl::WriteLevel0Table, from a memtable, in the background or while
// recovery replays a log) first logs "Level-0 table #<number>: started" to
// its info log and then, on the same thread, creates that table; every
// other table is a compaction's output (DBImpl::OpenCompactionOutputFile).
// So this Env also wraps the info log LevelDB opens through it, and a table
// whose number that line announced is a flush, any other a compaction.
// A flush LevelDB runs between two keys of a compaction is reported inside
// that compaction's window when the compaction's output is open.
//
// REQUIRES: the database leaves Options::info_log null (so that LevelDB
// opens its info log through this Env); base and listener outlive the env,
// and the env every database opened with it.

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
