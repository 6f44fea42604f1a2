#include "engines/rocksdb/presence/saved_at_open.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "inmemory/mutable/mutable_bloom.h"

namespace sstfilter {
namespace presence_internal {
namespace {

// Reads the changes appended after full_save (the saved file's bytes) into
// records: the latest tables and sequence number, and the blocks.
void ReadChanges(rocksdb::Env* env, const std::string& saved_file,
                 absl::string_view full_save, const ProgressFn& progress,
                 std::map<uint32_t, SavedRecord>* records) {
  const std::string path = ChangesFileName(saved_file);
  absl::StatusOr<std::string> bytes = ReadWholeFile(env, path);
  if (absl::IsNotFound(bytes.status())) return;
  absl::StatusOr<SavedChanges> changes =
      bytes.ok() ? DecodeSavedChanges(*bytes, full_save) : bytes.status();
  if (absl::IsFailedPrecondition(changes.status())) return;  // a stale file
  if (!changes.ok()) {
    // The full save alone stays true: its tables are read past it.
    progress(absl::StrCat("presence filters: ", path,
                          " not read: ", changes.status().ToString()));
    return;
  }
  if (!changes->stopped.empty()) {
    progress(absl::StrCat("presence filters: ", path, ": ", changes->stopped,
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
      // Each later record's alphabets hold the earlier ones'.
      if (!changed.alphabets.empty()) {
        saved->second.decoded.alphabets = std::move(changed.alphabets);
      }
    }
  }
}

}  // namespace

SavedAtOpen ReadSavedAtOpen(rocksdb::Env* env, const std::string& saved_file,
                            absl::string_view db_identity, bool may_roll_back,
                            const ProgressFn& progress) {
  SavedAtOpen at_open;
  std::string error;
  absl::StatusOr<std::string> bytes = ReadWholeFile(env, saved_file);
  absl::StatusOr<SavedFilters> saved =
      bytes.ok() ? DecodeSavedFilters(*bytes) : bytes.status();
  if (may_roll_back) {
    // The open may have rolled the database back to tables the saved filter
    // never covered, holding keys it may lack.
    at_open.problem = PresenceRebuildReason::kRecoveryMayRollBack;
  } else if (absl::IsNotFound(saved.status())) {
    at_open.problem = PresenceRebuildReason::kNoSavedFilter;
  } else if (!saved.ok()) {
    at_open.problem = PresenceRebuildReason::kDamaged;
    error = saved.status().ToString();
  } else if (saved->db_identity != db_identity) {
    at_open.problem = PresenceRebuildReason::kOtherDatabase;
  } else {
    for (const std::string& encoded : saved->records) {
      absl::StatusOr<SavedColumnFamily> record =
          DecodeColumnFamilyRecord(encoded);
      if (!record.ok()) {
        at_open.problem = PresenceRebuildReason::kDamaged;
        error = record.status().ToString();
        at_open.records.clear();
        break;
      }
      const uint32_t id = record->id;
      at_open.records[id] = {*std::move(record), encoded, {}};
    }
    if (at_open.problem == PresenceRebuildReason::kNone) {
      ReadChanges(env, saved_file, *bytes, progress, &at_open.records);
    }
  }
  if (!error.empty()) progress("presence filters: " + error);
  return at_open;
}

absl::StatusOr<std::unique_ptr<PresenceFilter>> Restore(SavedRecord* record,
                                                        PrefixItems prefixes,
                                                        bool range_items) {
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
  auto restored = std::make_unique<PresenceFilter>(
      *std::move(filter), std::move(prefixes), range_items);
  if (range_items) {
    if (absl::Status alphabets =
            restored->alphabets->Restore(record->decoded.alphabets);
        !alphabets.ok()) {
      return alphabets;
    }
  }
  return restored;
}

}  // namespace presence_internal
}  // namespace sstfilter
