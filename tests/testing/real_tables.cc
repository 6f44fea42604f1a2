#include "tests/testing/real_tables.h"

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
#include "rocksdb/options.h"
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

absl::Status WriteRocksDbTable(const std::string& path,
                               const std::vector<std::string>& keys,
                               const RocksDbTableOptions& options) {
  rocksdb::BlockBasedTableOptions table_options;
  table_options.filter_policy = options.filter_policy;
  table_options.format_version = options.format_version;
  table_options.block_size = options.block_size;
  table_options.checksum = static_cast<rocksdb::ChecksumType>(options.checksum);
  table_options.whole_key_filtering = options.whole_key_filtering;
  rocksdb::Options db_options;
  db_options.table_factory.reset(
      rocksdb::NewBlockBasedTableFactory(table_options));
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), db_options);
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
