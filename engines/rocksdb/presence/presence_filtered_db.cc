#include "engines/rocksdb/presence/presence_filtered_db.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <shared_mutex>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engines/rocksdb/presence/batch_keys.h"
#include "engines/rocksdb/presence/filtered_iterator.h"
#include "engines/rocksdb/presence/key_scans.h"
#include "engines/rocksdb/presence/multi_get.h"
#include "engines/rocksdb/presence/presence_core.h"
#include "inmemory/mutable/mutable_bloom.h"
#include "rocksdb/env.h"

namespace sstfilter {

using presence_internal::ColumnFamilyFilter;
using presence_internal::PresenceCore;

namespace {

absl::string_view View(const rocksdb::Slice& slice) {
  return absl::string_view(slice.data(), slice.size());
}

rocksdb::Status ToRocksDb(const absl::Status& status) {
  if (status.ok()) return rocksdb::Status::OK();
  const std::string message(status.message());
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
      return rocksdb::Status::InvalidArgument(message);
    case absl::StatusCode::kNotFound:
      return rocksdb::Status::NotFound(message);
    case absl::StatusCode::kDataLoss:
      return rocksdb::Status::Corruption(message);
    case absl::StatusCode::kUnimplemented:
      return rocksdb::Status::NotSupported(message);
    default:
      return rocksdb::Status::IOError(message);
  }
}

// RocksDB 9 answers a lookup or a Merge naming a null column family handle
// with InvalidArgument; 7.8.3 fails an assertion or dereferences the null.
// Under 7.8.3 the wrapper gives the later release's answer instead of a
// crash.
constexpr bool kGuardNullHandles = ROCKSDB_MAJOR < 9;

rocksdb::Status NullHandleError() {
  return rocksdb::Status::InvalidArgument(
      "column family handle cannot be null");
}

#if ROCKSDB_MAJOR < 9
// Answers every key of a MultiGet with NullHandleError.
void RefuseAll(size_t num_keys, rocksdb::PinnableSlice* values,
               rocksdb::Status* statuses) {
  for (size_t i = 0; i < num_keys; ++i) {
    values[i].Reset();
    statuses[i] = NullHandleError();
  }
}

bool AnyNull(rocksdb::ColumnFamilyHandle** column_families, size_t num_keys) {
  return std::find(column_families, column_families + num_keys, nullptr) !=
         column_families + num_keys;
}
#endif

}  // namespace

const char* PresenceRebuildReasonName(PresenceRebuildReason reason) {
  switch (reason) {
    case PresenceRebuildReason::kNone:
      return "none";
    case PresenceRebuildReason::kNoSavedFilter:
      return "no saved filter";
    case PresenceRebuildReason::kDamaged:
      return "saved filter damaged";
    case PresenceRebuildReason::kOtherDatabase:
      return "saved filter of another database";
    case PresenceRebuildReason::kUnreadableTables:
      return "a table the save does not cover is unreadable";
    case PresenceRebuildReason::kImported:
      return "imported column family";
    case PresenceRebuildReason::kRateAboveTarget:
      return "estimated rate above its bound";
    case PresenceRebuildReason::kRequested:
      return "requested";
    case PresenceRebuildReason::kUnreadableIngestedFile:
      return "a file being ingested could not be read";
    case PresenceRebuildReason::kPrefixExtractorChanged:
      return "the prefix extractor changed";
    case PresenceRebuildReason::kRangeItemsMissing:
      return "the saved filter holds no range items";
    case PresenceRebuildReason::kRecoveryMayRollBack:
      return "opened with best_efforts_recovery, which may roll back";
  }
  return "unknown";
}

