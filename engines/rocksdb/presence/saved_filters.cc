#include "engines/rocksdb/presence/saved_filters.h"

#include <memory>

#include "absl/strings/str_cat.h"
#include "rocksdb/env.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace sstfilter {
namespace presence_internal {
namespace {

constexpr absl::string_view kMagic = "SSTFPRS1";
constexpr size_t kChecksumBytes = 4;

absl::Status Lost(absl::string_view what) {
  return absl::DataLossError(absl::StrCat("saved presence filters: ", what));
}

void PutLengthPrefixed(std::string* dst, absl::string_view bytes) {
  PutVarint64(dst, bytes.size());
  dst->append(bytes.data(), bytes.size());
}

bool GetLengthPrefixed(absl::string_view* input, absl::string_view* bytes) {
  uint64_t length = 0;
  if (!GetVarint64(input, &length) || length > input->size()) return false;
  *bytes = input->substr(0, length);
  input->remove_prefix(length);
  return true;
}

bool GetFixed32(absl::string_view* input, uint32_t* value) {
  if (input->size() < 4) return false;
  *value = DecodeFixed32(input->data());
  input->remove_prefix(4);
  return true;
}

bool GetFixed64(absl::string_view* input, uint64_t* value) {
  if (input->size() < 8) return false;
  *value = DecodeFixed64(input->data());
  input->remove_prefix(8);
  return true;
}

absl::Status FromRocksDb(const rocksdb::Status& status,
                         absl::string_view context) {
  if (status.ok()) return absl::OkStatus();
  const std::string message = absl::StrCat(context, ": ", status.ToString());
  return status.IsNotFound() ? absl::NotFoundError(message)
                             : absl::UnavailableError(message);
}

}  // namespace

std::string EncodeColumnFamilyRecord(const SavedColumnFamily& record) {
  std::string out;
  PutFixed32(&out, record.id);
  PutLengthPrefixed(&out, record.name);
  PutFixed64(&out, record.latest_sequence);
  PutVarint64(&out, record.tables.size());
  for (const SavedTable& table : record.tables) {
    PutVarint64(&out, table.file_number);
    PutVarint64(&out, table.file_size);
  }
  PutLengthPrefixed(&out, record.filter);
  return out;
}

absl::StatusOr<SavedColumnFamily> DecodeColumnFamilyRecord(
    absl::string_view bytes) {
  SavedColumnFamily record;
  absl::string_view name;
  uint64_t table_count = 0;
  if (!GetFixed32(&bytes, &record.id) || !GetLengthPrefixed(&bytes, &name) ||
      !GetFixed64(&bytes, &record.latest_sequence) ||
      !GetVarint64(&bytes, &table_count)) {
    return Lost("a column family's record is truncated");
  }
  record.name = std::string(name);
  // Each table takes at least two bytes: a count past that is damage, and
  // must not size an allocation.
  if (table_count > bytes.size() / 2) {
    return Lost(absl::StrCat("column family ", record.name, " lists ",
                             table_count, " tables in ", bytes.size(),
                             " bytes"));
  }
  record.tables.resize(table_count);
  for (SavedTable& table : record.tables) {
    if (!GetVarint64(&bytes, &table.file_number) ||
        !GetVarint64(&bytes, &table.file_size)) {
      return Lost(absl::StrCat("column family ", record.name,
                               ": its table list is truncated"));
    }
  }
  absl::string_view filter;
  if (!GetLengthPrefixed(&bytes, &filter) || !bytes.empty()) {
    return Lost(absl::StrCat("column family ", record.name,
                             ": its filter's length does not match"));
  }
  record.filter = std::string(filter);
  return record;
}

std::string EncodeSavedFilters(const SavedFilters& saved) {
  std::string out(kMagic);
  PutVarint32(&out, static_cast<uint32_t>(saved.db_identity.size()));
  out.append(saved.db_identity);
  PutVarint32(&out, static_cast<uint32_t>(saved.records.size()));
  for (const std::string& record : saved.records) {
    PutLengthPrefixed(&out, record);
  }
  PutFixed32(&out, crc32c::Mask(crc32c::Value(out.data(), out.size())));
  return out;
}

absl::StatusOr<SavedFilters> DecodeSavedFilters(absl::string_view bytes) {
  if (bytes.size() < kMagic.size() + kChecksumBytes) {
    return Lost(absl::StrCat("the file has only ", bytes.size(), " bytes"));
  }
  if (bytes.substr(0, kMagic.size()) != kMagic) {
    return Lost("the file does not start with the magic SSTFPRS1");
  }
  const size_t body_size = bytes.size() - kChecksumBytes;
  const uint32_t stored =
      crc32c::Unmask(DecodeFixed32(bytes.data() + body_size));
  if (stored != crc32c::Value(bytes.data(), body_size)) {
    return Lost("CRC32C mismatch: the file is damaged or torn");
  }
  absl::string_view body =
      bytes.substr(kMagic.size(), body_size - kMagic.size());
  SavedFilters saved;
  uint32_t identity_size = 0;
  if (!GetVarint32(&body, &identity_size) || identity_size > body.size()) {
    return Lost("the database identity is truncated");
  }
  saved.db_identity = std::string(body.substr(0, identity_size));
  body.remove_prefix(identity_size);
  uint32_t record_count = 0;
  if (!GetVarint32(&body, &record_count) || record_count > body.size()) {
    return Lost("the record count is truncated or too large");
  }
  for (uint32_t i = 0; i < record_count; ++i) {
    absl::string_view record;
    if (!GetLengthPrefixed(&body, &record)) {
      return Lost(absl::StrCat("record ", i, " is truncated"));
    }
    saved.records.emplace_back(record);
  }
  if (!body.empty()) return Lost("bytes follow the last record");
  return saved;
}

absl::Status WriteFileAtomically(rocksdb::Env* env, const std::string& path,
                                 absl::string_view bytes) {
  const std::string temporary = path + ".tmp";
  std::unique_ptr<rocksdb::WritableFile> file;
  rocksdb::Status status =
      env->NewWritableFile(temporary, &file, rocksdb::EnvOptions());
  if (status.ok())
    status = file->Append(rocksdb::Slice(bytes.data(), bytes.size()));
  if (status.ok()) status = file->Sync();
  if (status.ok()) status = file->Close();
  if (!status.ok()) return FromRocksDb(status, "writing " + temporary);
  status = env->RenameFile(temporary, path);
  if (!status.ok()) return FromRocksDb(status, "renaming " + temporary);
  const std::string directory = path.substr(0, path.find_last_of('/'));
  std::unique_ptr<rocksdb::Directory> dir;
  status = env->NewDirectory(directory.empty() ? "/" : directory, &dir);
  if (status.ok()) status = dir->Fsync();
  return FromRocksDb(status, "syncing " + directory);
}

absl::StatusOr<std::string> ReadWholeFile(rocksdb::Env* env,
                                          const std::string& path) {
  rocksdb::Status exists = env->FileExists(path);
  if (exists.IsNotFound()) return absl::NotFoundError(path + " does not exist");
  std::string bytes;
  absl::Status status = FromRocksDb(
      rocksdb::ReadFileToString(env, path, &bytes), "reading " + path);
  if (!status.ok()) return status;
  return bytes;
}

}  // namespace presence_internal
}  // namespace sstfilter
