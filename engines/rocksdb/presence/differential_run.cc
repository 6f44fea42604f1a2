#include "engines/rocksdb/presence/differential_run.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdarg>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "engines/rocksdb/presence/case_blind_comparator.h"
#include "engines/rocksdb/presence/filtered_iterator.h"
#include "rocksdb/comparator.h"
#include "rocksdb/convenience.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/utilities/checkpoint.h"
#include "rocksdb/write_batch.h"

namespace sstfilter {
namespace presence_testing {
namespace {

// Distinct byte strings a key is chosen from: "key00".."key23" and the same
// in capitals, one key each under a case-blind comparator.
constexpr int kKeyNames = 24;
constexpr int kKeys = 2 * kKeyNames;
// Column families at most, the default one included.
constexpr size_t kMaxFamilies = 6;
// Snapshots held at most.
constexpr size_t kMaxSnapshots = 4;
// The column families' prefix extractor: keys' first bytes ("key0", "one1").
constexpr size_t kPrefixBytes = 4;
// Operations named in an error, the latest last.
constexpr size_t kLogLength = 40;
// Writes of a key named in an error about it, the latest last: the log's
// tail rarely reaches back to them.
constexpr size_t kKeyWritesLength = 8;
// The longest a costly operation waits for the filters to serve.
constexpr std::chrono::milliseconds kServingWait{60000};
// A comparison during which RocksDB's own answer moved is made again, this
// many times at most, each once RocksDB's flushes and compactions are done:
// reads RocksDB leaves to its internal state (ignore_range_deletions over a
// range tombstone, a tier that stops at the cache) can change answer more
// than once while the wrapper is asked.
constexpr int kSettledRetries = 2;
// The longest such a retry waits for RocksDB's background work.
constexpr std::chrono::seconds kSettleWait{10};

std::string Key(uint8_t byte) {
  const int index = byte % kKeys;
  return absl::StrCat(index < kKeyNames ? "key" : "KEY",
                      index % kKeyNames < 10 ? "0" : "", index % kKeyNames);
}

// Keys a PutEntity writes and keys a Merge writes never meet: RocksDB 7.8.3
// cannot merge into a wide-column entity (and then fails to open). Entity
// keys are those whose index is a multiple of 3, in either case.
std::string EntityKey(uint8_t byte) { return Key(3 * (byte % (kKeys / 3))); }
std::string MergeKey(uint8_t byte) {
  const int n = byte % (2 * kKeys / 3);
  return Key(static_cast<uint8_t>(n / 2 * 3 + 1 + n % 2));
}

// Keys only Put and SingleDelete write: RocksDB fails a flush that meets a
// SingleDelete and a Delete of one key.
constexpr int kSingleKeys = 12;
std::string SingleKey(uint8_t byte) {
  return absl::StrCat("one", byte % kSingleKeys);
}

// Column families whose name starts with this get CaseBlindComparator, which
// calls keys of different bytes equal (and so gets no filter).
constexpr absl::string_view kCaseBlindPrefix = "ci";

using presence_testing::CaseBlindComparator;

// Joins merge operands with ',', keeping the last kMergedLength bytes, so
// that an answer shows the latest operands and a long run's values stay
// short.
constexpr size_t kMergedLength = 48;
class JoinOperator : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice&, const rocksdb::Slice* existing,
             const rocksdb::Slice& value, std::string* new_value,
             rocksdb::Logger*) const override {
    *new_value = existing == nullptr ? value.ToString()
                                     : absl::StrCat(existing->ToString(), ",",
                                                    value.ToString());
    if (new_value->size() > kMergedLength) {
      new_value->erase(0, new_value->size() - kMergedLength);
    }
    return true;
  }
  const char* Name() const override { return "sstfilter.test.Join"; }
};

// RocksDB's info log, dropped: in a memory Env it would only grow.
class DiscardingLogger : public rocksdb::Logger {
 public:
  using rocksdb::Logger::Logv;
  void Logv(const char*, va_list) override {}
};

const rocksdb::Comparator* ComparatorFor(const std::string& family) {
  static const CaseBlindComparator* case_blind = new CaseBlindComparator();
  return absl::string_view(family).substr(0, kCaseBlindPrefix.size()) ==
                 kCaseBlindPrefix
             ? case_blind
             : rocksdb::BytewiseComparator();
}

// Two keys in the order of the column family's comparator: RocksDB takes a
// reversed range deletion, then fails every flush of it.
std::pair<std::string, std::string> Ordered(rocksdb::ColumnFamilyHandle* family,
                                            std::string a, std::string b) {
  const rocksdb::Comparator* comparator =
      ComparatorFor(family == nullptr ? rocksdb::kDefaultColumnFamilyName
                                      : family->GetName());
  if (comparator->Compare(a, b) > 0) std::swap(a, b);
  return {std::move(a), std::move(b)};
}

std::string Answer(const rocksdb::Status& status,
                   const rocksdb::PinnableSlice& value) {
  return status.ok() ? absl::StrCat("OK '", value.ToString(), "'")
                     : status.ToString();
}

enum Operation : uint8_t {
  kPut,
  kMerge,
  kPutEntity,
  kDelete,
  kSingleDelete,
  kDeleteRange,
  kBatch,
  kGet,
  kGetAgain,  // lookups are as frequent as writes
  kMultiGet,
  kKeyMayExist,
  kIterate,
  kSnapshot,
  kFlush,
  kCompactRange,
  kCompactFiles,
  kDeleteFilesInRange,
  kIngest,
  kCreateFamily,
  kDropFamily,
  kImportFamily,
  kRebuild,
  kSave,
  kReopen,
  kCheckpoint,
  kOperationCount,
};

}  // namespace

class DifferentialRun::Impl {
 public:
  explicit Impl(const DifferentialOptions& options) : options_(options) {}
  ~Impl() { Close(/*save=*/false).IgnoreError(); }

  absl::Status OpenAt(const std::string& path,
                      bool best_efforts_recovery = false) {
    path_ = path;
    rocksdb::DBOptions db_options = DbOptions();
    db_options.best_efforts_recovery = best_efforts_recovery;
    std::vector<rocksdb::ColumnFamilyDescriptor> descriptors =
        Descriptors(path);
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    absl::StatusOr<std::unique_ptr<PresenceFilteredDB>> db =
        PresenceFilteredDB::Open(db_options, path, descriptors, &handles,
                                 FilterOptions());
    if (!db.ok()) return db.status();
    db_ = *std::move(db);
    handles_ = handles;
    return absl::OkStatus();
  }

  absl::Status Close(bool save) {
    if (db_ == nullptr) return absl::OkStatus();
    for (const rocksdb::Snapshot* snapshot : snapshots_) {
      db_->ReleaseSnapshot(snapshot);
    }
    snapshots_.clear();
    for (rocksdb::ColumnFamilyHandle* handle : handles_) {
      db_->DestroyColumnFamilyHandle(handle).PermitUncheckedError();
    }
    handles_.clear();
    absl::Status status = absl::OkStatus();
    if (save) status = db_->CloseAndSave();
    db_.reset();
    return status;
  }