absl::Status ValidatePresenceFilterOptions(
    const PresenceFilterOptions& options) {
  if (!(options.fpp > 0 && options.fpp < 1)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "PresenceFilterOptions.fpp must be in (0, 1), not ", options.fpp));
  }
  if (options.expected_keys == 0) {
    return absl::InvalidArgumentError(
        "PresenceFilterOptions.expected_keys must be at least 1, not 0");
  }
  if (!(options.rebuild_fpp_ratio > 1) ||
      !std::isfinite(options.rebuild_fpp_ratio)) {
    return absl::InvalidArgumentError(
        absl::StrCat("PresenceFilterOptions.rebuild_fpp_ratio must be a "
                     "finite number above 1, not ",
                     options.rebuild_fpp_ratio));
  }
  if (options.save_interval.count() < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("PresenceFilterOptions.save_interval must not be "
                     "negative, not ",
                     options.save_interval.count(), " ms"));
  }
  if (!(options.table_bytes_per_saved_byte >= 0) ||
      !std::isfinite(options.table_bytes_per_saved_byte)) {
    return absl::InvalidArgumentError(
        absl::StrCat("PresenceFilterOptions.table_bytes_per_saved_byte must "
                     "be a finite number, not negative, not ",
                     options.table_bytes_per_saved_byte));
  }
  // The filter's own checks: an fpp 100 bits/key cannot reach, a body too
  // large for its key count.
  absl::StatusOr<MutableBloomFilter> probe = MutableBloomFilter::Create(
      FilterOptions::Fpp(options.fpp), /*expected_keys=*/1);
  if (!probe.ok()) return probe.status();
  return absl::OkStatus();
}

std::string PresenceFilterFileName(const std::string& db_path) {
  return db_path + "/SSTFILTER-PRESENCE";
}

void RemovePresenceFilterFiles(const std::string& db_path) {
  rocksdb::Env* env = rocksdb::Env::Default();
  const std::string saved = PresenceFilterFileName(db_path);
  const std::string name = saved.substr(saved.find_last_of('/') + 1);
  std::vector<std::string> children;
  if (!env->GetChildren(db_path, &children).ok()) return;
  for (const std::string& child : children) {
    if (absl::StartsWith(child, name)) {
      env->DeleteFile(absl::StrCat(db_path, "/", child)).PermitUncheckedError();
    }
  }
}

absl::StatusOr<std::unique_ptr<PresenceFilteredDB>> PresenceFilteredDB::Open(
    const rocksdb::Options& options, const std::string& path,
    const PresenceFilterOptions& filter_options) {
  std::vector<rocksdb::ColumnFamilyDescriptor> column_families = {
      {rocksdb::kDefaultColumnFamilyName,
       rocksdb::ColumnFamilyOptions(options)}};
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  absl::StatusOr<std::unique_ptr<PresenceFilteredDB>> db =
      Open(rocksdb::DBOptions(options), path, column_families, &handles,
           filter_options);
  if (db.ok()) {
    // The default column family's handle from Open is not needed: the
    // database keeps its own (DefaultColumnFamily).
    (*db)->DestroyColumnFamilyHandle(handles[0]).PermitUncheckedError();
  }
  return db;
}

absl::StatusOr<std::unique_ptr<PresenceFilteredDB>> PresenceFilteredDB::Open(
    const rocksdb::DBOptions& options, const std::string& path,
    const std::vector<rocksdb::ColumnFamilyDescriptor>& column_families,
    std::vector<rocksdb::ColumnFamilyHandle*>* handles,
    const PresenceFilterOptions& filter_options) {
  absl::Status valid = ValidatePresenceFilterOptions(filter_options);
  if (!valid.ok()) return valid;
  auto signal = std::make_shared<presence_internal::BackgroundSignal>();
  rocksdb::DBOptions with_listener = options;
  with_listener.listeners.push_back(
      presence_internal::NewBackgroundWorkListener(signal));
  rocksdb::DB* db = nullptr;
  rocksdb::Status opened =
      rocksdb::DB::Open(with_listener, path, column_families, handles, &db);
  if (!opened.ok()) {
    return presence_internal::FromRocksDbStatus(opened, "opening " + path);
  }
  auto core = std::make_unique<PresenceCore>(filter_options, path, signal, db);
  core->Start(*handles);
  return std::unique_ptr<PresenceFilteredDB>(
      new PresenceFilteredDB(db, std::move(core)));
}

