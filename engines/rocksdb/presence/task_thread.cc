#include "engines/rocksdb/presence/task_thread.h"

#include <utility>

namespace sstfilter {
namespace presence_internal {
namespace {

class BackgroundWorkListener : public rocksdb::EventListener {
 public:
  explicit BackgroundWorkListener(std::shared_ptr<BackgroundSignal> signal)
      : signal_(std::move(signal)) {}
  const char* Name() const override { return "sstfilter.PresenceFilter"; }
  void OnFlushCompleted(rocksdb::DB*,
                        const rocksdb::FlushJobInfo& info) override {
    const rocksdb::TableProperties& table = info.table_properties;
    Wake(table.data_size + table.index_size + table.filter_size);
  }
  void OnCompactionCompleted(rocksdb::DB*,
                             const rocksdb::CompactionJobInfo& info) override {
    Wake(info.stats.total_output_bytes);
  }

 private:
  void Wake(uint64_t table_bytes) {
    {
      std::lock_guard<std::mutex> lock(signal_->mutex);
      signal_->background_work_done = true;
      signal_->table_bytes_written += table_bytes;
    }
    signal_->wake.notify_all();
  }
  std::shared_ptr<BackgroundSignal> signal_;
};

}  // namespace

std::shared_ptr<rocksdb::EventListener> NewBackgroundWorkListener(
    std::shared_ptr<BackgroundSignal> signal) {
  return std::make_shared<BackgroundWorkListener>(std::move(signal));
}

TaskThread::TaskThread(std::shared_ptr<BackgroundSignal> signal,
                       SaveSchedule schedule)
    : signal_(std::move(signal)), schedule_(schedule) {}

void TaskThread::Enqueue(BackgroundTask task) {
  {
    std::lock_guard<std::mutex> lock(signal_->mutex);
    for (const BackgroundTask& queued : tasks_) {
      if (queued.filter == task.filter) return;
    }
    tasks_.push_back(std::move(task));
  }
  signal_->wake.notify_all();
}

void TaskThread::Start(BackgroundWork work) {
  work_ = std::move(work);
  thread_ = std::thread([this] { Loop(); });
}

void TaskThread::Stop() {
  {
    std::lock_guard<std::mutex> lock(signal_->mutex);
    stopping_.store(true, std::memory_order_relaxed);
  }
  signal_->wake.notify_all();
  if (thread_.joinable()) thread_.join();
  idle_.notify_all();
}

bool TaskThread::WaitUntilIdle(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(signal_->mutex);
  auto done = [this] {
    return stopping() || (tasks_.empty() && running_ == 0);
  };
  if (timeout == std::chrono::milliseconds::max()) {
    idle_.wait(lock, done);  // wait_for would overflow its deadline
    return true;
  }
  return idle_.wait_for(lock, timeout, done);
}

void TaskThread::Loop() {
  std::unique_lock<std::mutex> lock(signal_->mutex);
  // A save owed since a flush or compaction, made once save_interval has
  // passed since the last one and RocksDB has written enough tables since.
  bool save_owed = false;
  auto last_save = std::chrono::steady_clock::now();
  // Tables written before the thread started count towards its first save.
  uint64_t table_bytes_at_last_save = 0;
  uint64_t last_save_bytes = work_.filter_bytes;
  // REQUIRES: signal_->mutex held.
  auto tables_allow_save = [&] {
    const double written = static_cast<double>(signal_->table_bytes_written -
                                               table_bytes_at_last_save);
    return written >= schedule_.table_bytes_per_saved_byte *
                          static_cast<double>(last_save_bytes);
  };
  while (true) {
    auto ready = [this] {
      return stopping() || !tasks_.empty() || signal_->background_work_done;
    };
    if (save_owed && tables_allow_save()) {
      signal_->wake.wait_until(lock, last_save + schedule_.save_interval,
                               ready);
    } else {
      // Without enough tables written, only more background work can let
      // the save owed be made.
      signal_->wake.wait(lock, ready);
    }
    if (stopping()) break;
    if (!tasks_.empty()) {
      BackgroundTask task = std::move(tasks_.front());
      tasks_.pop_front();
      ++running_;
      lock.unlock();
      work_.run(task);
      lock.lock();
      --running_;
      idle_.notify_all();
      continue;
    }
    const bool work_done = signal_->background_work_done;
    signal_->background_work_done = false;
    const bool tables_allow = tables_allow_save();
    const uint64_t table_bytes = signal_->table_bytes_written;
    lock.unlock();
    if (work_done) {
      work_.after_background_work();
      save_owed = save_owed || schedule_.save_after_background_work;
    }
    if (save_owed && tables_allow &&
        std::chrono::steady_clock::now() - last_save >=
            schedule_.save_interval) {
      last_save_bytes = work_.save();
      save_owed = false;
      last_save = std::chrono::steady_clock::now();
      table_bytes_at_last_save = table_bytes;
    }
    lock.lock();
  }
}

}  // namespace presence_internal
}  // namespace sstfilter
