#include "tests/crash/leveldb_table_writes_env.h"

#include <cstdarg>
#include <cstring>
#include <memory>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"

namespace sstfilter {
namespace test {
namespace {

// The line LevelDB 1.23 logs (DBImpl::WriteLevel0Table) just before it
// creates a flush's table; its one argument is the table's number.
constexpr char kFlushStartedFormat[] = "Level-0 table #%llu: started";
// The suffix of the tables LevelDB 1.23 writes.
constexpr absl::string_view kTableSuffix = ".ldb";

// Sets *number to the table number of path, "<dir>/<number>.ldb"; false
// for any other file.
bool TableNumber(absl::string_view path, uint64_t* number) {
  if (!absl::ConsumeSuffix(&path, kTableSuffix)) return false;
  const size_t slash = path.rfind('/');
  if (slash != absl::string_view::npos) path.remove_prefix(slash + 1);
  return absl::SimpleAtoi(path, number);
}

class AnnouncingLogger : public leveldb::Logger {
 public:
  AnnouncingLogger(std::unique_ptr<leveldb::Logger> target,
                   LevelDbTableWritesEnv* env)
      : target_(std::move(target)), env_(env) {}

  void Logv(const char* format, std::va_list ap) override {
    if (std::strcmp(format, kFlushStartedFormat) == 0) {
      std::va_list args;
      va_copy(args, ap);
      env_->FlushAnnounced(va_arg(args, unsigned long long));
      va_end(args);
    }
    target_->Logv(format, ap);
  }

 private:
  std::unique_ptr<leveldb::Logger> target_;
  LevelDbTableWritesEnv* const env_;
};

// A table file open for writing: its window ends at Close or deletion.
class TableFile : public leveldb::WritableFile {
 public:
  TableFile(std::unique_ptr<leveldb::WritableFile> target,
            BackgroundWorkListener* listener, BackgroundKind kind,
            uint64_t number)
      : target_(std::move(target)),
        listener_(listener),
        kind_(kind),
        number_(number) {
    listener_->Began(kind_, number_, /*cause=*/"");
  }
  ~TableFile() override { End(); }

  leveldb::Status Append(const leveldb::Slice& data) override {
    return target_->Append(data);
  }
  leveldb::Status Close() override {
    leveldb::Status s = target_->Close();
    End();
    return s;
  }
  leveldb::Status Flush() override { return target_->Flush(); }
  // As long as a disk's, at least (kMinTableSync).
  leveldb::Status Sync() override {
    return SyncTakingAtLeastFloor([&] { return target_->Sync(); });
  }

 private:
  void End() {
    if (ended_) return;
    ended_ = true;
    listener_->Ended(kind_, number_);
  }

  std::unique_ptr<leveldb::WritableFile> target_;
  BackgroundWorkListener* const listener_;
  const BackgroundKind kind_;
  const uint64_t number_;
  bool ended_ = false;
};

}  // namespace

LevelDbTableWritesEnv::LevelDbTableWritesEnv(leveldb::Env* base,
                                             BackgroundWorkListener* listener)
    : leveldb::EnvWrapper(base), listener_(listener) {}

void LevelDbTableWritesEnv::FlushAnnounced(uint64_t number) {
  absl::MutexLock lock(&mu_);
  announced_.insert(number);
}

leveldb::Status LevelDbTableWritesEnv::NewWritableFile(
    const std::string& path, leveldb::WritableFile** result) {
  leveldb::Status s = target()->NewWritableFile(path, result);
  uint64_t number = 0;
  if (!s.ok() || !TableNumber(path, &number)) return s;
  bool flush;
  {
    absl::MutexLock lock(&mu_);
    flush = announced_.erase(number) > 0;
  }
  *result = new TableFile(
      std::unique_ptr<leveldb::WritableFile>(*result), listener_,
      flush ? BackgroundKind::kFlush : BackgroundKind::kCompaction, number);
  return s;
}

leveldb::Status LevelDbTableWritesEnv::NewLogger(const std::string& path,
                                                 leveldb::Logger** result) {
  leveldb::Status s = target()->NewLogger(path, result);
  if (!s.ok()) return s;
  *result =
      new AnnouncingLogger(std::unique_ptr<leveldb::Logger>(*result), this);
  return s;
}

}  // namespace test
}  // namespace sstfilter