PresenceFilteredDB::PresenceFilteredDB(rocksdb::DB* db,
                                       std::unique_ptr<PresenceCore> core)
    : rocksdb::StackableDB(db), core_(std::move(core)) {}

PresenceFilteredDB::~PresenceFilteredDB() {
  // Background work reads through db_, which StackableDB deletes after this.
  core_->Stop();
}

absl::Status PresenceFilteredDB::CloseAndSave() {
  // A filter still recovering or rebuilding could not be saved, and the next
  // open would scan again: let it finish first.
  core_->WaitUntilServing(std::chrono::milliseconds::max()).IgnoreError();
  core_->Stop();
  absl::Status status = core_->FlushAll();
  if (status.ok()) status = core_->Save();
  absl::Status closed =
      presence_internal::FromRocksDbStatus(db_->Close(), "closing");
  return status.ok() ? closed : status;
}

rocksdb::Status PresenceFilteredDB::Close() {
  core_->Stop();
  return db_->Close();
}

absl::Status PresenceFilteredDB::SaveFilters() { return core_->Save(); }

absl::Status PresenceFilteredDB::WaitUntilServing(
    std::chrono::milliseconds timeout) {
  return core_->WaitUntilServing(timeout);
}

absl::Status PresenceFilteredDB::RebuildFilter(
    rocksdb::ColumnFamilyHandle* column_family) {
  return core_->RequestRebuild(column_family,
                               PresenceRebuildReason::kRequested);
}

PresenceFilterState PresenceFilteredDB::State(
    rocksdb::ColumnFamilyHandle* column_family) const {
  return core_->State(column_family);
}

PresenceFilterStats PresenceFilteredDB::Stats(
    rocksdb::ColumnFamilyHandle* column_family) const {
  return core_->Stats(column_family);
}

#if ROCKSDB_MAJOR >= 9
rocksdb::Status PresenceFilteredDB::Get(
    const rocksdb::ReadOptions& options,
    rocksdb::ColumnFamilyHandle* column_family, const rocksdb::Slice& key,
    rocksdb::PinnableSlice* value, std::string* timestamp) {
  if (timestamp == nullptr &&
      core_->RulesOut(options, column_family, View(key))) {
    value->Reset();  // as RocksDB's Get leaves it on NotFound
    return rocksdb::Status::NotFound();
  }
  return db_->Get(options, column_family, key, value, timestamp);
}
#else
rocksdb::Status PresenceFilteredDB::Get(
    const rocksdb::ReadOptions& options,
    rocksdb::ColumnFamilyHandle* column_family, const rocksdb::Slice& key,
    rocksdb::PinnableSlice* value) {
  if (kGuardNullHandles && column_family == nullptr) {
    value->Reset();
    return NullHandleError();
  }
  if (core_->RulesOut(options, column_family, View(key))) {
    value->Reset();  // as RocksDB's Get leaves it on NotFound
    return rocksdb::Status::NotFound();
  }
  return db_->Get(options, column_family, key, value);
}

rocksdb::Status PresenceFilteredDB::Get(
    const rocksdb::ReadOptions& options,
    rocksdb::ColumnFamilyHandle* column_family, const rocksdb::Slice& key,
    rocksdb::PinnableSlice* value, std::string* timestamp) {
  if (kGuardNullHandles && column_family == nullptr) {
    value->Reset();
    return NullHandleError();
  }
  return db_->Get(options, column_family, key, value, timestamp);
}

