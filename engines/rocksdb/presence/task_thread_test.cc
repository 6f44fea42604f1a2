// TaskThread's contract: queued tasks run one at a time in order, at most
// one queued per filter; a flush or compaction brings a rate check and the
// save it owes; Stop abandons what is queued; WaitUntilIdle waits for all.

#include "engines/rocksdb/presence/task_thread.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "engines/rocksdb/presence/column_family_filter.h"
#include "gtest/gtest.h"
#include "rocksdb/listener.h"

namespace sstfilter {
namespace presence_internal {
namespace {

using std::chrono::milliseconds;

// Long enough for any step of a loaded machine; only failures wait it out.
constexpr milliseconds kPatience{20000};

BackgroundTask RebuildOf(ColumnFamilyFilter* filter,
                         PresenceRebuildReason reason) {
  return {BackgroundTask::kRebuild, filter, reason, {}};
}

std::vector<std::string> NamesOf(
    const std::vector<PresenceRebuildReason>& reasons) {
  std::vector<std::string> names;
  for (PresenceRebuildReason reason : reasons) {
    names.push_back(PresenceRebuildReasonName(reason));
  }
  return names;
}

// What the thread did, with a way to wait for it.
class Recorder {
 public:
  // A save reports bytes_per_save bytes written; the filters start at
  // filter_bytes.
  BackgroundWork Work(uint64_t filter_bytes = 0, uint64_t bytes_per_save = 0) {
    BackgroundWork work;
    work.filter_bytes = filter_bytes;
    work.run = [this](const BackgroundTask& task) {
      Note([&] { ran_.push_back(PresenceRebuildReasonName(task.reason)); });
    };
    work.after_background_work = [this] { Note([&] { ++checks_; }); };
    work.save = [this, bytes_per_save] {
      Note([&] { ++saves_; });
      return bytes_per_save;
    };
    return work;
  }

  // The reasons of the tasks run, by name.
  std::vector<std::string> ran() {
    std::lock_guard<std::mutex> lock(mutex_);
    return ran_;
  }
  int checks() {
    std::lock_guard<std::mutex> lock(mutex_);
    return checks_;
  }
  int saves() {
    std::lock_guard<std::mutex> lock(mutex_);
    return saves_;
  }
  // True once the thread has run tasks tasks, or false after kPatience.
  bool WaitForTasks(size_t tasks) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, kPatience,
                             [&] { return ran_.size() >= tasks; });
  }
  bool WaitForSaves(int saves) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, kPatience, [&] { return saves_ >= saves; });
  }
  bool WaitForChecks(int checks) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, kPatience,
                             [&] { return checks_ >= checks; });
  }

 private:
  template <typename Change>
  void Note(Change change) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      change();
    }
    changed_.notify_all();
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> ran_;
  int checks_ = 0;
  int saves_ = 0;
};

// What the listener does after a flush or compaction.
void SignalBackgroundWork(BackgroundSignal* signal, uint64_t table_bytes = 0) {
  {
    std::lock_guard<std::mutex> lock(signal->mutex);
    signal->background_work_done = true;
    signal->table_bytes_written += table_bytes;
  }
  signal->wake.notify_all();
}

// Tasks queued before Start run after it, in order.
TEST(TaskThreadTest, RunsTasksInOrderOneQueuedPerFilter) {
  ColumnFamilyFilter a(1, "a");
  ColumnFamilyFilter b(2, "b");
  Recorder recorder;
  TaskThread thread(std::make_shared<BackgroundSignal>(), SaveSchedule());
  thread.Enqueue(RebuildOf(&a, PresenceRebuildReason::kRequested));
  thread.Enqueue(RebuildOf(&b, PresenceRebuildReason::kImported));
  // a has a task queued: the first one stands.
  thread.Enqueue(RebuildOf(&a, PresenceRebuildReason::kRateAboveTarget));
  thread.Start(recorder.Work());
  ASSERT_TRUE(thread.WaitUntilIdle(kPatience));
  EXPECT_EQ(recorder.ran(), NamesOf({PresenceRebuildReason::kRequested,
                                     PresenceRebuildReason::kImported}));
  // No flush or compaction happened: nothing to check, nothing to save.
  EXPECT_EQ(recorder.checks(), 0);
  EXPECT_EQ(recorder.saves(), 0);
  // Once a's task has run, a new one is queued again.
  thread.Enqueue(RebuildOf(&a, PresenceRebuildReason::kRateAboveTarget));
  ASSERT_TRUE(recorder.WaitForTasks(3));
  EXPECT_EQ(recorder.ran().back(),
            PresenceRebuildReasonName(PresenceRebuildReason::kRateAboveTarget));
}