  absl::Status Apply(OperationBytes* bytes, size_t max_operations) {
    for (size_t i = 0; i < max_operations && !bytes->done(); ++i) {
      ++counts_.operations;
      absl::Status status = ApplyOne(bytes);
      if (!status.ok()) return Failure(status);
    }
    return absl::OkStatus();
  }

  absl::Status CheckAllKeys() {
    for (rocksdb::ColumnFamilyHandle* family : handles_) {
      std::vector<uint8_t> all;
      for (int k = 0; k < kKeys; ++k) {
        absl::Status same = CompareGet(rocksdb::ReadOptions(), family, Key(k));
        if (!same.ok()) return Failure(same);
        all.push_back(static_cast<uint8_t>(k));
      }
      absl::Status same = CompareMultiGet(rocksdb::ReadOptions(), {family}, all,
                                          /*caller_buffers=*/false);
      if (!same.ok()) return Failure(same);
      for (int k = 0; k < kSingleKeys; ++k) {
        same = CompareGet(rocksdb::ReadOptions(), family,
                          SingleKey(static_cast<uint8_t>(k)));
        if (!same.ok()) return Failure(same);
      }
    }
    return absl::OkStatus();
  }

  DifferentialRun::Counts counts_;

 private:
  rocksdb::DBOptions DbOptions() const {
    rocksdb::DBOptions db_options;
    db_options.create_if_missing = true;
    db_options.create_missing_column_families = true;
    db_options.env = options_.env;
    db_options.info_log = info_log_;
    return db_options;
  }

  rocksdb::ColumnFamilyOptions FamilyOptions(const std::string& name) const {
    rocksdb::ColumnFamilyOptions family;
    family.comparator = ComparatorFor(name);
    family.merge_operator = merge_operator_;
    // Small tables and early compactions, so that a short sequence moves
    // keys through several levels.
    family.write_buffer_size = 64 << 10;
    family.level0_file_num_compaction_trigger = 2;
    // Prefixes of most keys' first bytes, for the prefix seeks.
    family.prefix_extractor.reset(
        rocksdb::NewFixedPrefixTransform(kPrefixBytes));
    return family;
  }

  std::vector<rocksdb::ColumnFamilyDescriptor> Descriptors(
      const std::string& path) const {
    std::vector<std::string> names;
    rocksdb::DBOptions db_options = DbOptions();
    if (!rocksdb::DB::ListColumnFamilies(db_options, path, &names).ok()) {
      names = {rocksdb::kDefaultColumnFamilyName};
    }
    std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
    for (const std::string& name : names) {
      descriptors.emplace_back(name, FamilyOptions(name));
    }
    return descriptors;
  }

  static PresenceFilterOptions FilterOptions() {
    PresenceFilterOptions filter;
    // Small, so that a few dozen keys pass the rebuild bound.
    filter.expected_keys = 32;
    filter.save_interval = std::chrono::milliseconds(0);
    filter.progress = [](const std::string&) {};
    filter.filter_prefix_seeks = true;
    filter.filter_range_seeks = true;
    return filter;
  }