void PresenceFilteredDB::MultiGet(const rocksdb::ReadOptions& options,
                                  rocksdb::ColumnFamilyHandle* column_family,
                                  size_t num_keys, const rocksdb::Slice* keys,
                                  rocksdb::PinnableSlice* values,
                                  std::string* timestamps,
                                  rocksdb::Status* statuses,
                                  bool sorted_input) {
  if (kGuardNullHandles && column_family == nullptr) {
    return RefuseAll(num_keys, values, statuses);
  }
  db_->MultiGet(options, column_family, num_keys, keys, values, timestamps,
                statuses, sorted_input);
}

void PresenceFilteredDB::MultiGet(
    const rocksdb::ReadOptions& options, size_t num_keys,
    rocksdb::ColumnFamilyHandle** column_families, const rocksdb::Slice* keys,
    rocksdb::PinnableSlice* values, std::string* timestamps,
    rocksdb::Status* statuses, bool sorted_input) {
  if (kGuardNullHandles && AnyNull(column_families, num_keys)) {
    return RefuseAll(num_keys, values, statuses);
  }
  db_->MultiGet(options, num_keys, column_families, keys, values, timestamps,
                statuses, sorted_input);
}

std::vector<rocksdb::Status> PresenceFilteredDB::MultiGet(
    const rocksdb::ReadOptions& options,
    const std::vector<rocksdb::ColumnFamilyHandle*>& column_families,
    const std::vector<rocksdb::Slice>& keys, std::vector<std::string>* values,
    std::vector<std::string>* timestamps) {
  if (kGuardNullHandles &&
      std::find(column_families.begin(), column_families.end(), nullptr) !=
          column_families.end()) {
    values->assign(keys.size(), std::string());
    timestamps->assign(keys.size(), std::string());
    return std::vector<rocksdb::Status>(keys.size(), NullHandleError());
  }
  return db_->MultiGet(options, column_families, keys, values, timestamps);
}

rocksdb::Status PresenceFilteredDB::Resume() { return db_->Resume(); }
#endif

#if ROCKSDB_MAJOR >= 9
void PresenceFilteredDB::MultiGet(
    const rocksdb::ReadOptions& options, size_t num_keys,
    rocksdb::ColumnFamilyHandle** column_families, const rocksdb::Slice* keys,
    rocksdb::PinnableSlice* values, std::string* timestamps,
    rocksdb::Status* statuses, bool sorted_input) {
  if (timestamps != nullptr) {
    db_->MultiGet(options, num_keys, column_families, keys, values, timestamps,
                  statuses, sorted_input);
    return;
  }
  presence_internal::MultiGetThroughFilter(
      core_.get(), db_, options, num_keys, {nullptr, column_families}, keys,
      values, statuses,
      [&](const rocksdb::ReadOptions& run_options, size_t n,
          rocksdb::ColumnFamilyHandle** families,
          const rocksdb::Slice* run_keys, rocksdb::PinnableSlice* run_values,
          rocksdb::Status* run_statuses) {
        db_->MultiGet(run_options, n, families, run_keys, run_values,
                      /*timestamps=*/nullptr, run_statuses, sorted_input);
      });
}
#else
void PresenceFilteredDB::MultiGet(const rocksdb::ReadOptions& options,
                                  rocksdb::ColumnFamilyHandle* column_family,
                                  size_t num_keys, const rocksdb::Slice* keys,
                                  rocksdb::PinnableSlice* values,
                                  rocksdb::Status* statuses,
                                  bool sorted_input) {
  if (kGuardNullHandles && column_family == nullptr) {
    return RefuseAll(num_keys, values, statuses);
  }
  presence_internal::MultiGetThroughFilter(
      core_.get(), db_, options, num_keys, {column_family, nullptr}, keys,
      values, statuses,
      [&](const rocksdb::ReadOptions& run_options, size_t n,
          rocksdb::ColumnFamilyHandle**, const rocksdb::Slice* run_keys,
          rocksdb::PinnableSlice* run_values, rocksdb::Status* run_statuses) {
        db_->MultiGet(run_options, column_family, n, run_keys, run_values,
                      run_statuses, sorted_input);
      });
}

