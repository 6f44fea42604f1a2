// The presence filters' saves: a full save writes every serving filter
// (saved_filters.h); the saves after it append the blocks each filter
// changed since the save before, until those changes would outgrow the full
// save, or a filter saved in full no longer serves.

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_FILTER_SAVES_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_FILTER_SAVES_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/status.h"
#include "engines/rocksdb/presence/column_family_slots.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "engines/rocksdb/presence/read_epochs.h"
#include "engines/rocksdb/presence/writers_lock.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"

namespace sstfilter {
namespace presence_internal {

class FilterSaves {
 public:
  // Saves the filters of slots, which are swapped under writers and epochs,
  // with the tables of db (its identity db_identity) into saved_file
  // (PresenceFilterFileName) and the changes file beside it. listener may be
  // null. REQUIRES: every pointer outlives this object.
  FilterSaves(rocksdb::DB* db, std::string db_identity, std::string saved_file,
              PresenceFilterListener* listener, const ColumnFamilySlots* slots,
              WritersLock* writers, ReadEpochs* epochs);

  // Saves every serving filter, and for a column family whose filter does
  // not serve, the record of its last save; tells listener as it begins and
  // ends. One save at a time; any thread. A save that fails leaves the files
  // as they were, and the next save is a full one. bytes_written, unless
  // null, is set to the bytes the save wrote (0 when it failed).
  absl::Status Save(uint64_t* bytes_written);

 private:
  struct Snapshot;
  // The last full save, which the saves after it append changes to.
  struct FullSave {
    bool valid = false;  // false: the next save is a full one
    std::string header;  // EncodeChangesHeader of it
    uint64_t bytes = 0;
    std::map<uint32_t, uint64_t> serials;  // column family id: filter serial
    uint64_t changes_bytes = 0;            // appended since
    std::unique_ptr<rocksdb::WritableFile> changes;  // once one is appended
  };

  // The rest: REQUIRES mutex_ held.
  absl::Status SaveLocked(uint64_t* bytes_written);
  // True when the last full save holds every serving filter of snapshot,
  // each changed since only in the blocks marked.
  bool FullSaveHoldsFilters(const Snapshot& snapshot) const;
  // The record of snapshot's changes; the full save of it (and, in next,
  // what it holds).
  std::string ChangesOf(const Snapshot& snapshot) const;
  std::string FullSaveOf(const Snapshot& snapshot, FullSave* next) const;
  absl::Status AppendChanges(const std::string& record);
  absl::Status WriteFullSave(const std::string& bytes, FullSave next);

  rocksdb::DB* const db_;
  const std::string db_identity_;
  const std::string saved_file_;
  PresenceFilterListener* const listener_;
  const ColumnFamilySlots* const slots_;
  WritersLock* const writers_;
  ReadEpochs* const epochs_;

  std::mutex mutex_;    // one save at a time
  FullSave full_save_;  // guarded by mutex_
};

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_FILTER_SAVES_H_