  // Returns once RocksDB runs and awaits no flush or compaction in any open
  // column family, or after kSettleWait.
  void WaitUntilSettled() {
    Log("RocksDB's answer moved during the comparison: made again once "
        "RocksDB has settled");
    rocksdb::DB* base = db_->GetBaseDB();
    const auto positive = [base](rocksdb::ColumnFamilyHandle* family,
                                 const std::string& property) {
      uint64_t value = 0;
      return base->GetIntProperty(family, property, &value) && value > 0;
    };
    const auto busy = [&] {
      rocksdb::ColumnFamilyHandle* any = base->DefaultColumnFamily();
      if (positive(any, rocksdb::DB::Properties::kNumRunningFlushes) ||
          positive(any, rocksdb::DB::Properties::kNumRunningCompactions)) {
        return true;
      }
      for (rocksdb::ColumnFamilyHandle* family : handles_) {
        if (positive(family, rocksdb::DB::Properties::kMemTableFlushPending) ||
            positive(family, rocksdb::DB::Properties::kCompactionPending)) {
          return true;
        }
      }
      return false;
    };
    const auto deadline = std::chrono::steady_clock::now() + kSettleWait;
    while (busy() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

  // A fresh path under the directory.
  std::string NewPath(absl::string_view what) {
    return absl::StrCat(options_.directory, "/", what, "-", ++paths_);
  }

  // True on one request in costly_every.
  bool CostlyTurn() {
    return options_.costly_every <= 1 ||
           ++costly_requests_ % options_.costly_every == 0;
  }
  // True on one request in maintenance_every.
  bool MaintenanceTurn() {
    return options_.maintenance_every <= 1 ||
           ++maintenance_requests_ % options_.maintenance_every == 0;
  }

  void Log(std::string line) {
    log_.push_back(absl::StrCat("#", operations_, " ", line));
    if (log_.size() > kLogLength) log_.pop_front();
  }

  // Writes are noted per column family; a null handle's under the default
  // one, where RocksDB 7.8.3 writes them (9.7.4 refuses them: their status
  // says so).
  static std::string WritesKey(const std::string& family,
                               const std::string& key) {
    return absl::StrCat(
        family == "(null)" ? rocksdb::kDefaultColumnFamilyName : family, "/",
        key);
  }
  void NoteWrite(const std::string& family, const std::string& key,
                 absl::string_view what) {
    const std::string written = WritesKey(family, key);
    std::deque<std::string>& writes = key_writes_[written];
    writes.push_back(absl::StrCat("#", operations_, " ", what));
    if (writes.size() > kKeyWritesLength) writes.pop_front();
    absl::string_view kind = what;
    absl::ConsumePrefix(&kind, "batch ");
    if (absl::StartsWith(kind, "Put") || absl::StartsWith(kind, "Merge")) {
      key_value_writes_[written] = writes.back();
    }
  }

  // The key's latest writes, for an error about it.
  std::string WritesOf(rocksdb::ColumnFamilyHandle* family,
                       const std::string& key) const {
    const auto found = key_writes_.find(WritesKey(FamilyName(family), key));
    if (found == key_writes_.end()) return "; no write of it noted";
    std::string writes = absl::StrCat("; its latest writes, the latest last: ",
                                      absl::StrJoin(found->second, "; "));
    // The latest write of a value, when it is older than those.
    const auto value = key_value_writes_.find(found->first);
    if (value != key_value_writes_.end() &&
        std::find(found->second.begin(), found->second.end(), value->second) ==
            found->second.end()) {
      absl::StrAppend(&writes, "; its latest value written: ", value->second);
    }
    return writes;
  }

  absl::Status Failure(const absl::Status& status) const {
    return absl::InternalError(absl::StrCat(
        status.message(), "\nthe operations before it, the latest last:\n  ",
        absl::StrJoin(log_, "\n  ")));
  }

  // A column family of the open database, or null (a null handle) on one
  // choice in handles_.size() + 1. In every other operation the default
  // column family is named by the database's own handle, DefaultColumnFamily()
  // (what the calls without a handle pass), rather than the one Open returned;
  // never both in one operation, which RocksDB's MultiGet does not allow.
  rocksdb::ColumnFamilyHandle* Family(OperationBytes* bytes) {
    const size_t i = bytes->Below(handles_.size() + 1);
    if (i == handles_.size()) return nullptr;
    if (handles_[i]->GetID() == 0 && operations_ % 2 == 1) {
      return db_->DefaultColumnFamily();
    }
    return handles_[i];
  }
  std::string FamilyName(rocksdb::ColumnFamilyHandle* family) const {
    return family == nullptr ? "(null)" : family->GetName();
  }

  rocksdb::ReadOptions ReadOptions(OperationBytes* bytes, std::string* what) {
    rocksdb::ReadOptions read;
    switch (bytes->Below(6)) {
      case 0:
      case 1:
        *what = "plain";
        break;
      case 2:
        if (!snapshots_.empty()) {
          read.snapshot = snapshots_[bytes->Below(snapshots_.size())];
          *what = absl::StrCat("snapshot ", read.snapshot->GetSequenceNumber());
        } else {
          *what = "plain";
        }
        break;
      case 3:
        read.ignore_range_deletions = true;
        *what = "ignore_range_deletions";
        break;
      case 4:
        read.read_tier = rocksdb::kBlockCacheTier;
        *what = "kBlockCacheTier";
        break;
      default:
        read.read_tier = rocksdb::kPersistedTier;
        *what = "kPersistedTier";
        break;
    }
    return read;
  }

  // RocksDB 7.8.3 aborts on a lookup naming a null handle; the wrapper
  // answers InvalidArgument there, and RocksDB 9.7.4 does so itself.
  static bool BaseSurvives(rocksdb::ColumnFamilyHandle* family) {
    return ROCKSDB_MAJOR >= 9 || family != nullptr;
  }

  std::string BaseGet(const rocksdb::ReadOptions& read,
                      rocksdb::ColumnFamilyHandle* family,
                      const std::string& key) {
    if (!BaseSurvives(family)) {
      return "Invalid argument: column family handle cannot be null";
    }
    rocksdb::PinnableSlice value;
    rocksdb::Status status = db_->GetBaseDB()->Get(read, family, key, &value);
    return Answer(status, value);
  }

  absl::Status CompareGet(const rocksdb::ReadOptions& read,
                          rocksdb::ColumnFamilyHandle* family,
                          const std::string& key,
                          int retries = kSettledRetries) {
    // RocksDB is asked before and after the wrapper: a flush or compaction
    // between the calls may change what a read tier that stops at the cache
    // answers, and the wrapper's answer must be one of RocksDB's. When
    // RocksDB's answer moved and the wrapper's is neither, the comparison is
    // made again once RocksDB has settled (kSettledRetries).
    const std::string before = BaseGet(read, family, key);
    rocksdb::PinnableSlice value;
    rocksdb::Status status = db_->Get(read, family, key, &value);
    const std::string wrapper = Answer(status, value);
    ++counts_.lookups_compared;
    if (status.IsNotFound()) ++counts_.ruled_out;
    // RocksDB is asked again only when its first answer differs.
    if (wrapper == before) return absl::OkStatus();
    const std::string after = BaseGet(read, family, key);
    if (wrapper == after) return absl::OkStatus();
    if (before != after && retries > 0) {
      WaitUntilSettled();
      return CompareGet(read, family, key, retries - 1);
    }
    return absl::InternalError(
        absl::StrCat("Get of '", key, "' in column family ", FamilyName(family),
                     ": the wrapper answers ", wrapper, ", RocksDB ", before,
                     before == after ? "" : absl::StrCat(" and then ", after),
                     WritesOf(family, key)));
  }

  // A MultiGet of keys through the wrapper and through RocksDB alone (before
  // and after it, as CompareGet), each key in families[i % families.size()],
  // compared answer by answer: status and value, and with caller_buffers,
  // that a copied value sits in the caller's std::string.
  absl::Status CompareMultiGet(
      const rocksdb::ReadOptions& read,
      const std::vector<rocksdb::ColumnFamilyHandle*>& families,
      const std::vector<uint8_t>& key_bytes, bool caller_buffers,
      int retries = kSettledRetries) {
    const size_t n = key_bytes.size();
    std::vector<std::string> keys;
    std::vector<rocksdb::ColumnFamilyHandle*> per_key;
    for (size_t i = 0; i < n; ++i) {
      keys.push_back(Key(key_bytes[i]));
      per_key.push_back(families[i % families.size()]);
    }
    for (rocksdb::ColumnFamilyHandle* family : per_key) {
      if (!BaseSurvives(family)) return absl::OkStatus();
    }
    std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
    // RocksDB, the wrapper, and RocksDB again if they differ.
    std::vector<std::string> answers[3];
    for (int side = 0; side < 3; ++side) {
      if (side == 2 && answers[1] == answers[0]) break;
      rocksdb::DB* db =
          side == 1 ? static_cast<rocksdb::DB*>(db_.get()) : db_->GetBaseDB();
      std::vector<std::string> buffers(n, "stale");
      std::vector<rocksdb::PinnableSlice> values;
      values.reserve(n);
      for (size_t i = 0; i < n; ++i) {
        if (caller_buffers) {
          values.emplace_back(&buffers[i]);
        } else {
          values.emplace_back();
        }
      }
      std::vector<rocksdb::Status> statuses(n);
      if (families.size() == 1) {
        db->MultiGet(read, families[0], n, slices.data(), values.data(),
                     statuses.data());
      } else {
        db->MultiGet(read, n, per_key.data(), slices.data(), values.data(),
                     statuses.data());
      }
      for (size_t i = 0; i < n; ++i) {
        // Whether RocksDB pins a value or copies it depends on what its
        // cache held at the call, so only the value is compared; a copied
        // value must sit in the caller's own buffer.
        std::string answer = Answer(statuses[i], values[i]);
        if (caller_buffers && statuses[i].ok() && !values[i].IsPinned() &&
            (values[i].GetSelf() != &buffers[i] ||
             buffers[i] != values[i].ToString())) {
          absl::StrAppend(&answer,
                          " copied outside the caller's buffer, which "
                          "holds '",
                          buffers[i], "'");
        }
        answers[side].push_back(std::move(answer));
        if (side == 1 && statuses[i].IsNotFound()) ++counts_.ruled_out;
      }
    }
    counts_.lookups_compared += n;
    if (answers[2].empty()) return absl::OkStatus();
    for (size_t i = 0; i < n; ++i) {
      if (answers[1][i] != answers[0][i] && answers[1][i] != answers[2][i]) {
        if (answers[0][i] != answers[2][i] && retries > 0) {
          WaitUntilSettled();
          return CompareMultiGet(read, families, key_bytes, caller_buffers,
                                 retries - 1);
        }
        return absl::InternalError(
            absl::StrCat("MultiGet of ", n, " keys, key ", i, " '", keys[i],
                         "' in column family ", FamilyName(per_key[i]),
                         ": the wrapper answers ", answers[1][i], ", RocksDB ",
                         answers[0][i],
                         answers[0][i] == answers[2][i]
                             ? ""
                             : absl::StrCat(" and then ", answers[2][i]),
                         WritesOf(per_key[i], keys[i])));
      }
    }
    return absl::OkStatus();
  }

  absl::Status ApplyOne(OperationBytes* bytes) {
    ++operations_;
    const Operation operation =
        static_cast<Operation>(bytes->Below(kOperationCount));
    switch (operation) {
      case kPut:
      case kMerge:
      case kPutEntity:
      case kDelete:
      case kSingleDelete:
      case kDeleteRange:
        Write(operation, bytes);
        return absl::OkStatus();
      case kBatch:
        Batch(bytes);
        return absl::OkStatus();
      case kGet:
      case kGetAgain: {
        std::string what;
        const rocksdb::ReadOptions read = ReadOptions(bytes, &what);
        rocksdb::ColumnFamilyHandle* family = Family(bytes);
        const std::string key = Key(bytes->Next());
        Log(absl::StrCat("Get '", key, "' in ", FamilyName(family), " (", what,
                         ")"));
        return CompareGet(read, family, key);
      }
      case kMultiGet:
        return MultiGet(bytes);
      case kKeyMayExist:
        return KeyMayExist(bytes);
      case kIterate:
        return Iterate(bytes);
      case kSnapshot:
        Snapshot(bytes);
        return absl::OkStatus();
      case kFlush:
      case kCompactRange:
      case kCompactFiles:
      case kDeleteFilesInRange:
        if (MaintenanceTurn()) Maintain(operation, bytes);
        return absl::OkStatus();
      case kIngest:
        if (MaintenanceTurn()) Ingest(bytes);
        return absl::OkStatus();
      case kCreateFamily:
        if (MaintenanceTurn()) CreateFamily(bytes);
        return absl::OkStatus();
      case kDropFamily:
        if (MaintenanceTurn()) DropFamily(bytes);
        return absl::OkStatus();
      case kImportFamily:
        return ImportFamily(bytes);
      case kRebuild:
        return Rebuild(bytes);
      case kSave:
        if (MaintenanceTurn()) {
          Log("SaveFilters");
          db_->SaveFilters().IgnoreError();
        }
        return absl::OkStatus();
      case kReopen:
        return Reopen(bytes);
      case kCheckpoint:
        return Checkpoint();
      case kOperationCount:
        break;
    }
    return absl::OkStatus();
  }

  // RocksDB leaves a SingleDelete undefined once its key was Put more than
  // once since the key's last SingleDelete: a compaction can then bring back
  // an older value, which a rebuilt filter lacks (the header's "not
  // covered"). So a Put of such a key RocksDB finds becomes a SingleDelete,
  // and no key is Put twice between its SingleDeletes, whatever a crash or a
  // rollback kept.
  bool SingleKeyFound(rocksdb::ColumnFamilyHandle* family,
                      const std::string& key) {
    // RocksDB 7.8.3 writes a null handle's keys to the default column
    // family; RocksDB 9.7.4 refuses them.
    if (family == nullptr) family = db_->DefaultColumnFamily();
    rocksdb::PinnableSlice value;
    return !db_->GetBaseDB()
                ->Get(rocksdb::ReadOptions(), family, key, &value)
                .IsNotFound();
  }

  void Write(Operation operation, OperationBytes* bytes) {
    rocksdb::ColumnFamilyHandle* family = Family(bytes);
    const uint8_t key_byte = bytes->Next();
    // One Put in eight writes a key that SingleDelete may delete.
    const bool single =
        operation == kSingleDelete || (operation == kPut && key_byte % 8 == 0);
    const std::string key = single                    ? SingleKey(key_byte / 8)
                            : operation == kMerge     ? MergeKey(key_byte)
                            : operation == kPutEntity ? EntityKey(key_byte)
                                                      : Key(key_byte);
    if (single && operation == kPut && SingleKeyFound(family, key)) {
      operation = kSingleDelete;
    }
    const std::string value = absl::StrCat("v", ++values_);
    const rocksdb::WriteOptions write;
    rocksdb::Status status;
    std::string what;
    switch (operation) {
      case kPut:
        status = db_->Put(write, family, key, value);
        what = "Put";
        break;
      case kMerge:
        status = db_->Merge(write, family, key, value);
        what = "Merge";
        break;
      case kPutEntity:
        status = db_->PutEntity(
            write, family, key,
            rocksdb::WideColumns{{rocksdb::kDefaultWideColumnName, value}});
        what = "PutEntity";
        break;
      case kDelete:
        status = db_->Delete(write, family, key);
        what = "Delete";
        break;
      case kSingleDelete:
        status = db_->SingleDelete(write, family, key);
        what = "SingleDelete";
        break;
      default: {
        const auto range = Ordered(family, key, Key(bytes->Next()));
        status = db_->DeleteRange(write, family, range.first, range.second);
        what = absl::StrCat("DeleteRange '", range.first, "' to '",
                            range.second, "', chosen");
        break;
      }
    }
    Log(absl::StrCat(what, " '", key, "' in ", FamilyName(family), ": ",
                     status.ToString()));
    NoteWrite(FamilyName(family), key,
              absl::StrCat(what, " ", value, " in ", FamilyName(family), ": ",
                           status.ToString()));
  }

  void Batch(OperationBytes* bytes) {
    rocksdb::WriteBatch batch;
    const size_t records = 1 + bytes->Below(6);
    std::string what = "Write of a batch:";
    // Each record's key and what it wrote there, noted once the batch's
    // status is known.
    struct RecordWritten {
      std::string family, key, what;
    };
    std::vector<RecordWritten> records_written;
    // Whether each single key is found once the records so far are applied.
    std::map<std::string, bool> single_keys_found;
    for (size_t r = 0; r < records; ++r) {
      rocksdb::ColumnFamilyHandle* family = Family(bytes);
      const uint8_t key_byte = bytes->Next();
      std::string key = Key(key_byte);
      const std::string value = absl::StrCat("b", ++values_);
      rocksdb::Status added;
      size_t kind = bytes->Below(8);
      if (kind == 2) key = MergeKey(key_byte);
      if (kind == 3) key = EntityKey(key_byte);
      if (kind == 5 || (kind == 0 && key_byte % 8 == 0)) {
        key = SingleKey(key_byte / 8);
        // As in Write: a Put of a key found, in RocksDB or earlier in the
        // batch, becomes a SingleDelete.
        const std::string written = WritesKey(FamilyName(family), key);
        auto found = single_keys_found.find(written);
        if (found == single_keys_found.end()) {
          found =
              single_keys_found.emplace(written, SingleKeyFound(family, key))
                  .first;
        }
        if (found->second) kind = 5;
        found->second = kind != 5;
      }
      const size_t kind_named_at = what.size();
      switch (kind) {
        case 0:
        case 1:
          added = batch.Put(family, key, value);
          absl::StrAppend(&what, " Put");
          break;
        case 2:
          added = batch.Merge(family, key, value);
          absl::StrAppend(&what, " Merge");
          break;
        case 3:
          added = batch.PutEntity(
              family, key,
              rocksdb::WideColumns{{rocksdb::kDefaultWideColumnName, value}});
          absl::StrAppend(&what, " PutEntity");
          break;
        case 4:
          added = batch.Delete(family, key);
          absl::StrAppend(&what, " Delete");
          break;
        case 5:
          added = batch.SingleDelete(family, key);
          absl::StrAppend(&what, " SingleDelete");
          break;
        case 6: {
          const auto range = Ordered(family, key, Key(bytes->Next()));
          added = batch.DeleteRange(family, range.first, range.second);
        }
          absl::StrAppend(&what, " DeleteRange");
          break;
        default:
          added = batch.PutLogData(value);
          absl::StrAppend(&what, " PutLogData");
          break;
      }
      if (kind != 7) {  // PutLogData writes no key
        records_written.push_back(
            {FamilyName(family), key,
             absl::StrCat("batch", what.substr(kind_named_at), " ", value,
                          " in ", FamilyName(family))});
      }
      absl::StrAppend(&what, "('", key, "' in ", FamilyName(family), ")");
      added.PermitUncheckedError();
    }
    rocksdb::Status status;
#if ROCKSDB_MAJOR >= 9
    if (records % 2 == 0) {
      status = db_->WriteWithCallback(rocksdb::WriteOptions(), &batch,
                                      /*user_write_cb=*/nullptr);
      what = "WriteWithCallback" + what.substr(std::string("Write").size());
    } else {
      status = db_->Write(rocksdb::WriteOptions(), &batch);
    }
#else
    status = db_->Write(rocksdb::WriteOptions(), &batch);
#endif
    Log(absl::StrCat(what, ": ", status.ToString()));
    for (const RecordWritten& record : records_written) {
      NoteWrite(record.family, record.key,
                absl::StrCat(record.what, ": ", status.ToString()));
    }
  }

  absl::Status MultiGet(OperationBytes* bytes) {
    std::string what;
    const rocksdb::ReadOptions read = ReadOptions(bytes, &what);
    const uint8_t shape = bytes->Next();
    std::vector<rocksdb::ColumnFamilyHandle*> families = {Family(bytes)};
    if (shape & 1) families.push_back(Family(bytes));
    const bool caller_buffers = (shape & 2) != 0;
    std::vector<uint8_t> keys(1 + bytes->Below(12));
    for (uint8_t& key : keys) key = bytes->Next();
    Log(absl::StrCat("MultiGet of ", keys.size(), " keys in ", families.size(),
                     " families (", what,
                     caller_buffers ? ", caller buffers" : "", ")"));
    return CompareMultiGet(read, families, keys, caller_buffers);
  }

  // KeyMayExist may answer "maybe" for an absent key, never "no" for a
  // present one; a value it says it found is RocksDB's. RocksDB is asked
  // before and after the wrapper, as in CompareGet: under
  // ignore_range_deletions, a compaction between the calls may drop a key
  // its range tombstone covers.
  absl::Status KeyMayExist(OperationBytes* bytes) {
    std::string what;
    const rocksdb::ReadOptions read = ReadOptions(bytes, &what);
    rocksdb::ColumnFamilyHandle* family = Family(bytes);
    const std::string key = Key(bytes->Next());
    Log(absl::StrCat("KeyMayExist '", key, "' in ", FamilyName(family), " (",
                     what, ")"));
    return CompareKeyMayExist(read, family, key, kSettledRetries);
  }

  absl::Status CompareKeyMayExist(const rocksdb::ReadOptions& read,
                                  rocksdb::ColumnFamilyHandle* family,
                                  const std::string& key, int retries) {
    rocksdb::ReadOptions all_tiers = read;
    all_tiers.read_tier = rocksdb::kReadAllTier;
    const std::string before = BaseGet(all_tiers, family, key);
    std::string value;
    bool value_found = false;
    const bool may_exist =
        db_->KeyMayExist(read, family, key, &value, &value_found);
    ++counts_.lookups_compared;
    const auto agrees_with = [&](const std::string& base) {
      if (!may_exist) return absl::string_view(base).substr(0, 2) != "OK";
      return !value_found || base == absl::StrCat("OK '", value, "'");
    };
    if (agrees_with(before)) return absl::OkStatus();
    const std::string after = BaseGet(all_tiers, family, key);
    if (agrees_with(after)) return absl::OkStatus();
    if (before != after && retries > 0) {
      WaitUntilSettled();
      return CompareKeyMayExist(read, family, key, retries - 1);
    }
    const std::string base =
        before == after ? before : absl::StrCat(before, " and then ", after);
    if (!may_exist) {
      return absl::InternalError(absl::StrCat(
          "KeyMayExist of '", key, "' in column family ", FamilyName(family),
          " answers no; RocksDB finds ", base));
    }
    return absl::InternalError(absl::StrCat(
        "KeyMayExist of '", key, "' found '", value, "'; RocksDB ", base));
  }

  // An iterator through the wrapper yields what RocksDB's yields just before
  // or just after it. Both are asked, as lookups are: a background flush or
  // compaction can change what RocksDB itself returns between two calls
  // (ignore_range_deletions, a tier that stops at the cache). The seeks the
  // filters may answer: a prefix seek, a Seek under an upper bound, a
  // SeekForPrev above a lower bound; and the prefix extractor they depend on
  // changes (SetOptions).
  absl::Status Iterate(OperationBytes* bytes) {
    rocksdb::ColumnFamilyHandle* family = Family(bytes);
    if (family == nullptr) return absl::OkStatus();
    for (int i = 0; i < options_.seeks_per_iterate; ++i) {
      absl::Status same = IterateOnce(family, bytes);
      if (!same.ok()) return same;
    }
    return absl::OkStatus();
  }

  absl::Status IterateOnce(rocksdb::ColumnFamilyHandle* family,
                           OperationBytes* bytes) {
    const uint8_t mode = bytes->Next();
    if (mode % 8 == 7) {
      // SetOptions writes and verifies an options file and queues a rebuild.
      const uint8_t choice = bytes->Next();
      if (!MaintenanceTurn()) return absl::OkStatus();
      return ChangePrefixExtractor(family, choice);
    }
    IteratorRequest request;
    request.backward = (mode & 8) != 0;
    std::pair<std::string, std::string> bounds =
        Ordered(family, NearKey(bytes), NearKey(bytes));
    request.lower = std::move(bounds.first);
    request.upper = std::move(bounds.second);
    // Half the seeks start at the bound they scan from.
    request.target = (mode & 16) == 0   ? NearKey(bytes)
                     : request.backward ? request.upper
                                        : request.lower;
    // RocksDB requires a prefix seek's target in the extractor's domain.
    request.prefix_same_as_start =
        mode % 8 == 1 && request.target.size() >= kPrefixBytes;
    request.has_upper = mode % 8 == 2 || mode % 8 >= 4;
    request.has_lower = mode % 8 == 3 || mode % 8 >= 4;
    Log(absl::StrCat("Iterate ", request.Describe(), " in ",
                     FamilyName(family)));
    return CompareIterator(family, request, kSettledRetries);
  }

  // A key, or one near it: a prefix of it, it with a byte appended, or its
  // last byte changed.
  static std::string NearKey(OperationBytes* bytes) {
    std::string key = Key(bytes->Next());
    const uint8_t change = bytes->Next();
    switch (change % 4) {
      case 1:
        key.resize(key.size() - 1 - change / 4 % 3);
        break;
      case 2:
        key.push_back(change / 4 % 2 == 0 ? '\0' : 'x');
        break;
      case 3:
        key.back() = static_cast<char>('0' + change / 4 % 10);
        break;
      default:
        break;
    }
    return key;
  }

  struct IteratorRequest {
    std::string target, lower, upper;
    bool backward = false;
    bool prefix_same_as_start = false;
    bool has_lower = false, has_upper = false;

    std::string Describe() const {
      return absl::StrCat(
          backward ? "SeekForPrev '" : "Seek '", target, "'",
          prefix_same_as_start ? " prefix_same_as_start" : "",
          has_lower ? absl::StrCat(" from '", lower, "'") : "",
          has_upper ? absl::StrCat(" below '", upper, "'") : "");
    }
  };

  absl::Status CompareIterator(rocksdb::ColumnFamilyHandle* family,
                               const IteratorRequest& request, int retries) {
    const std::string before = Entries(db_->GetBaseDB(), family, request);
    bool answered = false;
    const std::string wrapper = Entries(db_.get(), family, request, &answered);
    ++counts_.seeks_compared;
    counts_.seeks_answered += answered;
    if (wrapper == before) return absl::OkStatus();
    const std::string after = Entries(db_->GetBaseDB(), family, request);
    if (wrapper == after) return absl::OkStatus();
    if (before != after && retries > 0) {
      WaitUntilSettled();
      return CompareIterator(family, request, retries - 1);
    }
    return absl::InternalError(absl::StrCat(
        "an iterator in ", FamilyName(family), " (", request.Describe(),
        ") yields ", wrapper, " through the wrapper, ", before,
        " from RocksDB before it and ", after, " after it"));
  }

  // The first four entries the iterator reaches, and its status; answered,
  // unless null, tells whether the seek was answered without RocksDB.
  static std::string Entries(rocksdb::DB* db,
                             rocksdb::ColumnFamilyHandle* family,
                             const IteratorRequest& request,
                             bool* answered = nullptr) {
    rocksdb::ReadOptions options;
    rocksdb::Slice lower(request.lower), upper(request.upper);
    options.prefix_same_as_start = request.prefix_same_as_start;
    if (request.has_lower) options.iterate_lower_bound = &lower;
    if (request.has_upper) options.iterate_upper_bound = &upper;
    std::unique_ptr<rocksdb::Iterator> iterator(
        db->NewIterator(options, family));
    std::string entries;
    int n = 0;
    if (request.backward) {
      iterator->SeekForPrev(request.target);
    } else {
      iterator->Seek(request.target);
    }
    if (answered != nullptr) {
      auto* filtered =
          dynamic_cast<presence_internal::FilteredIterator*>(iterator.get());
      *answered = filtered != nullptr && !filtered->entered_rocksdb();
    }
    for (; iterator->Valid() && n < 4; ++n) {
      absl::StrAppend(&entries, iterator->key().ToString(), "=",
                      iterator->value().ToString(), " ");
      if (request.backward) {
        iterator->Prev();
      } else {
        iterator->Next();
      }
    }
    absl::StrAppend(&entries, iterator->status().ToString());
    return entries;
  }

  // Switches the column family's prefix extractor between the fixed lengths
  // kPrefixBytes and one less, through the wrapper.
  absl::Status ChangePrefixExtractor(rocksdb::ColumnFamilyHandle* family,
                                     uint8_t choice) {
    const size_t bytes = kPrefixBytes - choice % 2;
    Log(absl::StrCat("SetOptions prefix_extractor ", bytes, " bytes in ",
                     FamilyName(family)));
    rocksdb::Status status = db_->SetOptions(
        family,
        {{"prefix_extractor", absl::StrCat("rocksdb.FixedPrefix.", bytes)}});
    if (status.ok()) return absl::OkStatus();
    return absl::InternalError("SetOptions prefix_extractor failed: " +
                               status.ToString());
  }

  void Snapshot(OperationBytes* bytes) {
    const uint8_t choice = bytes->Next();
    if (!snapshots_.empty() &&
        ((choice & 1) || snapshots_.size() >= kMaxSnapshots)) {
      const size_t i = (choice >> 1) % snapshots_.size();
      Log(absl::StrCat("ReleaseSnapshot ", snapshots_[i]->GetSequenceNumber()));
      db_->ReleaseSnapshot(snapshots_[i]);
      snapshots_.erase(snapshots_.begin() + i);
      return;
    }
    snapshots_.push_back(db_->GetSnapshot());
    Log(absl::StrCat("GetSnapshot ", snapshots_.back()->GetSequenceNumber()));
  }

  void Maintain(Operation operation, OperationBytes* bytes) {
    rocksdb::ColumnFamilyHandle* family =
        handles_[bytes->Below(handles_.size())];
    rocksdb::Status status;
    std::string what;
    switch (operation) {
      case kFlush:
        status = db_->Flush(rocksdb::FlushOptions(), family);
        what = "Flush";
        break;
      case kCompactRange: {
        rocksdb::CompactRangeOptions compact;
        const size_t level = bytes->Below(4);
        if (level > 0) {
          compact.change_level = true;
          compact.target_level = static_cast<int>(level);
        }
        status = db_->CompactRange(compact, family, nullptr, nullptr);
        what = absl::StrCat("CompactRange to level ", level);
        break;
      }
      case kCompactFiles: {
        rocksdb::ColumnFamilyMetaData meta;
        db_->GetColumnFamilyMetaData(family, &meta);
        std::vector<std::string> files;
        int level = 0;
        for (const rocksdb::LevelMetaData& l : meta.levels) {
          for (const rocksdb::SstFileMetaData& file : l.files) {
            files.push_back(file.name);
          }
          if (!files.empty()) {
            level = l.level;
            break;
          }
        }
        if (files.empty()) return;
        const std::string file = files[bytes->Below(files.size())];
        const int output =
            std::min(level + 1 + static_cast<int>(bytes->Below(3)),
                     meta.levels.back().level);
        status = db_->CompactFiles(rocksdb::CompactionOptions(), family, {file},
                                   output);
        what = absl::StrCat("CompactFiles ", file, " to level ", output);
        break;
      }
      default: {
        // Narrow ranges half the time, which leave a table of a few keys
        // (a tombstone's) while a wider table below holds the value.
        const uint8_t first = bytes->Next();
        const uint8_t width = bytes->Next();
        const auto range =
            Ordered(family, Key(first),
                    Key(width & 1 ? static_cast<uint8_t>(first + width % 8 / 2)
                                  : width));
        const std::string& begin = range.first;
        const std::string& end = range.second;
        const rocksdb::Slice b(begin);
        const rocksdb::Slice e(end);
        status = rocksdb::DeleteFilesInRange(db_.get(), family, &b, &e,
                                             /*include_end=*/true);
        what = absl::StrCat("DeleteFilesInRange '", begin, "' to '", end, "'");
        break;
      }
    }
    Log(absl::StrCat(what, " in ", FamilyName(family), ": ",
                     status.ToString()));
  }

  void Ingest(OperationBytes* bytes) {
    rocksdb::ColumnFamilyHandle* family = Family(bytes);
    const uint8_t shape = bytes->Next();
    const std::string path = NewPath("ingest") + ".sst";
    if (shape % 8 != 0) {  // else a file that does not exist
      const std::string name = family == nullptr
                                   ? rocksdb::kDefaultColumnFamilyName
                                   : family->GetName();
      const rocksdb::Comparator* comparator = ComparatorFor(name);
      std::vector<std::string> keys;
      for (size_t i = 1 + shape % 6; i > 0; --i)
        keys.push_back(Key(bytes->Next()));
      std::sort(keys.begin(), keys.end(),
                [comparator](const std::string& a, const std::string& b) {
                  return comparator->Compare(a, b) < 0;
                });
      keys.erase(
          std::unique(keys.begin(), keys.end(),
                      [comparator](const std::string& a, const std::string& b) {
                        return comparator->Compare(a, b) == 0;
                      }),
          keys.end());
      rocksdb::Options file_options(DbOptions(), FamilyOptions(name));
      rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), file_options);
      if (!writer.Open(path).ok()) return;
      for (const std::string& key : keys) {
        writer.Put(key, absl::StrCat("i", ++values_)).PermitUncheckedError();
      }
      if (!writer.Finish().ok()) return;
    }
    const rocksdb::Status status = db_->IngestExternalFile(
        family, {path}, rocksdb::IngestExternalFileOptions());
    Log(absl::StrCat("IngestExternalFile into ", FamilyName(family),
                     shape % 8 == 0 ? " (no such file)" : "", ": ",
                     status.ToString()));
    options_.env->DeleteFile(path).PermitUncheckedError();
  }