void PresenceFilteredDB::MultiGet(const rocksdb::ReadOptions& options,
                                  size_t num_keys,
                                  rocksdb::ColumnFamilyHandle** column_families,
                                  const rocksdb::Slice* keys,
                                  rocksdb::PinnableSlice* values,
                                  rocksdb::Status* statuses,
                                  bool sorted_input) {
  if (kGuardNullHandles && AnyNull(column_families, num_keys)) {
    return RefuseAll(num_keys, values, statuses);
  }
  presence_internal::MultiGetThroughFilter(
      core_.get(), db_, options, num_keys, {nullptr, column_families}, keys,
      values, statuses,
      [&](const rocksdb::ReadOptions& run_options, size_t n,
          rocksdb::ColumnFamilyHandle** families,
          const rocksdb::Slice* run_keys, rocksdb::PinnableSlice* run_values,
          rocksdb::Status* run_statuses) {
        db_->MultiGet(run_options, n, families, run_keys, run_values,
                      run_statuses, sorted_input);
      });
}
#endif

bool PresenceFilteredDB::KeyMayExist(const rocksdb::ReadOptions& options,
                                     rocksdb::ColumnFamilyHandle* column_family,
                                     const rocksdb::Slice& key,
                                     std::string* value, bool* value_found) {
  if (kGuardNullHandles && column_family == nullptr) {
    if (value_found != nullptr) *value_found = false;
    return false;
  }
  if (core_->RulesOut(options, column_family, View(key))) {
    if (value_found != nullptr) *value_found = false;
    return false;
  }
  return db_->KeyMayExist(options, column_family, key, value, value_found);
}

bool PresenceFilteredDB::KeyMayExist(const rocksdb::ReadOptions& options,
                                     rocksdb::ColumnFamilyHandle* column_family,
                                     const rocksdb::Slice& key,
                                     std::string* value, std::string* timestamp,
                                     bool* value_found) {
  if (kGuardNullHandles && column_family == nullptr) {
    if (value_found != nullptr) *value_found = false;
    return false;
  }
  return db_->KeyMayExist(options, column_family, key, value, timestamp,
                          value_found);
}

namespace {

// The column family a write names: RocksDB writes a null handle's keys to the
// default column family (its WriteBatch takes a null handle as id 0), or
// refuses the write; either way the default filter may take the key.
uint32_t WrittenColumnFamily(rocksdb::ColumnFamilyHandle* column_family) {
  return column_family == nullptr ? 0 : column_family->GetID();
}

// Adds key to the column family's filter, if it has one. REQUIRES: the
// writers lock, shared.
void AddKey(PresenceCore* core, rocksdb::ColumnFamilyHandle* column_family,
            const rocksdb::Slice& key) {
  core->WriteBegins();
  ColumnFamilyFilter* filter =
      core->FilterOf(WrittenColumnFamily(column_family));
  if (filter != nullptr) filter->Add(View(key));
}

// Adds a batch's keys to their column families' filters, each run of keys of
// one column family in one batched Add, which prefetches the blocks of a
// group of keys before setting any bit so that their cache misses overlap.
// REQUIRES: the writers lock, shared.
void AddBatchKeys(PresenceCore* core,
                  const presence_internal::BatchKeys& batch) {
  core->WriteBegins();
  const std::vector<uint32_t>& ids = batch.column_family_ids;
  for (size_t begin = 0, end = 0; begin < ids.size(); begin = end) {
    end = begin + 1;
    while (end < ids.size() && ids[end] == ids[begin]) ++end;
    ColumnFamilyFilter* filter = core->FilterOf(ids[begin]);
    if (filter != nullptr) {
      filter->Add(absl::MakeConstSpan(batch.keys).subspan(begin, end - begin));
    }
  }
}

}  // namespace