TEST(TaskThreadTest, WaitUntilIdleTimesOutWhileATaskRuns) {
  ColumnFamilyFilter a(1, "a");
  std::mutex mutex;
  std::condition_variable released;
  bool release = false;
  TaskThread thread(std::make_shared<BackgroundSignal>(), SaveSchedule());
  BackgroundWork work;
  work.run = [&](const BackgroundTask&) {
    std::unique_lock<std::mutex> lock(mutex);
    released.wait(lock, [&] { return release; });
  };
  work.after_background_work = [] {};
  work.save = [] { return uint64_t{0}; };
  thread.Enqueue(RebuildOf(&a, PresenceRebuildReason::kRequested));
  thread.Start(std::move(work));
  EXPECT_FALSE(thread.WaitUntilIdle(milliseconds(50)));
  {
    std::lock_guard<std::mutex> lock(mutex);
    release = true;
  }
  released.notify_all();
  EXPECT_TRUE(thread.WaitUntilIdle(milliseconds::max()));
}

TEST(TaskThreadTest, BackgroundWorkBringsARateCheckAndASave) {
  auto signal = std::make_shared<BackgroundSignal>();
  Recorder recorder;
  TaskThread thread(signal, {/*save_after_background_work=*/true,
                             /*save_interval=*/milliseconds(0)});
  thread.Start(recorder.Work());
  SignalBackgroundWork(signal.get());
  ASSERT_TRUE(recorder.WaitForSaves(1));
  EXPECT_EQ(recorder.checks(), 1);
  SignalBackgroundWork(signal.get());
  ASSERT_TRUE(recorder.WaitForSaves(2));
  EXPECT_EQ(recorder.checks(), 2);
}

// The saves a thread on schedule makes in the iteration that follows one
// flush or compaction: the save, if any, follows the rate check before the
// thread waits again, and Stop joins the thread.
int SavesAfterOneBackgroundWork(SaveSchedule schedule) {
  auto signal = std::make_shared<BackgroundSignal>();
  Recorder recorder;
  TaskThread thread(signal, schedule);
  thread.Start(recorder.Work());
  SignalBackgroundWork(signal.get());
  EXPECT_TRUE(recorder.WaitForChecks(1));
  thread.Stop();
  return recorder.saves();
}

TEST(TaskThreadTest, NoSaveWhenSavesDoNotFollowBackgroundWork) {
  EXPECT_EQ(SavesAfterOneBackgroundWork({/*save_after_background_work=*/false,
                                         /*save_interval=*/milliseconds(0)}),
            0);
}

TEST(TaskThreadTest, SavesAtMostOncePerInterval) {
  // The interval since the thread started has not passed: the save is owed.
  EXPECT_EQ(SavesAfterOneBackgroundWork({/*save_after_background_work=*/true,
                                         /*save_interval=*/kPatience}),
            0);
  EXPECT_EQ(SavesAfterOneBackgroundWork({/*save_after_background_work=*/true,
                                         /*save_interval=*/milliseconds(0)}),
            1);
}

