#include "tests/crash/rocksdb_power_loss_fs.h"

#include <string>
#include <utility>

#include "rocksdb/file_system.h"

namespace sstfilter {
namespace test {
namespace {

using rocksdb::FileOptions;
using rocksdb::FSDirectory;
using rocksdb::FSWritableFile;
using rocksdb::IODebugContext;
using rocksdb::IOOptions;
using rocksdb::IOStatus;
using rocksdb::Slice;

IOStatus NoPower(const std::string& path) {
  return IOStatus::IOError(path, "simulated power loss");
}

class PowerLossFile : public rocksdb::FSWritableFileOwnerWrapper {
 public:
  PowerLossFile(std::string path, std::unique_ptr<FSWritableFile> target,
                SyncedFiles* files)
      : FSWritableFileOwnerWrapper(std::move(target)),
        path_(std::move(path)),
        files_(files) {}

  IOStatus Append(const Slice& data, const IOOptions& options,
                  IODebugContext* dbg) override {
    if (!files_->PowerForAppend(path_)) return NoPower(path_);
    IOStatus s = target()->Append(data, options, dbg);
    if (s.ok()) files_->Appended(path_, data.size());
    return s;
  }
  IOStatus Append(const Slice& data, const IOOptions& options,
                  const rocksdb::DataVerificationInfo& info,
                  IODebugContext* dbg) override {
    if (!files_->PowerForAppend(path_)) return NoPower(path_);
    IOStatus s = target()->Append(data, options, info, dbg);
    if (s.ok()) files_->Appended(path_, data.size());
    return s;
  }
  // Direct writes, which the crash tests do not turn on: refused rather than
  // tracked wrongly.
  IOStatus PositionedAppend(const Slice&, uint64_t, const IOOptions&,
                            IODebugContext*) override {
    return IOStatus::NotSupported("PositionedAppend");
  }
  IOStatus PositionedAppend(const Slice&, uint64_t, const IOOptions&,
                            const rocksdb::DataVerificationInfo&,
                            IODebugContext*) override {
    return IOStatus::NotSupported("PositionedAppend");
  }
  IOStatus Truncate(uint64_t size, const IOOptions& options,
                    IODebugContext* dbg) override {
    if (!files_->powered()) return NoPower(path_);
    IOStatus s = target()->Truncate(size, options, dbg);
    if (s.ok()) files_->Truncated(path_, size);
    return s;
  }
  IOStatus Flush(const IOOptions& options, IODebugContext* dbg) override {
    if (!files_->powered()) return NoPower(path_);
    return target()->Flush(options, dbg);
  }
  IOStatus Sync(const IOOptions& options, IODebugContext* dbg) override {
    return SyncWith(&FSWritableFile::Sync, options, dbg);
  }
  IOStatus Fsync(const IOOptions& options, IODebugContext* dbg) override {
    return SyncWith(&FSWritableFile::Fsync, options, dbg);
  }
  // sync_file_range writes data back but makes nothing durable.
  IOStatus RangeSync(uint64_t offset, uint64_t nbytes, const IOOptions& options,
                     IODebugContext* dbg) override {
    if (!files_->powered()) return NoPower(path_);
    return target()->RangeSync(offset, nbytes, options, dbg);
  }

 private:
  using SyncFunction = IOStatus (FSWritableFile::*)(const IOOptions&,
                                                    IODebugContext*);
  IOStatus SyncWith(SyncFunction sync, const IOOptions& options,
                    IODebugContext* dbg) {
    if (!files_->PowerForSync(path_)) return NoPower(path_);
    const uint64_t length = files_->Size(path_);
    IOStatus s = (target()->*sync)(options, dbg);
    if (s.ok()) files_->Synced(path_, length);
    return s;
  }

  const std::string path_;
  SyncedFiles* files_;
};

class PowerLossDirectory : public rocksdb::FSDirectoryWrapper {
 public:
  PowerLossDirectory(std::string path, std::unique_ptr<FSDirectory> target,
                     SyncedFiles* files)
      : FSDirectoryWrapper(std::move(target)),
        path_(std::move(path)),
        files_(files) {}