  void CreateFamily(OperationBytes* bytes) {
    if (handles_.size() >= kMaxFamilies) return;
    const std::string name = absl::StrCat(
        bytes->Next() % 3 == 0 ? kCaseBlindPrefix : "cf", ++families_);
    rocksdb::ColumnFamilyHandle* handle = nullptr;
    const rocksdb::Status status =
        db_->CreateColumnFamily(FamilyOptions(name), name, &handle);
    if (status.ok()) handles_.push_back(handle);
    Log(absl::StrCat("CreateColumnFamily ", name, ": ", status.ToString()));
  }

  void DropFamily(OperationBytes* bytes) {
    if (handles_.size() < 2) return;
    const size_t i = 1 + bytes->Below(handles_.size() - 1);
    rocksdb::ColumnFamilyHandle* handle = handles_[i];
    if (handle->GetID() == 0) return;
    const std::string name = handle->GetName();
    const rocksdb::Status status = db_->DropColumnFamily(handle);
    db_->DestroyColumnFamilyHandle(handle).PermitUncheckedError();
    handles_.erase(handles_.begin() + i);
    Log(absl::StrCat("DropColumnFamily ", name, ": ", status.ToString()));
  }

  absl::Status ImportFamily(OperationBytes* bytes) {
    rocksdb::ColumnFamilyHandle* source =
        handles_[bytes->Below(handles_.size())];
    if (handles_.size() >= kMaxFamilies || !CostlyTurn())
      return absl::OkStatus();
    rocksdb::Checkpoint* checkpoint = nullptr;
    if (!rocksdb::Checkpoint::Create(db_.get(), &checkpoint).ok()) {
      return absl::OkStatus();
    }
    std::unique_ptr<rocksdb::Checkpoint> owned(checkpoint);
    rocksdb::ExportImportFilesMetaData* exported = nullptr;
    const std::string export_path = NewPath("export");
    rocksdb::Status status =
        checkpoint->ExportColumnFamily(source, export_path, &exported);
    std::unique_ptr<rocksdb::ExportImportFilesMetaData> owned_metadata(
        exported);
    std::string name = absl::StrCat(
        source->GetName().rfind(std::string(kCaseBlindPrefix), 0) == 0
            ? kCaseBlindPrefix
            : "cf",
        ++families_, "-imported");
#if ROCKSDB_MAJOR < 9
    // RocksDB 7.8.3 fails an assertion importing a table without point
    // entries (range deletions only).
    if (status.ok()) {
      for (const rocksdb::LiveFileMetaData& file : exported->files) {
        if (file.num_entries == 0) {
          status = rocksdb::Status::Aborted("a table of range deletions only");
        }
      }
    }
#endif
    if (status.ok()) {
      rocksdb::ColumnFamilyHandle* handle = nullptr;
      status = db_->CreateColumnFamilyWithImport(
          FamilyOptions(name), name, rocksdb::ImportColumnFamilyOptions(),
          *exported, &handle);
      if (status.ok()) handles_.push_back(handle);
    }
    Log(absl::StrCat("CreateColumnFamilyWithImport ", name, " from ",
                     source->GetName(), ": ", status.ToString()));
    RemoveDirectory(export_path);
    return absl::OkStatus();
  }

