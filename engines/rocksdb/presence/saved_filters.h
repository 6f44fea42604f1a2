// The file the filters are saved in (PresenceFilterFileName), the file of
// changes appended after it (ChangesFileName), and what each saved filter
// covers: the filter holds every key of the listed tables and every key
// written before the sequence number; a table not listed (by number and
// size) may hold keys it lacks. Both layouts: README.md ("saved_filters.h").

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_SAVED_FILTERS_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_SAVED_FILTERS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace rocksdb {
class Env;
}  // namespace rocksdb

namespace sstfilter {
namespace presence_internal {

struct SavedTable {
  uint64_t file_number = 0;
  uint64_t file_size = 0;
  bool operator==(const SavedTable& other) const {
    return file_number == other.file_number && file_size == other.file_size;
  }
};

struct SavedColumnFamily {
  uint32_t id = 0;
  std::string name;
  uint64_t latest_sequence = 0;
  std::vector<SavedTable> tables;
  std::string filter;  // MutableBloomFilter::Save
  // PrefixItems::Name() of the prefixes the filter holds beside its keys;
  // empty for none.
  std::string prefix_extractor;
  // KeyAlphabets::Save() of a filter that holds range items; empty for none.
  // (An empty field is not written: a record without both keeps the layout
  // it had before them.)
  std::string alphabets;
};

std::string EncodeColumnFamilyRecord(const SavedColumnFamily& record);
// DataLossError naming what is wrong for any bytes that are not a record.
absl::StatusOr<SavedColumnFamily> DecodeColumnFamilyRecord(
    absl::string_view bytes);

struct SavedFilters {
  std::string db_identity;
  std::vector<std::string> records;  // EncodeColumnFamilyRecord each
};

// The file of changes beside the saved filters' file (PresenceFilterFileName).
std::string ChangesFileName(const std::string& saved_file);

struct ChangedColumnFamily {
  uint32_t id = 0;
  uint64_t latest_sequence = 0;
  std::vector<SavedTable> tables;
  std::string blocks;  // MutableBloomFilter::SaveBlocks
  // KeyAlphabets::Save() after the blocks were read; empty for none.
  std::string alphabets;
};

// The first bytes of a changes file that follows full_save (the bytes
// EncodeSavedFilters made).
std::string EncodeChangesHeader(absl::string_view full_save);
// A record to append, framed with its length and CRC32C.
std::string EncodeChangesRecord(const std::vector<ChangedColumnFamily>& record);

struct SavedChanges {
  std::vector<std::vector<ChangedColumnFamily>> records;  // in saved order
  // Why records after these were not read (a crash tore the last append, or
  // damage); empty when the file ends after a whole record.
  std::string stopped;
};
// The records of a changes file that follows full_save. FailedPrecondition
// when it follows another save (a crash between writing a save and removing
// the changes before it); DataLossError for any bytes that are no changes
// file.
absl::StatusOr<SavedChanges> DecodeSavedChanges(absl::string_view bytes,
                                                absl::string_view full_save);

std::string EncodeSavedFilters(const SavedFilters& saved);
// DataLossError naming what is wrong: truncated, damaged (CRC32C), another
// file's magic, or lengths past the end.
absl::StatusOr<SavedFilters> DecodeSavedFilters(absl::string_view bytes);

// Writes bytes to path through env so that a crash leaves either the old file
// or the new one: a temporary file beside it, synced, renamed over it, and
// the directory synced.
absl::Status WriteFileAtomically(rocksdb::Env* env, const std::string& path,
                                 absl::string_view bytes);
// The file's bytes; NotFoundError when there is none.
absl::StatusOr<std::string> ReadWholeFile(rocksdb::Env* env,
                                          const std::string& path);

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_SAVED_FILTERS_H_
