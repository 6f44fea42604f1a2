#include "tests/crash/rocksdb_background_listener.h"

namespace sstfilter {
namespace test {
namespace {

class RocksDbBackgroundListener : public rocksdb::EventListener {
 public:
  explicit RocksDbBackgroundListener(BackgroundWorkListener* listener)
      : listener_(listener) {}

  const char* Name() const override { return "sstfilter.crash_test"; }

  void OnFlushBegin(rocksdb::DB*, const rocksdb::FlushJobInfo& info) override {
    listener_->Began(BackgroundKind::kFlush, info.job_id, /*cause=*/"");
  }
  void OnFlushCompleted(rocksdb::DB*,
                        const rocksdb::FlushJobInfo& info) override {
    listener_->Ended(BackgroundKind::kFlush, info.job_id);
  }
  void OnCompactionBegin(rocksdb::DB*,
                         const rocksdb::CompactionJobInfo& info) override {
    listener_->Began(BackgroundKind::kCompaction, info.job_id,
                     /*cause=*/"");
  }
  void OnCompactionCompleted(rocksdb::DB*,
                             const rocksdb::CompactionJobInfo& info) override {
    listener_->Ended(BackgroundKind::kCompaction, info.job_id);
  }

 private:
  BackgroundWorkListener* const listener_;
};

}  // namespace

std::shared_ptr<rocksdb::EventListener> NewRocksDbBackgroundListener(
    BackgroundWorkListener* listener) {
  return std::make_shared<RocksDbBackgroundListener>(listener);
}

}  // namespace test
}  // namespace sstfilter
