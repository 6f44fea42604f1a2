#include "engines/rocksdb/presence/rebuilds.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engines/rocksdb/presence/range_items.h"
#include "filter/filter_policy.h"
#include "inmemory/mutable/mutable_bloom.h"

namespace sstfilter {
namespace presence_internal {
namespace {

absl::Status LacksKeysError(const ColumnFamilyFilter& filter) {
  return absl::AbortedError(
      absl::StrCat(Describe(filter),
                   ": keys were written that it could not read; rebuilding "
                   "again"));
}

}  // namespace

absl::StatusOr<std::unique_ptr<PresenceFilter>> NewFilter(
    const PresenceFilterOptions& options, uint64_t keys, PrefixItems prefixes) {
  double items_per_key = prefixes.extractor == nullptr ? 1 : 2;
  if (options.filter_range_seeks) {
    const absl::StatusOr<double> range_items = RangeItemsPerKey(options.fpp);
    if (!range_items.ok()) return range_items.status();
    items_per_key += *range_items;
  }
  absl::StatusOr<MutableBloomFilter> filter = MutableBloomFilter::Create(
      FilterOptions::Fpp(options.fpp),
      static_cast<uint64_t>(std::ceil(
          items_per_key *
          static_cast<double>(std::max(keys, options.expected_keys)))));
  if (!filter.ok()) return filter.status();
  if (absl::Status tracked = filter->TrackChanges(); !tracked.ok()) {
    return tracked;
  }
  return std::make_unique<PresenceFilter>(
      *std::move(filter), std::move(prefixes), options.filter_range_seeks);
}

PrefixItems CurrentPrefixes(const PresenceFilterOptions& options,
                            rocksdb::DB* db, const ColumnFamilyFilter& filter,
                            rocksdb::ColumnFamilyHandle* handle) {
  if (!options.filter_prefix_seeks || handle == nullptr) return {};
  PrefixItems prefixes;
  prefixes.generation = filter.prefix_generation();
  if (prefixes.generation % 2 != 0) return {};
  prefixes.extractor = db->GetOptions(handle).prefix_extractor;
  if (filter.prefix_generation() != prefixes.generation) return {};
  return prefixes;
}

uint64_t RebuildKeys(rocksdb::DB* db, const ColumnFamilyFilter& filter) {
  uint64_t estimate = 0;
  if (filter.handle() != nullptr) {
    db->GetIntProperty(filter.handle(), "rocksdb.estimate-num-keys", &estimate);
  }
  const double keys =
      static_cast<double>(std::max(estimate, filter.last_scanned_keys()));
  return static_cast<uint64_t>(std::ceil(keys * kRebuildHeadroom));
}

Rebuilds::Rebuilds(const PresenceFilterOptions& options, rocksdb::DB* db,
                   WritersLock* writers, ReadEpochs* epochs,
                   std::function<bool()> stopping, ProgressFn progress)
    : options_(options),
      db_(db),
      writers_(writers),
      epochs_(epochs),
      stopping_(std::move(stopping)),
      progress_(std::move(progress)) {}

void Rebuilds::Run(const BackgroundTask& task) {
  if (task.kind == BackgroundTask::kRecover) {
    absl::Status recovered = Recover(task.filter, task.saved_tables);
    // A filter found lacking keys has its rebuild queued already.
    if (recovered.ok() || stopping_() || task.filter->cancelled() ||
        absl::IsAborted(recovered)) {
      return;
    }
    progress_(absl::StrCat(Describe(*task.filter),
                           ": cannot read the tables its save does not cover (",
                           recovered.ToString(), "); rebuilding"));
    Rebuild(task.filter, PresenceRebuildReason::kUnreadableTables)
        .IgnoreError();
    return;
  }
  Rebuild(task.filter, task.reason).IgnoreError();
}

KeyScan Rebuilds::ScanInto(ColumnFamilyFilter* filter,
                           ProgressLines* lines) const {
  KeyScan scan;
  // Taking turns with the writes that reach the same filter.
  scan.add = [filter, building = filter->building()](
                 absl::Span<const absl::string_view> keys) {
    filter->AddTo(building, keys);
  };
  scan.stop = [this, filter] { return stopping_() || filter->cancelled(); };
  scan.progress = [lines](uint64_t keys) { lines->Keys(keys); };
  return scan;
}

absl::Status Rebuilds::Recover(ColumnFamilyFilter* filter,
                               const std::vector<SavedTable>& saved_tables) {
  std::lock_guard<std::mutex> handle_lock(filter->handle_mutex());
  rocksdb::ColumnFamilyHandle* handle = filter->handle();
  if (handle == nullptr) return absl::CancelledError("the handle is gone");
  ProgressLines lines(progress_,
                      Describe(*filter) + ": reading tables the save misses");
  uint64_t lacks_keys_count = 0;
  {
    std::unique_lock<WritersLock> lock(*writers_);
    lacks_keys_count = filter->lacks_keys_count();
  }
  absl::StatusOr<TablesRead> read = ReadTables(
      db_, handle, filter->name(), saved_tables, ScanInto(filter, &lines));
  if (!read.ok()) return read.status();
  if (filter->lacks_keys_count() != lacks_keys_count) {
    return LacksKeysError(*filter);
  }
  Promote(filter);
  progress_(absl::StrCat(Describe(*filter), ": restored; read ", read->tables,
                         " tables the save did not cover (", read->keys,
                         " keys) in ", lines.SecondsSinceStart(), " s"));
  return absl::OkStatus();
}

absl::Status Rebuilds::Rebuild(ColumnFamilyFilter* filter,
                               PresenceRebuildReason reason) {
  if (options_.listener != nullptr) {
    options_.listener->OnRebuildBegin(filter->name(), reason);
  }
  filter->RecordRebuildStart(reason);
  auto finish = [this, filter](absl::Status status) {
    if (!status.ok()) {
      std::unique_ptr<PresenceFilter> dropped;
      {
        std::unique_lock<WritersLock> lock(*writers_);
        dropped = filter->DropBuilding();
      }
      progress_(absl::StrCat(Describe(*filter),
                             ": rebuild failed: ", status.ToString()));
    }
    filter->RecordRebuildEnd(status);
    if (options_.listener != nullptr) {
      options_.listener->OnRebuildEnd(filter->name(), status);
    }
    return status;
  };

  std::lock_guard<std::mutex> handle_lock(filter->handle_mutex());
  rocksdb::ColumnFamilyHandle* handle = filter->handle();
  if (handle == nullptr) return finish(absl::CancelledError("handle gone"));
  std::unique_ptr<PresenceFilter> fresh;
  if (!filter->has_building()) {
    absl::StatusOr<std::unique_ptr<PresenceFilter>> made =
        NewFilter(options_, RebuildKeys(db_, *filter),
                  CurrentPrefixes(options_, db_, *filter, handle));
    if (!made.ok()) return finish(made.status());
    fresh = *std::move(made);
  }
  uint64_t lacks_keys_count = 0;
  {
    // Every write that has not returned by now reaches the new filter; every
    // one that has is in a memtable or a table read next.
    std::unique_lock<WritersLock> lock(*writers_);
    if (fresh != nullptr) filter->InstallBuilding(std::move(fresh));
    lacks_keys_count = filter->lacks_keys_count();
  }
  const std::string what =
      absl::StrCat(Describe(*filter), ": rebuilding from its tables (",
                   PresenceRebuildReasonName(reason), ")");
  ProgressLines lines(progress_, what);
  progress_(what);
  // Each live table is read on its own, as that table alone shows its keys,
  // not through the column family's merged view: a key deleted in another
  // table than the one holding its value stays in the new filter. So no
  // table that leaves without a compaction (DeleteFilesInRange, a recovery
  // that rolls back) can bring back a key the filter lacks. Only keys whose
  // value and deletion share one table are left out, and an older snapshot
  // that still sees them is answered by RocksDB (oldest_snapshot).
  absl::StatusOr<TablesRead> read = ReadTables(
      db_, handle, filter->name(), /*skip=*/{}, ScanInto(filter, &lines));
  if (!read.ok()) return finish(read.status());
  if (filter->lacks_keys_count() != lacks_keys_count) {
    return finish(LacksKeysError(*filter));
  }
  filter->set_last_scanned_keys(read->keys);
  filter->building()->oldest_snapshot = read->listed_at;
  Promote(filter);
  progress_(absl::StrCat(Describe(*filter), ": rebuilt from ", read->tables,
                         " tables (", read->keys, " keys) in ",
                         lines.SecondsSinceStart(), " s"));
  return finish(absl::OkStatus());
}

void Rebuilds::Promote(ColumnFamilyFilter* filter) {
  std::unique_ptr<PresenceFilter> replaced;
  {
    std::unique_lock<WritersLock> lock(*writers_);
    replaced = filter->PromoteBuilding();
  }
  if (replaced != nullptr) {
    epochs_->WaitForReaders();
    replaced.reset();
  }
}

}  // namespace presence_internal
}  // namespace sstfilter
