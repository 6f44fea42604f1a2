// Writes real table files with the real LevelDB 1.23 and RocksDB 7.8.3, for
// tests that read them back: the stores' own writers are the oracle for every
// byte of the table layer.

#ifndef SSTFILTER_TABLE_TESTING_REAL_TABLES_H_
#define SSTFILTER_TABLE_TESTING_REAL_TABLES_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace leveldb {
class DB;
class FilterPolicy;
struct Options;
class Status;
}  // namespace leveldb
namespace rocksdb {
class FilterPolicy;
class SliceTransform;
}  // namespace rocksdb

namespace sstfilter {
namespace test {

// A fresh directory under TEST_TMPDIR (or /tmp), removed with everything in
// it when the object goes.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// The value these writers store for key: "v" + key.
std::string ValueOf(const std::string& key);

// OK for an ok LevelDB status, else an InternalError "what: <LevelDB's
// message>".
absl::Status FromLevelDb(const leveldb::Status& s, const std::string& what);

// Opens the LevelDB database in dir with options.
absl::StatusOr<std::unique_ptr<leveldb::DB>> OpenLevelDb(
    const leveldb::Options& options, const std::string& dir);

struct LevelDbTableOptions {
  const leveldb::FilterPolicy* filter_policy = nullptr;  // none: no filter
  int block_size = 4096;    // bytes of data per block, before compression
  bool compression = true;  // Snappy, LevelDB's default
};

// Writes keys (sorted, distinct) with leveldb::TableBuilder to path; each
// value is ValueOf(key). The index and filter hold the keys as given (no
// internal-key tag).
absl::Status WriteLevelDbTable(const std::string& path,
                               const std::vector<std::string>& keys,
                               const LevelDbTableOptions& options);

// Opens a LevelDB database in dir with this filter policy, puts every key
// (value ValueOf(key)), compacts everything, closes it, and returns the paths
// of its table files (.ldb).
absl::StatusOr<std::vector<std::string>> WriteLevelDbDatabase(
    const std::string& dir, const std::vector<std::string>& keys,
    const leveldb::FilterPolicy* filter_policy);

// The paths of the table files (.ldb) of the LevelDB database in dir.
std::vector<std::string> LevelDbTableFiles(const std::string& dir);

struct RocksDbTableOptions {
  std::shared_ptr<const rocksdb::FilterPolicy> filter_policy;  // none: none
  int format_version = 5;
  int block_size = 4096;
  int checksum = 4;  // rocksdb::ChecksumType: 7.8.3's default, XXH3
  bool whole_key_filtering = true;
  // Null: the filter holds no prefixes.
  std::shared_ptr<const rocksdb::SliceTransform> prefix_extractor;
  // Partitioned filters (with index_type kTwoLevelIndexSearch, which they
  // need), cut at about metadata_block_size bytes.
  bool partition_filters = false;
  int metadata_block_size = 4096;
  // Above 1, index entries (and a partition index's) share key prefixes, and
  // with format_version >= 4 their values are delta-encoded.
  int index_block_restart_interval = 1;
};

// Writes keys (sorted, distinct) with rocksdb::SstFileWriter to path.
absl::Status WriteRocksDbTable(const std::string& path,
                               const std::vector<std::string>& keys,
                               const RocksDbTableOptions& options);

// Opens a RocksDB database in dir with these table options, puts every key
// (value ValueOf(key)) in batches of keys_per_flush with a flush after each,
// compacts everything into one level (tables of about target_file_bytes),
// closes it, and returns the paths of its table files (.sst).
absl::StatusOr<std::vector<std::string>> WriteRocksDbDatabase(
    const std::string& dir, const std::vector<std::string>& keys,
    const RocksDbTableOptions& options, size_t keys_per_flush,
    uint64_t target_file_bytes);

// The whole file as bytes, and back.
absl::StatusOr<std::string> ReadFileBytes(const std::string& path);
absl::Status WriteFileBytes(const std::string& path, const std::string& bytes);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_TESTING_REAL_TABLES_H_
