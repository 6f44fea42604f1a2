#include "tests/crash/leveldb_power_loss_env.h"

#include <memory>

#include "absl/strings/match.h"

namespace sstfilter {
namespace test {
namespace {

leveldb::Status NoPower(const std::string& path) {
  return leveldb::Status::IOError(path, "simulated power loss");
}

class PowerLossFile : public leveldb::WritableFile {
 public:
  PowerLossFile(std::string path, std::unique_ptr<leveldb::WritableFile> target,
                SyncedFiles* files)
      : path_(std::move(path)), target_(std::move(target)), files_(files) {}

  leveldb::Status Append(const leveldb::Slice& data) override {
    if (!files_->PowerForAppend(path_)) return NoPower(path_);
    leveldb::Status s = target_->Append(data);
    if (s.ok()) files_->Appended(path_, data.size());
    return s;
  }

  // Closing flushes LevelDB's buffer to the operating system, which is not
  // a sync: allowed without power, and cut back by DropUnsynced.
  leveldb::Status Close() override { return target_->Close(); }

  leveldb::Status Flush() override {
    if (!files_->powered()) return NoPower(path_);
    return target_->Flush();
  }

  leveldb::Status Sync() override {
    if (!files_->powered()) return NoPower(path_);
    const uint64_t length = files_->Size(path_);
    leveldb::Status s = target_->Sync();
    if (!s.ok()) return s;
    files_->Synced(path_, length);
    // LevelDB's POSIX env syncs the directory along with a MANIFEST file
    // (the one place LevelDB 1.23 does), making the names in it durable.
    const size_t slash = path_.rfind('/');
    const std::string base =
        slash == std::string::npos ? path_ : path_.substr(slash + 1);
    if (absl::StartsWith(base, "MANIFEST")) {
      files_->DirectorySynced(
          slash == std::string::npos ? "." : path_.substr(0, slash));
    }
    return s;
  }

 private:
  const std::string path_;
  std::unique_ptr<leveldb::WritableFile> target_;
  SyncedFiles* files_;
};

}  // namespace

LevelDbPowerLossEnv::LevelDbPowerLossEnv(SyncedFiles* files)
    : leveldb::EnvWrapper(leveldb::Env::Default()), files_(files) {}

leveldb::Status LevelDbPowerLossEnv::Open(const std::string& path, bool append,
                                          leveldb::WritableFile** result) {
  if (!files_->powered()) return NoPower(path);
  const bool existed = target()->FileExists(path);
  uint64_t size = 0;
  if (append && existed) {
    leveldb::Status s = target()->GetFileSize(path, &size);
    if (!s.ok()) return s;
  }
  leveldb::WritableFile* file = nullptr;
  leveldb::Status s = append ? target()->NewAppendableFile(path, &file)
                             : target()->NewWritableFile(path, &file);
  if (!s.ok()) return s;
  files_->Opened(path, existed, size);
  *result = new PowerLossFile(
      path, std::unique_ptr<leveldb::WritableFile>(file), files_);
  return s;
}

leveldb::Status LevelDbPowerLossEnv::NewWritableFile(
    const std::string& path, leveldb::WritableFile** result) {
  return Open(path, /*append=*/false, result);
}

leveldb::Status LevelDbPowerLossEnv::NewAppendableFile(
    const std::string& path, leveldb::WritableFile** result) {
  return Open(path, /*append=*/true, result);
}

leveldb::Status LevelDbPowerLossEnv::RenameFile(const std::string& from,
                                                const std::string& to) {
  if (!files_->powered()) return NoPower(from);
  leveldb::Status s = target()->RenameFile(from, to);
  if (s.ok()) files_->Renamed(from, to);
  return s;
}

leveldb::Status LevelDbPowerLossEnv::RemoveFile(const std::string& path) {
  if (!files_->powered()) return NoPower(path);
  leveldb::Status s = target()->RemoveFile(path);
  if (s.ok()) files_->Removed(path);
  return s;
}

}  // namespace test
}  // namespace sstfilter