  absl::Status Rebuild(OperationBytes* bytes) {
    rocksdb::ColumnFamilyHandle* family =
        handles_[bytes->Below(handles_.size())];
    const absl::Status requested = db_->RebuildFilter(family);
    Log(absl::StrCat("RebuildFilter of ", FamilyName(family), ": ",
                     requested.ToString()));
    if (CostlyTurn()) {
      ++counts_.rebuilds_waited;
      absl::Status serving = db_->WaitUntilServing(kServingWait);
      Log(absl::StrCat("WaitUntilServing: ", serving.ToString()));
    }
    return absl::OkStatus();
  }

  // Removes a directory and its files (a long fuzzing run keeps its memory
  // Env small).
  void RemoveDirectory(const std::string& path) {
    std::vector<std::string> children;
    if (!options_.env->GetChildren(path, &children).ok()) return;
    for (const std::string& child : children) {
      if (child == "." || child == "..") continue;
      options_.env->DeleteFile(path + "/" + child).PermitUncheckedError();
    }
    options_.env->DeleteDir(path).PermitUncheckedError();
  }

  // Copies every file of the open database, as a crash would leave them.
  absl::Status CopyFiles(const std::string& from, const std::string& to) {
    rocksdb::Env* env = options_.env;
    std::vector<std::string> children;
    rocksdb::Status status = env->CreateDirIfMissing(to);
    if (status.ok()) status = env->GetChildren(from, &children);
    for (const std::string& child : children) {
      if (!status.ok()) break;
      if (child == "." || child == ".." || child == "LOCK") continue;
      std::string contents;
      if (!rocksdb::ReadFileToString(env, from + "/" + child, &contents).ok()) {
        continue;  // a file removed meanwhile, as a crash may find
      }
      status = rocksdb::WriteStringToFile(env, contents, to + "/" + child,
                                          /*should_sync=*/false);
    }
    if (status.ok()) return absl::OkStatus();
    return absl::InternalError("copying " + from + ": " + status.ToString());
  }

