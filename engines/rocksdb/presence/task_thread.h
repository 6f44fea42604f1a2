// The presence filters' background thread: a queue of recoveries and
// rebuilds, at most one queued per column family, run one at a time; between
// them, what follows RocksDB's flushes and compactions (rate checks, and a
// save at most once per save interval).

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_TASK_THREAD_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_TASK_THREAD_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "engines/rocksdb/presence/saved_filters.h"
#include "rocksdb/listener.h"

namespace sstfilter {
namespace presence_internal {

class ColumnFamilyFilter;

// Wakes the background thread when RocksDB finishes a flush or compaction.
// Shared with the EventListener RocksDB keeps, which may outlive the thread.
struct BackgroundSignal {
  std::mutex mutex;
  std::condition_variable wake;
  bool background_work_done = false;  // guarded by mutex
  // The bytes of the tables RocksDB's flushes and compactions have written
  // since the signal was made; guarded by mutex.
  uint64_t table_bytes_written = 0;
};

// Sets signal->background_work_done, adds the tables' bytes, and wakes its
// waiters after every flush and compaction.
std::shared_ptr<rocksdb::EventListener> NewBackgroundWorkListener(
    std::shared_ptr<BackgroundSignal> signal);

struct BackgroundTask {
  enum Kind { kRecover, kRebuild } kind;
  ColumnFamilyFilter* filter;  // the thread only compares it, never reads it
  PresenceRebuildReason reason;
  std::vector<SavedTable> saved_tables;  // kRecover: what the save covered
};

// When the thread saves: after a flush or compaction, once save_interval
// has passed since its last save (or its start), and once RocksDB has
// written table_bytes_per_saved_byte table bytes per byte of its last save
// (before the first, per byte of BackgroundWork::filter_bytes) since then;
// never when save_after_background_work is false.
struct SaveSchedule {
  bool save_after_background_work = true;
  std::chrono::milliseconds save_interval{0};
  double table_bytes_per_saved_byte = 0;
};

// What the thread runs. Each is called on the thread only.
struct BackgroundWork {
  std::function<void(const BackgroundTask& task)> run;
  // After a flush or compaction, before any save it owes.
  std::function<void()> after_background_work;
  // Saves; returns the bytes written (0 when the save failed).
  std::function<uint64_t()> save;
  // The filters' bytes at the start: what the first save is taken to write.
  uint64_t filter_bytes = 0;
};

// Enqueue, stopping and WaitUntilIdle: any thread. Start: once.
class TaskThread {
 public:
  TaskThread(std::shared_ptr<BackgroundSignal> signal, SaveSchedule schedule);
  ~TaskThread() { Stop(); }
  TaskThread(const TaskThread&) = delete;
  TaskThread& operator=(const TaskThread&) = delete;

  // Queues task unless a task of the same filter is queued (one running
  // does not count). Before Start too: Start runs what was queued.
  void Enqueue(BackgroundTask task);
  // Starts the thread.
  void Start(BackgroundWork work);
  // Stops the thread: it runs no task past the one under way, which should
  // poll stopping() to end early. Idempotent; also before Start.
  void Stop();
  bool stopping() const { return stopping_.load(std::memory_order_relaxed); }
  // Returns true once no task is queued or running, or the thread stops;
  // false after timeout (milliseconds::max(): never).
  bool WaitUntilIdle(std::chrono::milliseconds timeout);

 private:
  void Loop();

  const std::shared_ptr<BackgroundSignal> signal_;
  const SaveSchedule schedule_;
  BackgroundWork work_;  // set before the thread starts
  // Guarded by signal_->mutex.
  std::deque<BackgroundTask> tasks_;
  int running_ = 0;
  std::condition_variable idle_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_TASK_THREAD_H_
