// What the saved filters say at open: the saved file (saved_filters.h) and
// the changes appended after it, read into one record per column family, or
// why none can be used; and a column family's filter restored from its
// record.

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_SAVED_AT_OPEN_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_SAVED_AT_OPEN_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engines/rocksdb/presence/column_family_filter.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "engines/rocksdb/presence/progress_lines.h"
#include "engines/rocksdb/presence/saved_filters.h"
#include "rocksdb/env.h"

namespace sstfilter {
namespace presence_internal {

// A column family's record in the saved file, and the blocks its filter
// changed in the saves after it, in order.
struct SavedRecord {
  SavedColumnFamily decoded;  // with the latest tables and sequence number
  std::string encoded;
  std::vector<std::string> changed_blocks;
};

struct SavedAtOpen {
  // Why no record may be used (every column family is rebuilt), or kNone.
  PresenceRebuildReason problem = PresenceRebuildReason::kNone;
  std::map<uint32_t, SavedRecord> records;  // by column family id
};

// Reads saved_file (PresenceFilterFileName) and its changes through env for
// the database db_identity names. may_roll_back (best_efforts_recovery): the
// open may have rolled the database back to tables no save covered, so no
// record may be used. Why the files are damaged goes to progress.
SavedAtOpen ReadSavedAtOpen(rocksdb::Env* env, const std::string& saved_file,
                            absl::string_view db_identity, bool may_roll_back,
                            const ProgressFn& progress);

// The filter of record, with its changes, adding prefixes under prefixes
// from now on (REQUIRES: the saved filter holds every key's prefix under
// that extractor, or prefixes has none), and range items when range_items
// (REQUIRES: the record has alphabets then); record->encoded then says what
// it holds (for saves while it recovers).
absl::StatusOr<std::unique_ptr<PresenceFilter>> Restore(SavedRecord* record,
                                                        PrefixItems prefixes,
                                                        bool range_items);

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_SAVED_AT_OPEN_H_
