#include "engines/rocksdb/presence/filter_saves.h"

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engines/rocksdb/presence/saved_filters.h"
#include "rocksdb/metadata.h"

namespace sstfilter {
namespace presence_internal {
namespace {

absl::Status Unavailable(const rocksdb::Status& status,
                         absl::string_view context) {
  return absl::UnavailableError(absl::StrCat(context, ": ", status.ToString()));
}

}  // namespace

// What a save found: the tables each column family had, and the blocks each
// serving filter changed since the last save.
struct FilterSaves::Snapshot {
  struct Serving {
    ColumnFamilyFilter* column_family;
    PresenceFilter* filter;
    std::vector<uint64_t> changed_blocks;
  };
  std::vector<rocksdb::LiveFileMetaData> files;
  rocksdb::SequenceNumber latest = 0;
  std::vector<ColumnFamilyFilter*> filters;
  std::vector<Serving> serving;

  std::vector<SavedTable> TablesOf(const ColumnFamilyFilter& filter) const {
    std::vector<SavedTable> tables;
    for (const rocksdb::LiveFileMetaData& file : files) {
      if (file.column_family_name == filter.name()) {
        tables.push_back({file.file_number, file.size});
      }
    }
    return tables;
  }
};

FilterSaves::FilterSaves(rocksdb::DB* db, std::string db_identity,
                         std::string saved_file,
                         PresenceFilterListener* listener,
                         const ColumnFamilySlots* slots, WritersLock* writers,
                         ReadEpochs* epochs)
    : db_(db),
      db_identity_(std::move(db_identity)),
      saved_file_(std::move(saved_file)),
      listener_(listener),
      slots_(slots),
      writers_(writers),
      epochs_(epochs) {}

absl::Status FilterSaves::Save(uint64_t* bytes_written) {
  std::lock_guard<std::mutex> one_save(mutex_);
  if (listener_ != nullptr) listener_->OnSaveBegin();
  uint64_t bytes = 0;
  absl::Status status = SaveLocked(&bytes);
  if (bytes_written != nullptr) *bytes_written = status.ok() ? bytes : 0;
  if (listener_ != nullptr) listener_->OnSaveEnd(status);
  return status;
}

absl::Status FilterSaves::SaveLocked(uint64_t* bytes_written) {
  Snapshot snapshot;
  // The tables first, then the sequence number, then the filters: a table
  // listed holds only writes the filters saved after it hold.
  db_->GetLiveFilesMetaData(&snapshot.files);
  snapshot.latest = db_->GetLatestSequenceNumber();
  snapshot.filters = slots_->All();
  bool append = false;
  std::string bytes;
  FullSave next;
  {
    // Keeps each serving filter alive until its bytes are copied.
    ReadEpochs::Guard guard(epochs_);
    if (!guard.active()) {
      return absl::ResourceExhaustedError(
          "not saved: more threads are alive than a presence filter's "
          "readers can number (65,536)");
    }
    {
      // No add runs while the marks are taken: each add before this set
      // its bits and marked its block (TakeChangedBlocks' REQUIRES).
      std::unique_lock<WritersLock> no_adds(*writers_);
      for (ColumnFamilyFilter* filter : snapshot.filters) {
        if (filter->serving() == nullptr) continue;
        PresenceFilter* serving = filter->serving_for_writes();
        snapshot.serving.push_back(
            {filter, serving, serving->keys.TakeChangedBlocks()});
      }
    }
    if (FullSaveHoldsFilters(snapshot)) {
      bytes = ChangesOf(snapshot);
      // Past this, reading the changes at open would cost more than reading
      // a full save.
      append = full_save_.changes_bytes + bytes.size() <= full_save_.bytes;
    }
    if (!append) bytes = FullSaveOf(snapshot, &next);
  }
  // A save that fails leaves the files as they were, still true; the marks
  // it took are gone, so the next save is a full one.
  *bytes_written = bytes.size();
  return append ? AppendChanges(bytes) : WriteFullSave(bytes, std::move(next));
}

bool FilterSaves::FullSaveHoldsFilters(const Snapshot& snapshot) const {
  if (!full_save_.valid) return false;
  for (const Snapshot::Serving& serving : snapshot.serving) {
    auto saved = full_save_.serials.find(serving.column_family->id());
    if (saved == full_save_.serials.end() ||
        saved->second != serving.filter->serial) {
      return false;  // a new or rebuilt filter
    }
  }
  return true;
}

std::string FilterSaves::ChangesOf(const Snapshot& snapshot) const {
  std::vector<ChangedColumnFamily> record;
  for (const Snapshot::Serving& serving : snapshot.serving) {
    ChangedColumnFamily changed{
        serving.column_family->id(), snapshot.latest,
        snapshot.TablesOf(*serving.column_family),
        serving.filter->keys.SaveBlocks(serving.changed_blocks), ""};
    // After the blocks: the alphabets then hold every key they do.
    if (serving.filter->alphabets != nullptr) {
      changed.alphabets = serving.filter->alphabets->Save();
    }
    record.push_back(std::move(changed));
  }
  return EncodeChangesRecord(record);
}

std::string FilterSaves::FullSaveOf(const Snapshot& snapshot,
                                    FullSave* next) const {
  for (const Snapshot::Serving& serving : snapshot.serving) {
    ColumnFamilyFilter* filter = serving.column_family;
    SavedColumnFamily record;
    record.id = filter->id();
    record.name = filter->name();
    record.latest_sequence = snapshot.latest;
    record.tables = snapshot.TablesOf(*filter);
    record.filter = serving.filter->keys.Save();
    record.prefix_extractor = serving.filter->prefixes.Name();
    // After the bits: the alphabets then hold every key the bits do.
    if (serving.filter->alphabets != nullptr) {
      record.alphabets = serving.filter->alphabets->Save();
    }
    filter->last_record() = EncodeColumnFamilyRecord(record);
    next->serials[filter->id()] = serving.filter->serial;
  }
  SavedFilters saved;
  saved.db_identity = db_identity_;
  // A filter still recovering keeps its last save, which stays true: what
  // was written since is in tables that save does not list.
  for (ColumnFamilyFilter* filter : snapshot.filters) {
    if (!filter->last_record().empty()) {
      saved.records.push_back(filter->last_record());
    }
  }
  return EncodeSavedFilters(saved);
}

absl::Status FilterSaves::AppendChanges(const std::string& record) {
  rocksdb::Env* env = db_->GetEnv();
  const std::string path = ChangesFileName(saved_file_);
  rocksdb::Status status;
  if (full_save_.changes == nullptr) {
    status =
        env->NewWritableFile(path, &full_save_.changes, rocksdb::EnvOptions());
    if (status.ok()) status = full_save_.changes->Append(full_save_.header);
  }
  if (status.ok()) status = full_save_.changes->Append(record);
  if (status.ok()) status = full_save_.changes->Sync();
  if (!status.ok()) {
    // The file may end in part of a record now: start over from a full save.
    full_save_ = FullSave();
    return Unavailable(status, "appending to " + path);
  }
  full_save_.changes_bytes += record.size();
  return absl::OkStatus();
}

absl::Status FilterSaves::WriteFullSave(const std::string& bytes,
                                        FullSave next) {
  full_save_ = FullSave();  // closes the changes file of the last full save
  absl::Status status = WriteFileAtomically(db_->GetEnv(), saved_file_, bytes);
  if (!status.ok()) return status;
  // The changes of the save this one replaces are of no use now; at open
  // they would not match it either (their header names the save they
  // follow).
  const std::string changes = ChangesFileName(saved_file_);
  if (db_->GetEnv()->FileExists(changes).ok()) {
    rocksdb::Status removed = db_->GetEnv()->DeleteFile(changes);
    if (!removed.ok()) return Unavailable(removed, "removing " + changes);
  }
  next.valid = true;
  next.header = EncodeChangesHeader(bytes);
  next.bytes = bytes.size();
  full_save_ = std::move(next);
  return absl::OkStatus();
}

}  // namespace presence_internal
}  // namespace sstfilter
