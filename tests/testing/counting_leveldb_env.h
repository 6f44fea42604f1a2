// A leveldb::Env that counts the reads LevelDB makes of table files: with a
// table's index and filter held by the open table (LevelDB's table cache) and
// no block cache, each read is one data block a lookup needed, so the count
// shows how many lookups a filter let through.

#ifndef SSTFILTER_TESTS_TESTING_COUNTING_LEVELDB_ENV_H_
#define SSTFILTER_TESTS_TESTING_COUNTING_LEVELDB_ENV_H_

#include <atomic>
#include <cstdint>
#include <string>

#include "leveldb/env.h"

namespace sstfilter {
namespace test {

// Forwards everything to Env::Default(). Counts RandomAccessFile::Read calls
// on files named *.ldb or *.sst (LevelDB 1.23 writes .ldb and still opens the
// .sst of older versions), from any thread; the log and manifest are read
// through other file kinds and never count.
//
// REQUIRES: the env outlives every DB opened with it, and the files it opened.
class CountingLevelDbEnv : public leveldb::EnvWrapper {
 public:
  CountingLevelDbEnv();

  leveldb::Status NewRandomAccessFile(
      const std::string& name, leveldb::RandomAccessFile** result) override;

  // Table-file reads since construction or the last ResetTableReads.
  int64_t table_reads() const {
    return table_reads_.load(std::memory_order_relaxed);
  }
  void ResetTableReads() { table_reads_.store(0, std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> table_reads_{0};
};

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_TESTING_COUNTING_LEVELDB_ENV_H_
