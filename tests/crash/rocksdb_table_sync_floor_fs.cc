#include "tests/crash/rocksdb_table_sync_floor_fs.h"

#include <string>
#include <utility>

#include "absl/strings/match.h"
#include "rocksdb/file_system.h"
#include "tests/crash/background_work.h"

namespace sstfilter {
namespace test {
namespace {

using rocksdb::FileOptions;
using rocksdb::FSWritableFile;
using rocksdb::IODebugContext;
using rocksdb::IOOptions;
using rocksdb::IOStatus;

// The suffix of the tables RocksDB writes.
constexpr char kTableSuffix[] = ".sst";

class SyncFloorFile : public rocksdb::FSWritableFileOwnerWrapper {
 public:
  explicit SyncFloorFile(std::unique_ptr<FSWritableFile> target)
      : FSWritableFileOwnerWrapper(std::move(target)) {}

  IOStatus Sync(const IOOptions& options, IODebugContext* dbg) override {
    return SyncTakingAtLeastFloor([&] { return target()->Sync(options, dbg); });
  }
  IOStatus Fsync(const IOOptions& options, IODebugContext* dbg) override {
    return SyncTakingAtLeastFloor(
        [&] { return target()->Fsync(options, dbg); });
  }
};

class SyncFloorFileSystem : public rocksdb::FileSystemWrapper {
 public:
  SyncFloorFileSystem() : FileSystemWrapper(rocksdb::FileSystem::Default()) {}

  const char* Name() const override { return "SyncFloorFileSystem"; }

  IOStatus NewWritableFile(const std::string& path, const FileOptions& options,
                           std::unique_ptr<FSWritableFile>* result,
                           IODebugContext* dbg) override {
    IOStatus s = target()->NewWritableFile(path, options, result, dbg);
    if (s.ok() && absl::EndsWith(path, kTableSuffix)) {
      *result = std::make_unique<SyncFloorFile>(std::move(*result));
    }
    return s;
  }
};

}  // namespace

std::unique_ptr<rocksdb::Env> NewRocksDbTableSyncFloorEnv() {
  return rocksdb::NewCompositeEnv(std::make_shared<SyncFloorFileSystem>());
}

}  // namespace test
}  // namespace sstfilter