  absl::Status Reopen(OperationBytes* bytes) {
    const size_t kind = bytes->Below(6);
    if (!CostlyTurn()) return absl::OkStatus();
    ++counts_.reopenings;
    const std::string path = path_;
    absl::Status status;
    std::string what;
    switch (kind) {
      case 0:
        what = "CloseAndSave, reopen";
        status = Close(/*save=*/true);
        if (status.ok()) status = OpenAt(path);
        break;
      case 1:
        what = "close without a save, reopen";
        status = Close(/*save=*/false);
        if (status.ok()) status = OpenAt(path);
        break;
      case 2: {
        what = "crash image: the files copied while open, then opened";
        const std::string image = NewPath("crash");
        // The files of one moment: no flush, compaction or deletion runs
        // while they are copied.
        db_->PauseBackgroundWork().PermitUncheckedError();
        db_->DisableFileDeletions().PermitUncheckedError();
        status = CopyFiles(path, image);
        // Resumed before the close: the filters' own background work may be
        // waiting for a flush.
        db_->ContinueBackgroundWork().PermitUncheckedError();
        Close(/*save=*/false).IgnoreError();
        RemoveDirectory(path);
        if (status.ok()) status = OpenAt(image);
        break;
      }
      case 3:
        what = "writes through a plain RocksDB open in between";
        status = Close(/*save=*/true);
        if (status.ok()) status = WriteThroughPlainOpen(path, bytes);
        if (status.ok()) status = OpenAt(path);
        break;
      case 4: {
        // On a copy: RocksDB does not replay the WAL under
        // best_efforts_recovery, and a later ordinary open of the same
        // files would replay the old WAL behind newer writes.
        what = "a saved copy opened with best_efforts_recovery";
        status = Close(/*save=*/true);
        const std::string copy_path = NewPath("best-efforts");
        if (status.ok()) status = CopyFiles(path, copy_path);
        if (status.ok()) {
          Impl copy(options_);
          status = copy.OpenAt(copy_path, /*best_efforts_recovery=*/true);
          if (status.ok()) status = copy.CheckAllKeys();
          counts_.lookups_compared += copy.counts_.lookups_compared;
          if (status.ok()) status = copy.Close(/*save=*/false);
        }
        RemoveDirectory(copy_path);
        if (status.ok()) status = OpenAt(path);
        break;
      }
      default:
        what = "reopen, waiting until the filters serve";
        status = Close(/*save=*/bytes->Next() & 1);
        if (status.ok()) status = OpenAt(path);
        if (status.ok()) status = db_->WaitUntilServing(kServingWait);
        break;
    }
    Log(absl::StrCat("Reopen (", what, "): ", status.ToString()));
    if (!status.ok()) return status;
    return CheckAllKeys();
  }

