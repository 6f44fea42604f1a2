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
constexpr absl::string_view kChangesMagic = "SSTFPRC2";
// The layout before alphabets: its records end at each column family's
// blocks. Still read, so that a changes file the release before wrote serves
// its first open.
constexpr absl::string_view kChangesMagicWithoutAlphabets = "SSTFPRC1";
// A column family record's optional fields after its filter: a tag byte,
// then the length-prefixed value.
constexpr uint8_t kPrefixExtractorTag = 1;
constexpr uint8_t kAlphabetsTag = 2;
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

void PutTables(std::string* dst, const std::vector<SavedTable>& tables) {
  PutVarint64(dst, tables.size());
  for (const SavedTable& table : tables) {
    PutVarint64(dst, table.file_number);
    PutVarint64(dst, table.file_size);
  }
}

// False when truncated, or when the count cannot fit the bytes left (each
// table takes at least two: a count past that is damage, and must not size
// an allocation).
bool GetTables(absl::string_view* input, std::vector<SavedTable>* tables) {
  uint64_t count = 0;
  if (!GetVarint64(input, &count) || count > input->size() / 2) return false;
  tables->resize(count);
  for (SavedTable& table : *tables) {
    if (!GetVarint64(input, &table.file_number) ||
        !GetVarint64(input, &table.file_size)) {
      return false;
    }
  }
  return true;
}

absl::StatusOr<std::vector<ChangedColumnFamily>> DecodeChangesRecord(
    absl::string_view bytes, bool with_alphabets) {
  uint32_t count = 0;
  if (!GetVarint32(&bytes, &count) || count > bytes.size()) {
    return Lost("a record of changes has a truncated count");
  }
  std::vector<ChangedColumnFamily> record(count);
  for (ChangedColumnFamily& changed : record) {
    absl::string_view blocks, alphabets;
    if (!GetFixed32(&bytes, &changed.id) ||
        !GetFixed64(&bytes, &changed.latest_sequence) ||
        !GetTables(&bytes, &changed.tables) ||
        !GetLengthPrefixed(&bytes, &blocks) ||
        (with_alphabets && !GetLengthPrefixed(&bytes, &alphabets))) {
      return Lost("a record of changes is truncated");
    }
    changed.blocks = std::string(blocks);
    changed.alphabets = std::string(alphabets);
  }
  if (!bytes.empty()) return Lost("bytes follow a record's column families");
  return record;
}

}  // namespace

std::string ChangesFileName(const std::string& saved_file) {
  return saved_file + "-CHANGES";
}

std::string EncodeChangesHeader(absl::string_view full_save) {
  std::string out(kChangesMagic);
  PutFixed64(&out, full_save.size());
  PutFixed32(&out, full_save.size() < kChecksumBytes
                       ? 0
                       : DecodeFixed32(full_save.data() + full_save.size() -
                                       kChecksumBytes));
  return out;
}

std::string EncodeChangesRecord(
    const std::vector<ChangedColumnFamily>& record) {
  std::string bytes;
  PutVarint32(&bytes, static_cast<uint32_t>(record.size()));
  for (const ChangedColumnFamily& changed : record) {
    PutFixed32(&bytes, changed.id);
    PutFixed64(&bytes, changed.latest_sequence);
    PutTables(&bytes, changed.tables);
    PutLengthPrefixed(&bytes, changed.blocks);
    PutLengthPrefixed(&bytes, changed.alphabets);
  }
  std::string out;
  PutLengthPrefixed(&out, bytes);
  PutFixed32(&out, crc32c::Mask(crc32c::Value(bytes.data(), bytes.size())));
  return out;
}

absl::StatusOr<SavedChanges> DecodeSavedChanges(absl::string_view bytes,
                                                absl::string_view full_save) {
  std::string header = EncodeChangesHeader(full_save);
  const bool with_alphabets =
      bytes.substr(0, kChangesMagic.size()) == kChangesMagic;
  if (!with_alphabets) {
    if (bytes.substr(0, kChangesMagicWithoutAlphabets.size()) !=
        kChangesMagicWithoutAlphabets) {
      return Lost(
          "the changes file does not start with the magic SSTFPRC2 or "
          "SSTFPRC1");
    }
    header.replace(0, kChangesMagic.size(),
                   std::string(kChangesMagicWithoutAlphabets));
  }
  if (bytes.substr(0, header.size()) != header) {
    return absl::FailedPreconditionError(
        "the changes file follows another save");
  }
  bytes.remove_prefix(header.size());
  SavedChanges changes;
  while (!bytes.empty()) {
    const size_t number = changes.records.size();
    absl::string_view record;
    uint32_t stored = 0;
    if (!GetLengthPrefixed(&bytes, &record) || !GetFixed32(&bytes, &stored)) {
      changes.stopped = absl::StrCat("record ", number, " is torn");
      break;
    }
    if (crc32c::Unmask(stored) != crc32c::Value(record.data(), record.size())) {
      changes.stopped = absl::StrCat("record ", number, " is damaged (CRC32C)");
      break;
    }
    absl::StatusOr<std::vector<ChangedColumnFamily>> decoded =
        DecodeChangesRecord(record, with_alphabets);
    if (!decoded.ok()) {
      changes.stopped =
          absl::StrCat("record ", number, ": ", decoded.status().message());
      break;
    }
    changes.records.push_back(*std::move(decoded));
  }
  return changes;
}

std::string EncodeColumnFamilyRecord(const SavedColumnFamily& record) {
  std::string out;
  PutFixed32(&out, record.id);
  PutLengthPrefixed(&out, record.name);
  PutFixed64(&out, record.latest_sequence);
  PutTables(&out, record.tables);
  PutLengthPrefixed(&out, record.filter);
  for (const auto& [tag, value] :
       {std::pair<uint8_t, const std::string*>{kPrefixExtractorTag,
                                               &record.prefix_extractor},
        {kAlphabetsTag, &record.alphabets}}) {
    if (value->empty()) continue;
    out.push_back(static_cast<char>(tag));
    PutLengthPrefixed(&out, *value);
  }
  return out;
}

absl::StatusOr<SavedColumnFamily> DecodeColumnFamilyRecord(
    absl::string_view bytes) {
  SavedColumnFamily record;
  absl::string_view name;
  if (!GetFixed32(&bytes, &record.id) || !GetLengthPrefixed(&bytes, &name) ||
      !GetFixed64(&bytes, &record.latest_sequence)) {
    return Lost("a column family's record is truncated");
  }
  record.name = std::string(name);
  if (!GetTables(&bytes, &record.tables)) {
    return Lost(absl::StrCat("column family ", record.name,
                             ": its table list is truncated or too long"));
  }
  absl::string_view filter;
  if (!GetLengthPrefixed(&bytes, &filter)) {
    return Lost(absl::StrCat("column family ", record.name,
                             ": its filter's length does not match"));
  }
  record.filter = std::string(filter);
  uint8_t previous_tag = 0;
  while (!bytes.empty()) {
    const uint8_t tag = static_cast<uint8_t>(bytes[0]);
    bytes.remove_prefix(1);
    absl::string_view value;
    std::string* field = tag == kPrefixExtractorTag ? &record.prefix_extractor
                         : tag == kAlphabetsTag     ? &record.alphabets
                                                    : nullptr;
    if (field == nullptr || tag <= previous_tag ||
        !GetLengthPrefixed(&bytes, &value) || value.empty()) {
      return Lost(absl::StrCat("column family ", record.name,
                               ": the fields after its filter are damaged"));
    }
    *field = std::string(value);
    previous_tag = tag;
  }
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