rocksdb::Status PresenceFilteredDB::Put(
    const rocksdb::WriteOptions& options,
    rocksdb::ColumnFamilyHandle* column_family, const rocksdb::Slice& key,
    const rocksdb::Slice& value) {
  std::shared_lock<presence_internal::WritersLock> lock(core_->writers());
  AddKey(core_.get(), column_family, key);
  return db_->Put(options, column_family, key, value);
}

rocksdb::Status PresenceFilteredDB::Put(
    const rocksdb::WriteOptions& options,
    rocksdb::ColumnFamilyHandle* column_family, const rocksdb::Slice& key,
    const rocksdb::Slice& ts, const rocksdb::Slice& value) {
  std::shared_lock<presence_internal::WritersLock> lock(core_->writers());
  AddKey(core_.get(), column_family, key);
  return db_->Put(options, column_family, key, ts, value);
}

rocksdb::Status PresenceFilteredDB::PutEntity(
    const rocksdb::WriteOptions& options,
    rocksdb::ColumnFamilyHandle* column_family, const rocksdb::Slice& key,
    const rocksdb::WideColumns& columns) {
  std::shared_lock<presence_internal::WritersLock> lock(core_->writers());
  AddKey(core_.get(), column_family, key);
  return db_->PutEntity(options, column_family, key, columns);
}

#if ROCKSDB_MAJOR >= 9
rocksdb::Status PresenceFilteredDB::PutEntity(
    const rocksdb::WriteOptions& options, const rocksdb::Slice& key,
    const rocksdb::AttributeGroups& attribute_groups) {
  std::shared_lock<presence_internal::WritersLock> lock(core_->writers());
  for (const rocksdb::AttributeGroup& group : attribute_groups) {
    AddKey(core_.get(), group.column_family(), key);
  }
  return db_->PutEntity(options, key, attribute_groups);
}
#endif

rocksdb::Status PresenceFilteredDB::Merge(
    const rocksdb::WriteOptions& options,
    rocksdb::ColumnFamilyHandle* column_family, const rocksdb::Slice& key,
    const rocksdb::Slice& value) {
  if (kGuardNullHandles && column_family == nullptr) return NullHandleError();
  std::shared_lock<presence_internal::WritersLock> lock(core_->writers());
  AddKey(core_.get(), column_family, key);
  return db_->Merge(options, column_family, key, value);
}

rocksdb::Status PresenceFilteredDB::Merge(
    const rocksdb::WriteOptions& options,
    rocksdb::ColumnFamilyHandle* column_family, const rocksdb::Slice& key,
    const rocksdb::Slice& ts, const rocksdb::Slice& value) {
  if (kGuardNullHandles && column_family == nullptr) return NullHandleError();
  std::shared_lock<presence_internal::WritersLock> lock(core_->writers());
  AddKey(core_.get(), column_family, key);
  return db_->Merge(options, column_family, key, ts, value);
}

rocksdb::Status PresenceFilteredDB::Write(const rocksdb::WriteOptions& options,
                                          rocksdb::WriteBatch* updates) {
  // RocksDB's own answer to a missing batch (InvalidArgument).
  if (updates == nullptr) return db_->Write(options, updates);
  presence_internal::BatchKeys keys;
  absl::Status readable = presence_internal::VisibleKeysOf(*updates, &keys);
  if (!readable.ok()) return ToRocksDb(readable);
  std::shared_lock<presence_internal::WritersLock> lock(core_->writers());
  AddBatchKeys(core_.get(), keys);
  return db_->Write(options, updates);
}

#if ROCKSDB_MAJOR >= 9
rocksdb::Status PresenceFilteredDB::WriteWithCallback(
    const rocksdb::WriteOptions& options, rocksdb::WriteBatch* updates,
    rocksdb::UserWriteCallback* user_write_cb) {
  if (updates == nullptr) {
    return db_->WriteWithCallback(options, updates, user_write_cb);
  }
  presence_internal::BatchKeys keys;
  absl::Status readable = presence_internal::VisibleKeysOf(*updates, &keys);
  if (!readable.ok()) return ToRocksDb(readable);
  std::shared_lock<presence_internal::WritersLock> lock(core_->writers());
  AddBatchKeys(core_.get(), keys);
  return db_->WriteWithCallback(options, updates, user_write_cb);
}
#endif

