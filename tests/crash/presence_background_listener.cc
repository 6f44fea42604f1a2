#include "tests/crash/presence_background_listener.h"

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <thread>

#include "absl/synchronization/mutex.h"

namespace sstfilter {
namespace test {
namespace {

class PresenceBackgroundListener : public PresenceFilterListener {
 public:
  explicit PresenceBackgroundListener(BackgroundWorkListener* listener)
      : listener_(listener) {}

  void OnSaveBegin() override {
    uint64_t id;
    {
      absl::MutexLock lock(&mu_);
      id = ++saves_begun_;
      open_saves_[std::this_thread::get_id()].push_back(id);
    }
    listener_->Began(BackgroundKind::kSave, id, /*cause=*/"");
  }
  void OnSaveEnd(const absl::Status& /*status*/) override {
    End(BackgroundKind::kSave, &open_saves_, std::this_thread::get_id());
  }
  void OnRebuildBegin(const std::string& column_family,
                      PresenceRebuildReason reason) override {
    uint64_t id;
    {
      absl::MutexLock lock(&mu_);
      id = ++rebuilds_begun_;
      open_rebuilds_[column_family].push_back(id);
    }
    listener_->Began(BackgroundKind::kRebuild, id,
                     PresenceRebuildReasonName(reason));
  }
  void OnRebuildEnd(const std::string& column_family,
                    const absl::Status& /*status*/) override {
    End(BackgroundKind::kRebuild, &open_rebuilds_, column_family);
  }

 private:
  // Ends the oldest window open under key; an end without a beginning is
  // reported with id 0, which the reader of the reports refuses.
  template <typename Key>
  void End(BackgroundKind kind, std::map<Key, std::deque<uint64_t>>* open,
           const Key& key) {
    uint64_t id = 0;
    {
      absl::MutexLock lock(&mu_);
      std::deque<uint64_t>& ids = (*open)[key];
      if (!ids.empty()) {
        id = ids.front();
        ids.pop_front();
      }
    }
    listener_->Ended(kind, id);
  }

  BackgroundWorkListener* const listener_;
  absl::Mutex mu_;
  uint64_t saves_begun_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t rebuilds_begun_ ABSL_GUARDED_BY(mu_) = 0;
  std::map<std::thread::id, std::deque<uint64_t>> open_saves_
      ABSL_GUARDED_BY(mu_);
  std::map<std::string, std::deque<uint64_t>> open_rebuilds_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace

std::unique_ptr<PresenceFilterListener> NewPresenceBackgroundListener(
    BackgroundWorkListener* listener) {
  return std::make_unique<PresenceBackgroundListener>(listener);
}

}  // namespace test
}  // namespace sstfilter
