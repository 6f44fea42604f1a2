#include "engines/rocksdb/presence/key_scans.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "inmemory/mutable/mutable_bloom.h"
#include "rocksdb/metadata.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/version.h"

namespace sstfilter {
namespace presence_internal {
namespace {

// Keys between polls of stop and reports of progress: rare enough to cost
// nothing per key, often enough to stop a scan promptly.
constexpr uint64_t kKeysPerPoll = 4096;
// Keys handed to KeyScan::add at a time: enough to amortise its lock and
// overlap the cache misses of their blocks.
constexpr size_t kKeysPerAdd = 256;

// Re-enables file deletions on every path out of a read of tables.
class FileDeletionsPaused {
 public:
  explicit FileDeletionsPaused(rocksdb::DB* db)
      : db_(db), paused_(db->DisableFileDeletions().ok()) {}
  ~FileDeletionsPaused() {
    if (!paused_) return;
#if ROCKSDB_MAJOR >= 9
    db_->EnableFileDeletions().PermitUncheckedError();
#else
    // Not forced: only this pause ends, not one the user holds.
    db_->EnableFileDeletions(/*force=*/false).PermitUncheckedError();
#endif
  }
  FileDeletionsPaused(const FileDeletionsPaused&) = delete;
  FileDeletionsPaused& operator=(const FileDeletionsPaused&) = delete;

 private:
  rocksdb::DB* db_;
  bool paused_;
};

}  // namespace

absl::Status FromRocksDbStatus(const rocksdb::Status& status,
                               const std::string& context) {
  if (status.ok()) return absl::OkStatus();
  const std::string message = absl::StrCat(context, ": ", status.ToString());
  if (status.IsNotFound()) return absl::NotFoundError(message);
  if (status.IsCorruption()) return absl::DataLossError(message);
  if (status.IsInvalidArgument()) return absl::InvalidArgumentError(message);
  if (status.IsNotSupported()) return absl::UnimplementedError(message);
  if (status.IsIncomplete() || status.IsAborted()) {
    return absl::AbortedError(message);
  }
  return absl::UnavailableError(message);
}

absl::StatusOr<uint64_t> AddIteratorKeys(rocksdb::Iterator* iterator,
                                         const KeyScan& scan) {
  uint64_t keys = 0;
  // The iterator's keys last only until it moves: copies, a group at a time.
  std::vector<std::string> group(kKeysPerAdd);
  std::vector<absl::string_view> views(kKeysPerAdd);
  size_t grouped = 0;
  const auto add_group = [&] {
    scan.add(absl::MakeConstSpan(views.data(), grouped));
    grouped = 0;
  };
  for (iterator->SeekToFirst(); iterator->Valid(); iterator->Next()) {
    const rocksdb::Slice key = iterator->key();
    group[grouped].assign(key.data(), key.size());
    views[grouped] = group[grouped];
    if (++grouped == kKeysPerAdd) add_group();
    if (++keys % kKeysPerPoll == 0) {
      if (scan.stop && scan.stop()) {
        return absl::CancelledError("the scan was stopped");
      }
      if (scan.progress) scan.progress(keys);
    }
  }
  absl::Status status = FromRocksDbStatus(iterator->status(), "scanning keys");
  if (!status.ok()) return status;
  if (grouped > 0) add_group();
  return keys;
}

absl::StatusOr<uint64_t> AddTableFileKeys(const rocksdb::Options& options,
                                          const std::string& path,
                                          const KeyScan& scan) {
  rocksdb::SstFileReader reader(options);
  absl::Status status = FromRocksDbStatus(reader.Open(path), "opening " + path);
  if (!status.ok()) return status;
  rocksdb::ReadOptions read_options;
  read_options.fill_cache = false;
  std::unique_ptr<rocksdb::Iterator> iterator(reader.NewIterator(read_options));
  absl::StatusOr<uint64_t> keys = AddIteratorKeys(iterator.get(), scan);
  if (!keys.ok()) {
    return absl::Status(keys.status().code(),
                        absl::StrCat(path, ": ", keys.status().message()));
  }
  return keys;
}

absl::StatusOr<TablesRead> ReadTables(rocksdb::DB* db,
                                      rocksdb::ColumnFamilyHandle* handle,
                                      const std::string& name,
                                      const std::vector<SavedTable>& skip,
                                      const KeyScan& scan) {
  FileDeletionsPaused paused(db);
  // The memtables' keys (a WAL's replay, writes from before the filter was
  // installed) become a table, read below.
  absl::Status status = FromRocksDbStatus(
      db->Flush(rocksdb::FlushOptions(), handle), "flushing " + name);
  if (!status.ok()) return status;
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  TablesRead read;
  // Every deletion a listed table holds is at or below this.
  read.listed_at = db->GetLatestSequenceNumber();
  const rocksdb::Options options = db->GetOptions(handle);
  for (const rocksdb::LiveFileMetaData& file : files) {
    if (file.column_family_name != name) continue;
    const SavedTable table{file.file_number, file.size};
    if (std::find(skip.begin(), skip.end(), table) != skip.end()) continue;
    absl::StatusOr<uint64_t> added =
        AddTableFileKeys(options, file.db_path + file.name, scan);
    if (!added.ok()) return added.status();
    ++read.tables;
    read.keys += *added;
  }
  return read;
}

}  // namespace presence_internal
}  // namespace sstfilter
