// What a crash test learns of a database's background work: each flush and
// compaction as it begins and as it ends, so that a kill can be aimed at one
// and the test can tell where a kill landed. Each engine reports through its
// own hook: RocksDB through an EventListener (rocksdb_background_listener.h),
// LevelDB, which has none, through an Env that watches its table files
// (leveldb_table_writes_env.h).
//
// For one id and kind, the calls follow the grammar: Began Ended?. An id is
// unique among the windows of its kind that are open at once.
// Thread-safe: engines call from their background threads (LevelDB also from
// the thread that opens the database, when recovery writes a table).

#ifndef SSTFILTER_TESTS_CRASH_BACKGROUND_WORK_H_
#define SSTFILTER_TESTS_CRASH_BACKGROUND_WORK_H_

#include <cstdint>

namespace sstfilter {
namespace test {

enum class BackgroundKind { kFlush, kCompaction };

// "flush" or "compaction": the kind's name in the crash writer's reports.
inline const char* BackgroundKindName(BackgroundKind kind) {
  return kind == BackgroundKind::kFlush ? "flush" : "compaction";
}

class BackgroundWorkListener {
 public:
  virtual ~BackgroundWorkListener() = default;
  virtual void Began(BackgroundKind kind, uint64_t id) = 0;
  virtual void Ended(BackgroundKind kind, uint64_t id) = 0;
};

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_CRASH_BACKGROUND_WORK_H_