  absl::Status WriteThroughPlainOpen(const std::string& path,
                                     OperationBytes* bytes) {
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* plain = nullptr;
    rocksdb::Status status = rocksdb::DB::Open(
        DbOptions(), path, Descriptors(path), &handles, &plain);
    if (!status.ok()) {
      return absl::InternalError("plain open: " + status.ToString());
    }
    for (size_t i = 1 + bytes->Below(8); i > 0; --i) {
      rocksdb::ColumnFamilyHandle* family =
          handles[bytes->Below(handles.size())];
      plain
          ->Put(rocksdb::WriteOptions(), family, Key(bytes->Next()),
                absl::StrCat("p", ++values_))
          .PermitUncheckedError();
      if (bytes->Next() % 4 == 0) {
        plain->Flush(rocksdb::FlushOptions(), family).PermitUncheckedError();
      }
    }
    for (rocksdb::ColumnFamilyHandle* handle : handles) {
      plain->DestroyColumnFamilyHandle(handle).PermitUncheckedError();
    }
    delete plain;
    return absl::OkStatus();
  }

  // A checkpoint opened through a wrapper of its own answers as its base.
  absl::Status Checkpoint() {
    if (!CostlyTurn()) return absl::OkStatus();
    rocksdb::Checkpoint* checkpoint = nullptr;
    rocksdb::Status status =
        rocksdb::Checkpoint::Create(db_.get(), &checkpoint);
    std::unique_ptr<rocksdb::Checkpoint> owned(checkpoint);
    const std::string path = NewPath("checkpoint");
    if (status.ok()) status = checkpoint->CreateCheckpoint(path);
    Log(absl::StrCat("Checkpoint to ", path, ": ", status.ToString()));
    if (!status.ok()) return absl::OkStatus();
    Impl copy(options_);
    absl::Status opened = copy.OpenAt(path);
    if (!opened.ok()) {
      return absl::InternalError("opening the checkpoint: " +
                                 opened.ToString());
    }
    absl::Status same = copy.CheckAllKeys();
    counts_.lookups_compared += copy.counts_.lookups_compared;
    if (same.ok()) same = copy.Close(/*save=*/false);
    if (same.ok()) RemoveDirectory(path);
    return same;
  }

