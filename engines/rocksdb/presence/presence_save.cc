// PresenceCore's saves: a full save writes every serving filter
// (saved_filters.h); the saves after it append the blocks each filter
// changed since the save before, until those changes would outgrow the full
// save, or a filter saved in full no longer serves.

#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engines/rocksdb/presence/presence_core.h"
#include "rocksdb/env.h"
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
struct PresenceCore::SaveSnapshot {
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

absl::Status PresenceCore::Save() {
  std::lock_guard<std::mutex> one_save(save_mutex_);
  if (options_.listener != nullptr) options_.listener->OnSaveBegin();
  absl::Status status = SaveLocked();
  if (options_.listener != nullptr) options_.listener->OnSaveEnd(status);
  return status;
}

absl::Status PresenceCore::SaveLocked() {
  SaveSnapshot snapshot;
  // The tables first, then the sequence number, then the filters: a table
  // listed holds only writes the filters saved after it hold.
  db_->GetLiveFilesMetaData(&snapshot.files);
  snapshot.latest = db_->GetLatestSequenceNumber();
  snapshot.filters = Filters();
  bool append = false;
  std::string bytes;
  FullSave next;
  {
    // Keeps each serving filter alive until its bytes are copied.
    ReadEpochs::Guard guard(&epochs_);
    if (!guard.active()) {
      return absl::ResourceExhaustedError(
          "not saved: more threads are alive than a presence filter's "
          "readers can number (65,536)");
    }
    {
      // No add runs while the marks are taken: each add before this set
      // its bits and marked its block (TakeChangedBlocks' REQUIRES).
      std::unique_lock<WritersLock> no_adds(writers_);
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
  return append ? AppendChanges(bytes) : WriteFullSave(bytes, std::move(next));
}

bool PresenceCore::FullSaveHoldsFilters(const SaveSnapshot& snapshot) const {
  if (!full_save_.valid) return false;
  for (const SaveSnapshot::Serving& serving : snapshot.serving) {
    auto saved = full_save_.serials.find(serving.column_family->id());
    if (saved == full_save_.serials.end() ||
        saved->second != serving.filter->serial) {
      return false;  // a new or rebuilt filter
    }
  }
  return true;
}

std::string PresenceCore::ChangesOf(const SaveSnapshot& snapshot) const {
  std::vector<ChangedColumnFamily> record;
  for (const SaveSnapshot::Serving& serving : snapshot.serving) {
    record.push_back({serving.column_family->id(), snapshot.latest,
                      snapshot.TablesOf(*serving.column_family),
                      serving.filter->keys.SaveBlocks(serving.changed_blocks)});
  }
  return EncodeChangesRecord(record);
}

std::string PresenceCore::FullSaveOf(const SaveSnapshot& snapshot,
                                     FullSave* next) const {
  for (const SaveSnapshot::Serving& serving : snapshot.serving) {
    ColumnFamilyFilter* filter = serving.column_family;
    SavedColumnFamily record;
    record.id = filter->id();
    record.name = filter->name();
    record.latest_sequence = snapshot.latest;
    record.tables = snapshot.TablesOf(*filter);
    record.filter = serving.filter->keys.Save();
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

absl::Status PresenceCore::AppendChanges(const std::string& record) {
  rocksdb::Env* env = db_->GetEnv();
  const std::string path = ChangesFileName(PresenceFilterFileName(path_));
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

absl::Status PresenceCore::WriteFullSave(const std::string& bytes,
                                         FullSave next) {
  full_save_ = FullSave();  // closes the changes file of the last full save
  const std::string path = PresenceFilterFileName(path_);
  absl::Status status = WriteFileAtomically(db_->GetEnv(), path, bytes);
  if (!status.ok()) return status;
  // The changes of the save this one replaces are of no use now; at open
  // they would not match it either (their header names the save they
  // follow).
  const std::string changes = ChangesFileName(path);
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

void PresenceCore::ReadChanges(absl::string_view full_save,
                               std::map<uint32_t, SavedRecord>* records) {
  const std::string path = ChangesFileName(PresenceFilterFileName(path_));
  absl::StatusOr<std::string> bytes = ReadWholeFile(db_->GetEnv(), path);
  if (absl::IsNotFound(bytes.status())) return;
  absl::StatusOr<SavedChanges> changes =
      bytes.ok() ? DecodeSavedChanges(*bytes, full_save) : bytes.status();
  if (absl::IsFailedPrecondition(changes.status())) return;  // a stale file
  if (!changes.ok()) {
    // The full save alone stays true: its tables are read past it.
    Progress(absl::StrCat("presence filters: ", path,
                          " not read: ", changes.status().ToString()));
    return;
  }
  if (!changes->stopped.empty()) {
    Progress(absl::StrCat("presence filters: ", path, ": ", changes->stopped,
                          "; the records before it are read"));
  }
  for (std::vector<ChangedColumnFamily>& record : changes->records) {
    for (ChangedColumnFamily& changed : record) {
      auto saved = records->find(changed.id);
      // Only filters of the full save have changes.
      if (saved == records->end()) continue;
      saved->second.decoded.latest_sequence = changed.latest_sequence;
      saved->second.decoded.tables = std::move(changed.tables);
      saved->second.changed_blocks.push_back(std::move(changed.blocks));
    }
  }
}

absl::StatusOr<std::unique_ptr<PresenceFilter>> PresenceCore::Restore(
    SavedRecord* record) const {
  absl::StatusOr<MutableBloomFilter> filter =
      MutableBloomFilter::Restore(record->decoded.filter);
  if (!filter.ok()) return filter.status();
  for (const std::string& blocks : record->changed_blocks) {
    if (absl::Status applied = filter->ApplySavedBlocks(blocks);
        !applied.ok()) {
      return applied;
    }
  }
  if (!record->changed_blocks.empty()) {
    record->decoded.filter = filter->Save();
    record->encoded = EncodeColumnFamilyRecord(record->decoded);
  }
  if (absl::Status tracked = filter->TrackChanges(); !tracked.ok()) {
    return tracked;
  }
  return std::make_unique<PresenceFilter>(*std::move(filter));
}

}  // namespace presence_internal
}  // namespace sstfilter
