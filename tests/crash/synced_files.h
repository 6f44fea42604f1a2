// What a simulated power loss keeps: the bytes each file held at its last
// sync. Both engines' wrappers (leveldb_power_loss_env.h,
// rocksdb_power_loss_fs.h) report every file operation here, and at the
// simulated power loss this cuts the files back to what a journaling file
// system such as ext4 would leave; files that existed before the tracker saw
// them are left as they are. The model: README.md ("The power-loss model").
// Thread-safe: engines write, sync and rename from background threads.

#ifndef SSTFILTER_TESTS_CRASH_SYNCED_FILES_H_
#define SSTFILTER_TESTS_CRASH_SYNCED_FILES_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

namespace sstfilter {
namespace test {

class SyncedFiles {
 public:
  // A file opened for writing, holding size bytes (all durable); existed:
  // its name was there before (a file being appended to, or truncated).
  void Opened(const std::string& path, bool existed, uint64_t size);
  void Appended(const std::string& path, uint64_t bytes);
  void Truncated(const std::string& path, uint64_t size);
  // The file's length when a Sync begins, and its end: bytes up to that
  // length are durable once the sync succeeds.
  uint64_t Size(const std::string& path) const;
  void Synced(const std::string& path, uint64_t length);
  void DirectorySynced(const std::string& dir);
  void Renamed(const std::string& from, const std::string& to);
  void Removed(const std::string& path);

  // From now on the wrappers refuse every write, sync, create, rename and
  // delete with an IO error, as a machine without power would not do them.
  void LosePower() { lost_.store(true); }
  bool powered() const { return !lost_.load(); }

  // Where a planned power loss strikes.
  enum class StrikePoint {
    // An append to a table file (*.ldb, *.sst): inside a flush or
    // compaction, while a table and its filter are being written.
    kTableAppend,
    // An append to, or a sync of, a watched file (below): a saved file's
    // temporary being written.
    kSavedFileWrite,
    // A rename onto a watched file: a saved file being put in place.
    kSavedFileRename,
    // A directory sync by the thread that renamed a watched file into that
    // directory, before the directory's next sync: the rename being made
    // durable.
    kSavedFileDirectorySync,
  };
  // Loses power just before the n-th operation at point from now on. The
  // saved-file points watch the files whose names (without directory) start
  // with watched_name. REQUIRES: n >= 1.
  void LosePowerAt(StrikePoint point, int64_t n,
                   const std::string& watched_name = "");
  // Whether the last power loss struck at the planned point.
  bool lost_at_strike_point() const { return lost_at_strike_point_.load(); }

  // Whether an operation on path (an append, a sync, a rename onto path, a
  // directory sync of dir) may go ahead: false without power. The wrappers
  // ask before each; the power goes here when a planned loss strikes.
  bool PowerForAppend(const std::string& path);
  bool PowerForSync(const std::string& path);
  bool PowerForRename(const std::string& to);
  bool PowerForDirectorySync(const std::string& dir);

  struct Dropped {
    int files_cut = 0;       // files cut back to their synced length
    uint64_t bytes_cut = 0;  // bytes those files lose
    int files_removed = 0;   // files whose name was never durable
  };
  // Once the engine has let go of every file: applies the model above to
  // the files on disk, forgets them, and restores power.
  // REQUIRES: LosePower was called.
  absl::StatusOr<Dropped> DropUnsynced();

 private:
  struct File {
    uint64_t size = 0;
    uint64_t synced = 0;
    bool name_durable = false;
  };

  // Whether path's name starts with the watched name.
  bool Watched(const std::string& path) const ABSL_SHARED_LOCKS_REQUIRED(mu_);
  // Counts an operation at point; true when the planned loss strikes at it
  // (the power is then gone).
  bool StrikesAt(StrikePoint point);

  mutable absl::Mutex mu_;
  std::map<std::string, File> files_ ABSL_GUARDED_BY(mu_);
  // Directories a watched file was renamed into and not synced since, with
  // the thread that renamed it.
  std::map<std::string, std::thread::id> watched_renames_ ABSL_GUARDED_BY(mu_);
  std::string watched_name_ ABSL_GUARDED_BY(mu_);
  std::atomic<bool> lost_{false};
  std::atomic<StrikePoint> strike_point_{StrikePoint::kTableAppend};
  std::atomic<int64_t> strikes_left_{0};  // 0: no loss planned
  std::atomic<bool> lost_at_strike_point_{false};
};

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_CRASH_SYNCED_FILES_H_
