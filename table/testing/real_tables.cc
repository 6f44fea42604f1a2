#include "table/testing/real_tables.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/options.h"
#include "leveldb/table_builder.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table.h"

namespace sstfilter {
namespace test {
namespace {

absl::Status FromRocksDb(const rocksdb::Status& s, const char* what) {
  if (s.ok()) return absl::OkStatus();
  return absl::InternalError(absl::StrCat(what, ": ", s.ToString()));
}

}  // namespace

std::string ValueOf(const std::string& key) { return "v" + key; }

absl::Status FromLevelDb(const leveldb::Status& s, const std::string& what) {
  if (s.ok()) return absl::OkStatus();
  return absl::InternalError(absl::StrCat(what, ": ", s.ToString()));
}

absl::StatusOr<std::unique_ptr<leveldb::DB>> OpenLevelDb(
    const leveldb::Options& options, const std::string& dir) {
  leveldb::DB* db = nullptr;
  absl::Status status =
      FromLevelDb(leveldb::DB::Open(options, dir, &db), "DB::Open");
  if (!status.ok()) return status;
  return std::unique_ptr<leveldb::DB>(db);
}

TempDir::TempDir() {
  const char* base = std::getenv("TEST_TMPDIR");
  std::string pattern =
      absl::StrCat(base != nullptr ? base : "/tmp", "/sstfilter-XXXXXX");
  if (mkdtemp(pattern.data()) == nullptr) std::abort();
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

absl::Status WriteLevelDbTable(const std::string& path,
                               const std::vector<std::string>& keys,
                               const LevelDbTableOptions& options) {
  leveldb::Options db_options;
  db_options.filter_policy = options.filter_policy;
  db_options.block_size = options.block_size;
  db_options.compression = options.compression ? leveldb::kSnappyCompression
                                               : leveldb::kNoCompression;
  leveldb::WritableFile* file = nullptr;
  absl::Status status = FromLevelDb(
      leveldb::Env::Default()->NewWritableFile(path, &file), "create table");
  if (!status.ok()) return status;
  std::unique_ptr<leveldb::WritableFile> owned(file);
  leveldb::TableBuilder builder(db_options, file);
  for (const std::string& key : keys) builder.Add(key, ValueOf(key));
  status = FromLevelDb(builder.Finish(), "TableBuilder::Finish");
  if (status.ok()) status = FromLevelDb(file->Close(), "close table");
  return status;
}

absl::StatusOr<std::vector<std::string>> WriteLevelDbDatabase(
    const std::string& dir, const std::vector<std::string>& keys,
    const leveldb::FilterPolicy* filter_policy) {
  leveldb::Options options;
  options.create_if_missing = true;
  options.filter_policy = filter_policy;
  absl::StatusOr<std::unique_ptr<leveldb::DB>> db = OpenLevelDb(options, dir);
  if (!db.ok()) return db.status();
  for (const std::string& key : keys) {
    const absl::Status status = FromLevelDb(
        (*db)->Put(leveldb::WriteOptions(), key, ValueOf(key)), "DB::Put");
    if (!status.ok()) return status;
  }
  (*db)->CompactRange(nullptr, nullptr);
  db->reset();
  return LevelDbTableFiles(dir);
}

std::vector<std::string> LevelDbTableFiles(const std::string& dir) {
  std::vector<std::string> tables;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".ldb") tables.push_back(entry.path());
  }
  return tables;
}

namespace {

rocksdb::Options RocksDbOptionsFor(const RocksDbTableOptions& options) {
  rocksdb::BlockBasedTableOptions table_options;
  table_options.filter_policy = options.filter_policy;
  table_options.format_version = options.format_version;
  table_options.block_size = options.block_size;
  table_options.checksum = static_cast<rocksdb::ChecksumType>(options.checksum);
  table_options.whole_key_filtering = options.whole_key_filtering;
  table_options.index_block_restart_interval =
      options.index_block_restart_interval;
  if (options.partition_filters) {
    table_options.partition_filters = true;
    table_options.index_type =
        rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
    table_options.metadata_block_size = options.metadata_block_size;
  }
  rocksdb::Options db_options;
  db_options.table_factory.reset(
      rocksdb::NewBlockBasedTableFactory(table_options));
  // RocksDB takes a shared_ptr to a mutable transform; it never changes one.
  db_options.prefix_extractor =
      std::const_pointer_cast<rocksdb::SliceTransform>(
          options.prefix_extractor);
  return db_options;
}

}  // namespace

absl::StatusOr<std::vector<std::string>> WriteRocksDbDatabase(
    const std::string& dir, const std::vector<std::string>& keys,
    const RocksDbTableOptions& options, size_t keys_per_flush,
    uint64_t target_file_bytes) {
  rocksdb::Options db_options = RocksDbOptionsFor(options);
  db_options.create_if_missing = true;
  db_options.target_file_size_base = target_file_bytes;
  db_options.disable_auto_compactions = true;
  rocksdb::DB* raw = nullptr;
  absl::Status status =
      FromRocksDb(rocksdb::DB::Open(db_options, dir, &raw), "DB::Open");
  if (!status.ok()) return status;
  std::unique_ptr<rocksdb::DB> db(raw);
  rocksdb::WriteOptions write;
  write.disableWAL = true;
  for (size_t i = 0; status.ok() && i < keys.size(); ++i) {
    status = FromRocksDb(db->Put(write, keys[i], ValueOf(keys[i])), "Put");
    if (status.ok() &&
        ((i + 1) % keys_per_flush == 0 || i + 1 == keys.size())) {
      status = FromRocksDb(db->Flush(rocksdb::FlushOptions()), "Flush");
    }
  }
  if (status.ok()) {
    rocksdb::CompactRangeOptions compact;
    compact.bottommost_level_compaction =
        rocksdb::BottommostLevelCompaction::kForce;
    status = FromRocksDb(db->CompactRange(compact, nullptr, nullptr),
                         "CompactRange");
  }
  if (status.ok()) status = FromRocksDb(db->Close(), "Close");
  if (!status.ok()) return status;
  std::vector<std::string> tables;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".sst") tables.push_back(entry.path());
  }
  return tables;
}

absl::Status WriteRocksDbTable(const std::string& path,
                               const std::vector<std::string>& keys,
                               const RocksDbTableOptions& options) {
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(),
                                RocksDbOptionsFor(options));
  absl::Status status = FromRocksDb(writer.Open(path), "SstFileWriter::Open");
  for (size_t i = 0; status.ok() && i < keys.size(); ++i) {
    status = FromRocksDb(writer.Put(keys[i], ValueOf(keys[i])),
                         "SstFileWriter::Put");
  }
  if (status.ok()) {
    status = FromRocksDb(writer.Finish(), "SstFileWriter::Finish");
  }
  return status;
}

absl::StatusOr<std::string> ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", path));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

absl::Status WriteFileBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return absl::InternalError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

}  // namespace test
}  // namespace sstfilter