TEST(TaskThreadTest, SavesWaitForTableBytesInProportionToTheLastSave) {
  auto signal = std::make_shared<BackgroundSignal>();
  Recorder recorder;
  TaskThread thread(signal, {/*save_after_background_work=*/true,
                             /*save_interval=*/milliseconds(0),
                             /*table_bytes_per_saved_byte=*/8});
  // The first save waits for 8 table bytes per byte of the filters (100),
  // each one after for 8 per byte of the save before (50).
  thread.Start(recorder.Work(/*filter_bytes=*/100, /*bytes_per_save=*/50));
  int checks = 0;
  // Flushes or compactions writing table_bytes, then one writing none (the
  // thread's check after it ends the iteration that could have saved);
  // returns the saves made by then.
  auto write_tables = [&](uint64_t table_bytes) {
    SignalBackgroundWork(signal.get(), table_bytes);
    EXPECT_TRUE(recorder.WaitForChecks(++checks));
    SignalBackgroundWork(signal.get());
    EXPECT_TRUE(recorder.WaitForChecks(++checks));
    return recorder.saves();
  };
  EXPECT_EQ(write_tables(799), 0);
  EXPECT_EQ(write_tables(1), 1);
  EXPECT_EQ(write_tables(399), 1);
  EXPECT_EQ(write_tables(1), 2);
}

TEST(TaskThreadTest, ListenerAddsTheTablesEachFlushAndCompactionWrote) {
  auto signal = std::make_shared<BackgroundSignal>();
  std::shared_ptr<rocksdb::EventListener> listener =
      NewBackgroundWorkListener(signal);
  rocksdb::FlushJobInfo flush;
  flush.table_properties.data_size = 1000;
  flush.table_properties.index_size = 20;
  flush.table_properties.filter_size = 3;
  listener->OnFlushCompleted(nullptr, flush);
  rocksdb::CompactionJobInfo compaction;
  compaction.stats.total_output_bytes = 40000;
  listener->OnCompactionCompleted(nullptr, compaction);
  std::lock_guard<std::mutex> lock(signal->mutex);
  EXPECT_TRUE(signal->background_work_done);
  EXPECT_EQ(signal->table_bytes_written, 41023u);
}

TEST(TaskThreadTest, StopRunsNoQueuedTaskAndReportsStopping) {
  ColumnFamilyFilter a(1, "a");
  ColumnFamilyFilter b(2, "b");
  std::mutex mutex;
  std::condition_variable started_cv;
  bool started = false;
  int ran = 0;
  auto signal = std::make_shared<BackgroundSignal>();
  TaskThread thread(signal, SaveSchedule());
  BackgroundWork work;
  work.run = [&](const BackgroundTask&) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      started = true;
      ++ran;
    }
    started_cv.notify_all();
    // A scan polls stopping() and ends early.
    while (!thread.stopping()) std::this_thread::yield();
  };
  work.after_background_work = [] {};
  work.save = [] { return uint64_t{0}; };
  thread.Enqueue(RebuildOf(&a, PresenceRebuildReason::kRequested));
  thread.Enqueue(RebuildOf(&b, PresenceRebuildReason::kRequested));
  EXPECT_FALSE(thread.stopping());
  thread.Start(std::move(work));
  {
    std::unique_lock<std::mutex> lock(mutex);
    ASSERT_TRUE(started_cv.wait_for(lock, kPatience, [&] { return started; }));
  }
  thread.Stop();
  EXPECT_TRUE(thread.stopping());
  EXPECT_EQ(ran, 1);
  // b is still queued, but a stopped thread counts as idle.
  EXPECT_TRUE(thread.WaitUntilIdle(milliseconds(0)));
  thread.Stop();  // idempotent
}

TEST(TaskThreadTest, ListenerSignalsFlushesAndCompactions) {
  auto signal = std::make_shared<BackgroundSignal>();
  std::shared_ptr<rocksdb::EventListener> listener =
      NewBackgroundWorkListener(signal);
  listener->OnFlushCompleted(nullptr, rocksdb::FlushJobInfo());
  EXPECT_TRUE(signal->background_work_done);
  signal->background_work_done = false;
  listener->OnCompactionCompleted(nullptr, rocksdb::CompactionJobInfo());
  EXPECT_TRUE(signal->background_work_done);
}

TEST(TaskThreadTest, StopBeforeStart) {
  TaskThread thread(std::make_shared<BackgroundSignal>(), SaveSchedule());
  thread.Stop();
  EXPECT_TRUE(thread.stopping());
}

}  // namespace
}  // namespace presence_internal
}  // namespace sstfilter