  const DifferentialOptions options_;
  const std::shared_ptr<rocksdb::MergeOperator> merge_operator_ =
      std::make_shared<JoinOperator>();
  const std::shared_ptr<rocksdb::Logger> info_log_ =
      std::make_shared<DiscardingLogger>();
  std::string path_;
  std::unique_ptr<PresenceFilteredDB> db_;
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;
  std::vector<const rocksdb::Snapshot*> snapshots_;
  std::deque<std::string> log_;
  // Each key's latest writes in each column family (WritesKey):
  // "#<operation> <what> in <family>: <status>".
  std::map<std::string, std::deque<std::string>> key_writes_;
  // The latest Put, PutEntity or Merge of each key, as noted in key_writes_.
  std::map<std::string, std::string> key_value_writes_;
  uint64_t values_ = 0;
  uint64_t paths_ = 0;
  uint64_t families_ = 0;
  uint64_t operations_ = 0;  // begun by ApplyOne
  uint64_t costly_requests_ = 0;
  uint64_t maintenance_requests_ = 0;
};

absl::StatusOr<std::unique_ptr<DifferentialRun>> DifferentialRun::Open(
    const DifferentialOptions& options) {
  auto impl = std::make_unique<Impl>(options);
  options.env->CreateDirIfMissing(options.directory).PermitUncheckedError();
  absl::Status opened = impl->OpenAt(options.directory + "/db");
  if (!opened.ok()) return opened;
  return std::unique_ptr<DifferentialRun>(new DifferentialRun(std::move(impl)));
}

DifferentialRun::DifferentialRun(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}

DifferentialRun::~DifferentialRun() = default;

absl::Status DifferentialRun::Apply(OperationBytes* bytes,
                                    size_t max_operations) {
  return impl_->Apply(bytes, max_operations);
}

absl::Status DifferentialRun::CheckAllKeys() { return impl_->CheckAllKeys(); }

const DifferentialRun::Counts& DifferentialRun::counts() const {
  return impl_->counts_;
}

}  // namespace presence_testing
}  // namespace sstfilter