namespace {

// Adds every key of the files to the column family's filter. A file it
// cannot read leaves the filter lacking keys the ingestion may make visible:
// the filter then stops serving until a rebuild has read the tables, and
// RocksDB's own answer to the ingestion stands. REQUIRES: the writers lock,
// shared.
void AddFileKeys(PresenceCore* core, rocksdb::DB* db,
                 rocksdb::ColumnFamilyHandle* column_family,
                 const std::vector<std::string>& files) {
  core->WriteBegins();
  ColumnFamilyFilter* filter =
      core->FilterOf(WrittenColumnFamily(column_family));
  if (filter == nullptr) return;
  const rocksdb::Options options = db->GetOptions(
      column_family == nullptr ? db->DefaultColumnFamily() : column_family);
  for (const std::string& file : files) {
    // Every filter a write reaches: the serving one and one being rebuilt.
    for (presence_internal::PresenceFilter* target :
         {filter->serving_for_writes(), filter->building()}) {
      if (target == nullptr) continue;
      presence_internal::KeyScan scan;
      scan.add = [filter,
                  target = target](absl::Span<const absl::string_view> keys) {
        filter->AddTo(target, keys);
      };
      absl::StatusOr<uint64_t> added =
          presence_internal::AddTableFileKeys(options, file, scan);
      if (!added.ok()) {
        core->StopServing(filter,
                          PresenceRebuildReason::kUnreadableIngestedFile);
        return;
      }
    }
  }
}

}  // namespace

rocksdb::Status PresenceFilteredDB::IngestExternalFile(
    rocksdb::ColumnFamilyHandle* column_family,
    const std::vector<std::string>& external_files,
    const rocksdb::IngestExternalFileOptions& options) {
  std::shared_lock<presence_internal::WritersLock> lock(core_->writers());
  AddFileKeys(core_.get(), db_, column_family, external_files);
  return db_->IngestExternalFile(column_family, external_files, options);
}

rocksdb::Status PresenceFilteredDB::IngestExternalFiles(
    const std::vector<rocksdb::IngestExternalFileArg>& args) {
  std::shared_lock<presence_internal::WritersLock> lock(core_->writers());
  for (const rocksdb::IngestExternalFileArg& arg : args) {
    AddFileKeys(core_.get(), db_, arg.column_family, arg.external_files);
  }
  return db_->IngestExternalFiles(args);
}

rocksdb::Status PresenceFilteredDB::CreateColumnFamily(
    const rocksdb::ColumnFamilyOptions& options, const std::string& name,
    rocksdb::ColumnFamilyHandle** handle) {
  rocksdb::Status status = db_->CreateColumnFamily(options, name, handle);
  if (status.ok()) core_->AddColumnFamily(*handle, /*imported=*/false);
  return status;
}

rocksdb::Status PresenceFilteredDB::CreateColumnFamilies(
    const rocksdb::ColumnFamilyOptions& options,
    const std::vector<std::string>& names,
    std::vector<rocksdb::ColumnFamilyHandle*>* handles) {
  rocksdb::Status status = db_->CreateColumnFamilies(options, names, handles);
  for (rocksdb::ColumnFamilyHandle* handle : *handles) {
    core_->AddColumnFamily(handle, /*imported=*/false);
  }
  return status;
}

rocksdb::Status PresenceFilteredDB::CreateColumnFamilies(
    const std::vector<rocksdb::ColumnFamilyDescriptor>& column_families,
    std::vector<rocksdb::ColumnFamilyHandle*>* handles) {
  rocksdb::Status status = db_->CreateColumnFamilies(column_families, handles);
  for (rocksdb::ColumnFamilyHandle* handle : *handles) {
    core_->AddColumnFamily(handle, /*imported=*/false);
  }
  return status;
}

