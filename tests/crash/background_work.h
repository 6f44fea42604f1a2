// What a crash test learns of a database's background work: each flush and
// compaction (and, for a presence-filtered database, each save and rebuild
// of its filter) as it begins and ends, so that a kill can be aimed at one
// and the test can tell where it landed. Each engine reports through its own
// hook (README.md, "Where a kill lands"). For one id and kind the calls
// follow Began Ended?; an id is unique among the open windows of its kind.
// Thread-safe: engines call from their background threads (LevelDB also
// from the thread that opens the database, when recovery writes a table).

#ifndef SSTFILTER_TESTS_CRASH_BACKGROUND_WORK_H_
#define SSTFILTER_TESTS_CRASH_BACKGROUND_WORK_H_

#include <cstdint>
#include <string>

#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace sstfilter {
namespace test {

enum class BackgroundKind {
  kFlush,       // a memtable written into a table
  kCompaction,  // tables rewritten into others
  kSave,        // a presence filter saved into its file
  kRebuild,     // a presence filter rebuilt from a scan and swapped in
};

// Every kind, in the order above.
constexpr BackgroundKind kAllBackgroundKinds[] = {
    BackgroundKind::kFlush, BackgroundKind::kCompaction, BackgroundKind::kSave,
    BackgroundKind::kRebuild};

// "flush", "compaction", "save" or "rebuild": the kind's name in the crash
// writer's reports.
inline const char* BackgroundKindName(BackgroundKind kind) {
  switch (kind) {
    case BackgroundKind::kFlush:
      return "flush";
    case BackgroundKind::kCompaction:
      return "compaction";
    case BackgroundKind::kSave:
      return "save";
    case BackgroundKind::kRebuild:
      return "rebuild";
  }
  return "unknown";
}

// The least a table's sync takes while a listener watches the database. A
// disk syncs in milliseconds, tmpfs in microseconds, and there a small
// flush's or compaction's whole window is often shorter than the test takes
// to read its beginning: the floor keeps it as long as a disk would, so that
// a kill can be aimed inside it on any file system.
constexpr absl::Duration kMinTableSync = absl::Milliseconds(2);

// Calls sync, a table's sync, and returns what it returns, after at least
// kMinTableSync.
template <typename Sync>
auto SyncTakingAtLeastFloor(Sync sync) {
  const absl::Time start = absl::Now();
  auto status = sync();
  absl::SleepFor(kMinTableSync - (absl::Now() - start));
  return status;
}

class BackgroundWorkListener {
 public:
  virtual ~BackgroundWorkListener() = default;
  // cause: why the work began, when the engine says (a rebuild's reason, one
  // word); empty otherwise.
  virtual void Began(BackgroundKind kind, uint64_t id,
                     const std::string& cause) = 0;
  virtual void Ended(BackgroundKind kind, uint64_t id) = 0;
};

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_CRASH_BACKGROUND_WORK_H_
