// PresenceFilteredDB driven by operations decoded from bytes, with RocksDB
// itself as the oracle: each lookup through the wrapper is compared with the
// base database's answer for the same key at the same moment, and every key
// of every column family after each reopening. The differential test feeds
// it random bytes; its fuzz target feeds it libFuzzer's. The operations it
// covers: README.md ("differential_run.h").

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_DIFFERENTIAL_RUN_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_DIFFERENTIAL_RUN_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"

namespace sstfilter {
namespace presence_testing {

// The bytes an operation sequence is read from; zeros once they run out, so
// that every byte string decodes.
class OperationBytes {
 public:
  explicit OperationBytes(absl::string_view bytes) : bytes_(bytes) {}
  bool done() const { return position_ >= bytes_.size(); }
  uint8_t Next() {
    return done() ? 0 : static_cast<uint8_t>(bytes_[position_++]);
  }
  // A number below n (n >= 1).
  size_t Below(size_t n) { return Next() % n; }

 private:
  absl::string_view bytes_;
  size_t position_ = 0;
};

struct DifferentialOptions {
  // Where every file goes; a memory Env makes the fuzz target fast.
  rocksdb::Env* env = rocksdb::Env::Default();
  // An empty directory for the databases, ingestion files, crash images and
  // checkpoints.
  std::string directory;
  // The operations that take milliseconds (reopening, checkpoints, imports,
  // waiting for rebuilds) run on one request in this many; 1: on every one.
  int costly_every = 1;
  // Flushes, compactions, DeleteFilesInRange, ingestions, column family
  // creations and drops, saves and prefix extractor changes (a fraction of a
  // millisecond each) likewise.
  int maintenance_every = 1;
  // Seeks (or prefix extractor changes) an iterate operation makes, each
  // compared with RocksDB through three iterators.
  int seeks_per_iterate = 4;
};

class DifferentialRun {
 public:
  static absl::StatusOr<std::unique_ptr<DifferentialRun>> Open(
      const DifferentialOptions& options);
  ~DifferentialRun();

  // Applies up to max_operations operations decoded from bytes. The first
  // answer of the wrapper that differs from RocksDB's is returned as an
  // InternalError naming it and the operations before it; an operation the
  // harness itself could not carry out (a reopening that failed) likewise.
  absl::Status Apply(OperationBytes* bytes, size_t max_operations);
  // Compares the answers for every key of every column family.
  absl::Status CheckAllKeys();

  // How many operations of each outcome ran, for the test's coverage checks.
  struct Counts {
    uint64_t operations = 0;
    uint64_t lookups_compared = 0;
    uint64_t ruled_out = 0;  // lookups the wrapper answered NotFound
    uint64_t seeks_compared = 0;
    uint64_t seeks_answered = 0;  // by the filters, without RocksDB
    uint64_t reopenings = 0;
    uint64_t rebuilds_waited = 0;
  };
  const Counts& counts() const;

  class Impl;

 private:
  explicit DifferentialRun(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace presence_testing
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_DIFFERENTIAL_RUN_H_