rocksdb::Status PresenceFilteredDB::CreateColumnFamilyWithImport(
    const rocksdb::ColumnFamilyOptions& options, const std::string& name,
    const rocksdb::ImportColumnFamilyOptions& import_options,
    const rocksdb::ExportImportFilesMetaData& metadata,
    rocksdb::ColumnFamilyHandle** handle) {
  rocksdb::Status status = db_->CreateColumnFamilyWithImport(
      options, name, import_options, metadata, handle);
  if (status.ok()) core_->AddColumnFamily(*handle, /*imported=*/true);
  return status;
}

#if ROCKSDB_MAJOR >= 9
rocksdb::Status PresenceFilteredDB::CreateColumnFamilyWithImport(
    const rocksdb::ColumnFamilyOptions& options, const std::string& name,
    const rocksdb::ImportColumnFamilyOptions& import_options,
    const std::vector<const rocksdb::ExportImportFilesMetaData*>& metadatas,
    rocksdb::ColumnFamilyHandle** handle) {
  rocksdb::Status status = db_->CreateColumnFamilyWithImport(
      options, name, import_options, metadatas, handle);
  if (status.ok()) core_->AddColumnFamily(*handle, /*imported=*/true);
  return status;
}
#endif

void PresenceFilteredDB::GetAllColumnFamilyMetaData(
    std::vector<rocksdb::ColumnFamilyMetaData>* metadata) {
  db_->GetAllColumnFamilyMetaData(metadata);
}

rocksdb::Status PresenceFilteredDB::GetStatsHistory(
    uint64_t start_time, uint64_t end_time,
    std::unique_ptr<rocksdb::StatsHistoryIterator>* stats_iterator) {
  return db_->GetStatsHistory(start_time, end_time, stats_iterator);
}

rocksdb::Iterator* PresenceFilteredDB::NewIterator(
    const rocksdb::ReadOptions& options,
    rocksdb::ColumnFamilyHandle* column_family) {
  return presence_internal::NewFilteredIterator(db_, core_.get(), options,
                                                column_family);
}

rocksdb::Status PresenceFilteredDB::NewIterators(
    const rocksdb::ReadOptions& options,
    const std::vector<rocksdb::ColumnFamilyHandle*>& column_families,
    std::vector<rocksdb::Iterator*>* iterators) {
  return presence_internal::NewFilteredIterators(db_, core_.get(), options,
                                                 column_families, iterators);
}

rocksdb::Status PresenceFilteredDB::SetOptions(
    rocksdb::ColumnFamilyHandle* column_family,
    const std::unordered_map<std::string, std::string>& new_options) {
  if (new_options.count("prefix_extractor") == 0) {
    return db_->SetOptions(column_family, new_options);
  }
  core_->BeginPrefixChange(column_family);
  rocksdb::Status status = db_->SetOptions(column_family, new_options);
  core_->EndPrefixChange(column_family);
  return status;
}

rocksdb::Status PresenceFilteredDB::NewDefaultReplayer(
    const std::vector<rocksdb::ColumnFamilyHandle*>&,
    std::unique_ptr<rocksdb::TraceReader>&&,
    std::unique_ptr<rocksdb::Replayer>*) {
  return rocksdb::Status::NotSupported(
      "PresenceFilteredDB: a replayer writes into the base database, past "
      "the presence filters; replay through GetBaseDB() with the wrapper "
      "closed, then reopen it (the tables it wrote are read at open)");
}

rocksdb::Status PresenceFilteredDB::DestroyColumnFamilyHandle(
    rocksdb::ColumnFamilyHandle* column_family) {
  core_->ForgetHandle(column_family);
  return db_->DestroyColumnFamilyHandle(column_family);
}

}  // namespace sstfilter
