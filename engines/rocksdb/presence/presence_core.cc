#include "engines/rocksdb/presence/presence_core.h"

#include <mutex>
#include <shared_mutex>
#include <utility>

#include "engines/rocksdb/presence/key_scans.h"
#include "engines/rocksdb/presence/rate_checks.h"

namespace sstfilter {
namespace presence_internal {
namespace {

std::string IdentityOf(rocksdb::DB* db) {
  std::string identity;
  db->GetDbIdentity(identity).PermitUncheckedError();
  return identity;
}

}  // namespace

PresenceCore::PresenceCore(const PresenceFilterOptions& options,
                           const std::string& path,
                           std::shared_ptr<BackgroundSignal> signal,
                           rocksdb::DB* db)
    : options_(options),
      saved_file_(PresenceFilterFileName(path)),
      db_(db),
      db_identity_(IdentityOf(db)),
      progress_(ProgressTo(options_, db)),
      slots_(db->DefaultColumnFamily()),
      lookups_(&slots_, &epochs_, options.skip_probes_when_mostly_present,
               options.filter_prefix_seeks || options.filter_range_seeks),
      tasks_(std::move(signal),
             {options.save_after_background_work, options.save_interval,
              options.table_bytes_per_saved_byte}),
      rebuilds_(
          options_, db, &writers_, &epochs_,
          [this] { return tasks_.stopping(); }, progress_),
      saves_(db, db_identity_, saved_file_, options.listener, &slots_,
             &writers_, &epochs_),
      snapshots_(db) {}

PresenceCore::~PresenceCore() { Stop(); }

void PresenceCore::Start(
    const std::vector<rocksdb::ColumnFamilyHandle*>& handles) {
  SavedAtOpen saved =
      ReadSavedAtOpen(db_->GetEnv(), saved_file_, db_identity_,
                      db_->GetDBOptions().best_efforts_recovery, progress_);
  for (rocksdb::ColumnFamilyHandle* handle : handles) {
    if (WhyUnfiltered(handle) != nullptr) continue;
    slots_.Add(OpenFilter(handle, &saved));
  }
  BackgroundWork work;
  work.run = [this](const BackgroundTask& task) { rebuilds_.Run(task); };
  work.after_background_work = [this] {
    CheckRates(
        slots_.All(), options_.rebuild_fpp_ratio * options_.fpp, &writers_,
        &epochs_,
        [this](ColumnFamilyFilter* filter, PresenceRebuildReason reason) {
          QueueRebuild(filter, reason);
        });
  };
  work.save = [this] {
    uint64_t bytes = 0;
    saves_.Save(&bytes).IgnoreError();
    return bytes;
  };
  // Each filter as opened is the one its column family's first save writes.
  for (ColumnFamilyFilter* filter : slots_.All()) {
    if (filter->has_building()) {
      work.filter_bytes += filter->building()->keys.MemoryBytes();
    }
  }
  tasks_.Start(std::move(work));
}

std::unique_ptr<ColumnFamilyFilter> PresenceCore::OpenFilter(
    rocksdb::ColumnFamilyHandle* handle, SavedAtOpen* saved) {
  const uint32_t id = handle->GetID();
  auto filter = std::make_unique<ColumnFamilyFilter>(id, handle->GetName());
  // The default column family's own handle lives as long as the database.
  filter->set_handle(id == 0 ? db_->DefaultColumnFamily() : handle);

  PresenceRebuildReason reason = saved->problem;
  auto record = saved->records.find(id);
  PrefixItems prefixes = CurrentPrefixes(options_, db_, *filter, handle);
  if (reason == PresenceRebuildReason::kNone) {
    if (record == saved->records.end() ||
        record->second.decoded.name != filter->name()) {
      reason = PresenceRebuildReason::kNoSavedFilter;
    } else if (prefixes.extractor != nullptr &&
               record->second.decoded.prefix_extractor != prefixes.Name()) {
      // A saved filter without these prefixes cannot answer prefix seeks;
      // one with more prefixes than asked for only matches more.
      reason = PresenceRebuildReason::kPrefixExtractorChanged;
    } else if (options_.filter_range_seeks &&
               record->second.decoded.alphabets.empty()) {
      reason = PresenceRebuildReason::kRangeItemsMissing;
    } else {
      absl::StatusOr<std::unique_ptr<PresenceFilter>> restored =
          Restore(&record->second, prefixes, options_.filter_range_seeks);
      if (restored.ok()) {
        filter->InstallBuilding(*std::move(restored));
        filter->last_record() = record->second.encoded;
        tasks_.Enqueue({BackgroundTask::kRecover, filter.get(),
                        PresenceRebuildReason::kNone,
                        record->second.decoded.tables});
      } else {
        progress_(Describe(*filter) + ": " + restored.status().ToString());
        reason = PresenceRebuildReason::kDamaged;
      }
    }
  }
  if (reason != PresenceRebuildReason::kNone) {
    // Writes from now on reach this filter; the scan adds what came before.
    absl::StatusOr<std::unique_ptr<PresenceFilter>> fresh =
        NewFilter(options_, RebuildKeys(db_, *filter), std::move(prefixes));
    if (fresh.ok()) {
      filter->InstallBuilding(*std::move(fresh));
      QueueRebuild(filter.get(), reason);
    } else {
      filter->RecordRebuildEnd(fresh.status());
    }
  }
  return filter;
}

void PresenceCore::Stop() {
  tasks_.Stop();
  // The database may close only with every snapshot released.
  snapshots_.Forget();
}

void PresenceCore::QueueRebuild(ColumnFamilyFilter* filter,
                                PresenceRebuildReason reason) {
  tasks_.Enqueue({BackgroundTask::kRebuild, filter, reason, {}});
}

void PresenceCore::AddColumnFamily(rocksdb::ColumnFamilyHandle* handle,
                                   bool imported) {
  if (WhyUnfiltered(handle) != nullptr) return;
  auto filter =
      std::make_unique<ColumnFamilyFilter>(handle->GetID(), handle->GetName());
  filter->set_handle(handle);
  absl::StatusOr<std::unique_ptr<PresenceFilter>> fresh =
      NewFilter(options_, options_.expected_keys,
                CurrentPrefixes(options_, db_, *filter, handle));
  if (!fresh.ok()) {
    filter->RecordRebuildEnd(fresh.status());
  } else {
    // Nobody can write to the column family before its handle is returned.
    filter->InstallBuilding(*std::move(fresh));
    if (imported) {
      QueueRebuild(filter.get(), PresenceRebuildReason::kImported);
    } else {
      filter->PromoteBuilding();  // empty, and so complete
    }
  }
  slots_.Add(std::move(filter));
}

void PresenceCore::BeginPrefixChange(rocksdb::ColumnFamilyHandle* handle) {
  ColumnFamilyFilter* filter = FilterOf(handle);
  if (filter != nullptr) filter->BeginPrefixChange();
}

void PresenceCore::EndPrefixChange(rocksdb::ColumnFamilyHandle* handle) {
  ColumnFamilyFilter* filter = FilterOf(handle);
  if (filter == nullptr) return;
  filter->EndPrefixChange();
  if (options_.filter_prefix_seeks) {
    QueueRebuild(filter, PresenceRebuildReason::kPrefixExtractorChanged);
  }
}

void PresenceCore::ForgetHandle(rocksdb::ColumnFamilyHandle* handle) {
  ColumnFamilyFilter* filter = FilterOf(handle);
  if (filter == nullptr || filter->handle() != handle) return;
  filter->cancelled().store(true);
  std::lock_guard<std::mutex> lock(filter->handle_mutex());
  filter->set_handle(nullptr);
}

absl::Status PresenceCore::WaitUntilServing(std::chrono::milliseconds timeout) {
  if (!tasks_.WaitUntilIdle(timeout)) {
    return absl::DeadlineExceededError(
        "presence filters are still recovering or rebuilding");
  }
  absl::Status error;
  slots_.ForEach([this, &error](ColumnFamilyFilter* filter) {
    std::shared_lock<WritersLock> writers(writers_);
    const PresenceFilterStats stats = filter->Stats();
    if (stats.state != PresenceFilterState::kServing &&
        !stats.last_error.ok() && filter->handle() != nullptr) {
      error = stats.last_error;
      return false;
    }
    return true;
  });
  return error;
}

void PresenceCore::StopServing(ColumnFamilyFilter* filter,
                               PresenceRebuildReason reason) {
  filter->StopServing();
  QueueRebuild(filter, reason);
}

absl::Status PresenceCore::RequestRebuild(rocksdb::ColumnFamilyHandle* handle,
                                          PresenceRebuildReason reason) {
  ColumnFamilyFilter* filter = FilterOf(handle);
  if (filter == nullptr) {
    return absl::FailedPreconditionError(
        "the column family has no presence filter");
  }
  QueueRebuild(filter, reason);
  return absl::OkStatus();
}

PresenceFilterState PresenceCore::State(rocksdb::ColumnFamilyHandle* handle) {
  ColumnFamilyFilter* filter = FilterOf(handle);
  if (filter == nullptr) return PresenceFilterState::kUnfiltered;
  std::shared_lock<WritersLock> lock(writers_);
  if (filter->serving() != nullptr) return PresenceFilterState::kServing;
  return filter->has_building() ? PresenceFilterState::kRecovering
                                : PresenceFilterState::kUnfiltered;
}

PresenceFilterStats PresenceCore::Stats(rocksdb::ColumnFamilyHandle* handle) {
  ColumnFamilyFilter* filter = FilterOf(handle);
  if (filter == nullptr) {
    PresenceFilterStats stats;
    const char* why = handle == nullptr ? nullptr : WhyUnfiltered(handle);
    if (why != nullptr) stats.unfiltered_reason = why;
    return stats;
  }
  std::shared_lock<WritersLock> lock(writers_);
  return filter->Stats();
}

absl::Status PresenceCore::FlushAll() {
  for (ColumnFamilyFilter* filter : slots_.All()) {
    std::lock_guard<std::mutex> handle_lock(filter->handle_mutex());
    if (filter->handle() == nullptr) continue;
    absl::Status status =
        FromRocksDbStatus(db_->Flush(rocksdb::FlushOptions(), filter->handle()),
                          "flushing " + filter->name());
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

}  // namespace presence_internal
}  // namespace sstfilter
