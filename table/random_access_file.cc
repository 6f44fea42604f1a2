#include "table/random_access_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_format.h"

namespace sstfilter {
namespace {

absl::Status ErrnoStatus(const std::string& path, const char* op, int err) {
  const std::string message =
      absl::StrFormat("%s: %s failed: %s", path, op, std::strerror(err));
  if (err == ENOENT) return absl::NotFoundError(message);
  if (err == EACCES || err == EPERM)
    return absl::PermissionDeniedError(message);
  return absl::InternalError(message);
}

absl::Status ShortRead(uint64_t offset, size_t n, uint64_t size) {
  return absl::DataLossError(absl::StrFormat(
      "read of %d bytes at offset %d passes the end of the file (%d bytes)", n,
      offset, size));
}

class PosixFile final : public RandomAccessFile {
 public:
  PosixFile(std::string path, int fd, uint64_t size)
      : path_(std::move(path)), fd_(fd), size_(size) {}
  ~PosixFile() override { close(fd_); }

  uint64_t Size() const override { return size_; }

  absl::StatusOr<absl::string_view> Read(uint64_t offset, size_t n,
                                         char* scratch) const override {
    if (offset > size_ || n > size_ - offset)
      return ShortRead(offset, n, size_);
    size_t done = 0;
    while (done < n) {
      const ssize_t got = pread(fd_, scratch + done, n - done,
                                static_cast<off_t>(offset + done));
      if (got < 0) {
        if (errno == EINTR) continue;
        return ErrnoStatus(path_, "pread", errno);
      }
      if (got == 0) return ShortRead(offset, n, offset + done);
      done += static_cast<size_t>(got);
    }
    return absl::string_view(scratch, n);
  }

 private:
  const std::string path_;
  const int fd_;
  const uint64_t size_;
};

class StringFile final : public RandomAccessFile {
 public:
  explicit StringFile(absl::string_view contents) : contents_(contents) {}

  uint64_t Size() const override { return contents_.size(); }

  absl::StatusOr<absl::string_view> Read(uint64_t offset, size_t n,
                                         char* scratch) const override {
    if (offset > contents_.size() || n > contents_.size() - offset) {
      return ShortRead(offset, n, contents_.size());
    }
    std::memcpy(scratch, contents_.data() + offset, n);
    return absl::string_view(scratch, n);
  }

 private:
  const absl::string_view contents_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<RandomAccessFile>> OpenRandomAccessFile(
    const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus(path, "open", errno);
  struct stat st;
  if (fstat(fd, &st) != 0) {
    const int err = errno;
    close(fd);
    return ErrnoStatus(path, "fstat", err);
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return absl::FailedPreconditionError(
        absl::StrFormat("%s: not a regular file%s", path,
                        S_ISDIR(st.st_mode) ? " (a directory)" : ""));
  }
  return std::unique_ptr<RandomAccessFile>(
      new PosixFile(path, fd, static_cast<uint64_t>(st.st_size)));
}

std::unique_ptr<RandomAccessFile> NewStringFile(absl::string_view contents) {
  return std::make_unique<StringFile>(contents);
}

}  // namespace sstfilter
