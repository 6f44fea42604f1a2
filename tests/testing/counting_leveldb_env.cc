#include "tests/testing/counting_leveldb_env.h"

#include <memory>
#include <utility>

#include "absl/strings/match.h"

namespace sstfilter {
namespace test {
namespace {

class CountingFile : public leveldb::RandomAccessFile {
 public:
  CountingFile(std::unique_ptr<leveldb::RandomAccessFile> file,
               std::atomic<int64_t>* reads)
      : file_(std::move(file)), reads_(reads) {}

  leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result,
                       char* scratch) const override {
    reads_->fetch_add(1, std::memory_order_relaxed);
    return file_->Read(offset, n, result, scratch);
  }

 private:
  const std::unique_ptr<leveldb::RandomAccessFile> file_;
  std::atomic<int64_t>* const reads_;
};

bool IsTableFile(const std::string& name) {
  return absl::EndsWith(name, ".ldb") || absl::EndsWith(name, ".sst");
}

}  // namespace

CountingLevelDbEnv::CountingLevelDbEnv()
    : leveldb::EnvWrapper(leveldb::Env::Default()) {}

leveldb::Status CountingLevelDbEnv::NewRandomAccessFile(
    const std::string& name, leveldb::RandomAccessFile** result) {
  leveldb::Status s = target()->NewRandomAccessFile(name, result);
  if (s.ok() && IsTableFile(name)) {
    *result = new CountingFile(
        std::unique_ptr<leveldb::RandomAccessFile>(*result), &table_reads_);
  }
  return s;
}

}  // namespace test
}  // namespace sstfilter