  IOStatus Fsync(const IOOptions& options, IODebugContext* dbg) override {
    if (!files_->PowerForDirectorySync(path_)) return NoPower(path_);
    IOStatus s = FSDirectoryWrapper::Fsync(options, dbg);
    if (s.ok()) files_->DirectorySynced(path_);
    return s;
  }
  IOStatus FsyncWithDirOptions(
      const IOOptions& options, IODebugContext* dbg,
      const rocksdb::DirFsyncOptions& dir_options) override {
    if (!files_->PowerForDirectorySync(path_)) return NoPower(path_);
    IOStatus s =
        FSDirectoryWrapper::FsyncWithDirOptions(options, dbg, dir_options);
    if (s.ok()) files_->DirectorySynced(path_);
    return s;
  }

 private:
  const std::string path_;
  SyncedFiles* files_;
};

class PowerLossFileSystem : public rocksdb::FileSystemWrapper {
 public:
  explicit PowerLossFileSystem(SyncedFiles* files)
      : FileSystemWrapper(rocksdb::FileSystem::Default()), files_(files) {}

  const char* Name() const override { return "PowerLossFileSystem"; }

  IOStatus NewWritableFile(const std::string& path, const FileOptions& options,
                           std::unique_ptr<FSWritableFile>* result,
                           IODebugContext* dbg) override {
    return Open(path, /*append=*/false, options, result, dbg);
  }
  IOStatus ReopenWritableFile(const std::string& path,
                              const FileOptions& options,
                              std::unique_ptr<FSWritableFile>* result,
                              IODebugContext* dbg) override {
    return Open(path, /*append=*/true, options, result, dbg);
  }
  // Recycled logs (recycle_log_file_num), which the tests do not turn on.
  IOStatus ReuseWritableFile(const std::string&, const std::string&,
                             const FileOptions&,
                             std::unique_ptr<FSWritableFile>*,
                             IODebugContext*) override {
    return IOStatus::NotSupported("ReuseWritableFile");
  }
  IOStatus NewDirectory(const std::string& path, const IOOptions& options,
                        std::unique_ptr<FSDirectory>* result,
                        IODebugContext* dbg) override {
    std::unique_ptr<FSDirectory> dir;
    IOStatus s = target()->NewDirectory(path, options, &dir, dbg);
    if (!s.ok()) return s;
    *result =
        std::make_unique<PowerLossDirectory>(path, std::move(dir), files_);
    return s;
  }
  IOStatus RenameFile(const std::string& from, const std::string& to,
                      const IOOptions& options, IODebugContext* dbg) override {
    if (!files_->PowerForRename(to)) return NoPower(from);
    IOStatus s = target()->RenameFile(from, to, options, dbg);
    if (s.ok()) files_->Renamed(from, to);
    return s;
  }
  IOStatus DeleteFile(const std::string& path, const IOOptions& options,
                      IODebugContext* dbg) override {
    if (!files_->powered()) return NoPower(path);
    IOStatus s = target()->DeleteFile(path, options, dbg);
    if (s.ok()) files_->Removed(path);
    return s;
  }
  // Hard links (checkpoints, ingestion), which the tests do not make.
  IOStatus LinkFile(const std::string&, const std::string&, const IOOptions&,
                    IODebugContext*) override {
    return IOStatus::NotSupported("LinkFile");
  }

 private:
  IOStatus Open(const std::string& path, bool append,
                const FileOptions& options,
                std::unique_ptr<FSWritableFile>* result, IODebugContext* dbg) {
    if (!files_->powered()) return NoPower(path);
    const bool existed =
        target()->FileExists(path, options.io_options, dbg).ok();
    uint64_t size = 0;
    if (append && existed) {
      IOStatus s = target()->GetFileSize(path, options.io_options, &size, dbg);
      if (!s.ok()) return s;
    }
    std::unique_ptr<FSWritableFile> file;
    IOStatus s = append
                     ? target()->ReopenWritableFile(path, options, &file, dbg)
                     : target()->NewWritableFile(path, options, &file, dbg);
    if (!s.ok()) return s;
    files_->Opened(path, existed, size);
    *result = std::make_unique<PowerLossFile>(path, std::move(file), files_);
    return s;
  }

  SyncedFiles* files_;
};

}  // namespace

std::unique_ptr<rocksdb::Env> NewRocksDbPowerLossEnv(SyncedFiles* files) {
  return rocksdb::NewCompositeEnv(std::make_shared<PowerLossFileSystem>(files));
}

}  // namespace test
}  // namespace sstfilter
