// Positioned reads from a table file, counted: the table reader reports how
// many reads and bytes answering a question cost.

#ifndef SSTFILTER_TABLE_RANDOM_ACCESS_FILE_H_
#define SSTFILTER_TABLE_RANDOM_ACCESS_FILE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sstfilter {

// A file read at offsets. Implementations are safe for concurrent reads.
class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;

  virtual uint64_t Size() const = 0;

  // Reads n bytes at offset into scratch and returns a view of them.
  // DataLossError when the file ends before offset + n (a truncated file),
  // another error when the read fails.
  // REQUIRES: scratch has room for n bytes.
  virtual absl::StatusOr<absl::string_view> Read(uint64_t offset, size_t n,
                                                 char* scratch) const = 0;
};

// Opens a regular file with pread. NotFoundError for a missing file,
// FailedPreconditionError for a directory or another non-regular file, the
// OS error otherwise; each message names the path.
absl::StatusOr<std::unique_ptr<RandomAccessFile>> OpenRandomAccessFile(
    const std::string& path);

// A file held in memory (tests, fuzzing, callers that already hold a table).
// REQUIRES: contents outlive the file.
std::unique_ptr<RandomAccessFile> NewStringFile(absl::string_view contents);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_RANDOM_ACCESS_FILE_H_
