// A rocksdb::DB with a filter per column family in front of it: a Get,
// MultiGet, KeyMayExist, or prefix seek of a NewIterator or NewIterators
// iterator that the filter rules out answers without entering RocksDB, never
// where RocksDB would find a key. Keys enter it before Put, Merge, PutEntity,
// Write, WriteWithCallback, IngestExternalFile, IngestExternalFiles,
// CreateColumnFamily, CreateColumnFamilies and CreateColumnFamilyWithImport
// make them visible; NewDefaultReplayer is refused; the rest passes through.
//
//   auto db = sstfilter::PresenceFilteredDB::Open(options, path, {});
//   (*db)->Get(rocksdb::ReadOptions(), "pear", &value);  // NotFound: a probe

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_PRESENCE_FILTERED_DB_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_PRESENCE_FILTERED_DB_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "rocksdb/db.h"
#include "rocksdb/utilities/stackable_db.h"
#include "rocksdb/version.h"

namespace sstfilter {

namespace presence_internal {
class PresenceCore;
}  // namespace presence_internal

// Why a column family's filter is being (or was last) rebuilt.
enum class PresenceRebuildReason {
  kNone,                    // restored from the saved filter
  kNoSavedFilter,           // no saved file, or no record for the column family
  kDamaged,                 // the saved file or record failed its checks
  kOtherDatabase,           // the saved file names another database identity
  kUnreadableTables,        // a table the save does not cover could not be read
  kImported,                // CreateColumnFamilyWithImport
  kRateAboveTarget,         // estimated rate above rebuild_fpp_ratio times fpp
  kRequested,               // RebuildFilter
  kRecoveryMayRollBack,     // opened with best_efforts_recovery
  kUnreadableIngestedFile,  // a file being ingested could not be read
  kPrefixExtractorChanged,  // the save holds other prefixes, or SetOptions
  kRangeItemsMissing,       // the save holds no range items
};
const char* PresenceRebuildReasonName(PresenceRebuildReason reason);

// Called on the background thread as saves and rebuilds begin and end (for
// metrics and tests; must not call back into the database).
class PresenceFilterListener {
 public:
  virtual ~PresenceFilterListener() = default;
  virtual void OnSaveBegin() {}
  virtual void OnSaveEnd(const absl::Status& /*status*/) {}
  virtual void OnRebuildBegin(const std::string& /*column_family*/,
                              PresenceRebuildReason /*reason*/) {}
  virtual void OnRebuildEnd(const std::string& /*column_family*/,
                            const absl::Status& /*status*/) {}
};

struct PresenceFilterOptions {
  // The false-positive rate each column family's filter is sized for, in
  // (0, 1) and reachable within 100 bits/key (about 1e-20).
  double fpp = 0.01;
  // Keys each column family's filter is first sized for, at least 1. A
  // rebuild sizes it for the keys the column family then holds (times
  // kRebuildHeadroom), never below this.
  uint64_t expected_keys = 1000000;
  // A filter whose estimated rate passes this multiple of fpp is rebuilt;
  // above 1.
  double rebuild_fpp_ratio = 2.0;
  // Save after flushes and compactions, at most once per save_interval
  // (a save writes the blocks changed since the last; a shorter interval
  // leaves fewer tables to read at open after a crash). False: saves happen
  // only at CloseAndSave
  // and SaveFilters, and after a crash the tables written since the last
  // save are read at open.
  bool save_after_background_work = true;
  std::chrono::milliseconds save_interval = std::chrono::seconds(1);
  // Such a save also waits until RocksDB's flushes and compactions have
  // written, since the last save, this many table bytes per byte that save
  // wrote (before the first: per byte of the filters), so that saves stay a
  // small share of RocksDB's own writes whatever the filters' size. After a
  // crash, open then reads at most about this many table bytes per byte of
  // the last save, beyond the writes of one save_interval. 0: no such wait;
  // otherwise finite and not negative.
  double table_bytes_per_saved_byte = 8.0;
  // While fewer than a quarter of a thread's recent probes ruled a key out,
  // its Gets and KeyMayExists probe only one lookup in 16 and send the rest
  // straight to RocksDB (a probe costs a cache miss that a found key pays for
  // nothing). False: every lookup probes. Answers are the same either way.
  bool skip_probes_when_mostly_present = true;
  // Each filter also holds every key's prefix under its column family's
  // prefix_extractor, at most one more item per key (the filter is sized
  // for twice the keys): an iterator's Seek or SeekForPrev with
  // prefix_same_as_start then answers "no entry" without entering RocksDB
  // when the target's prefix is ruled out. A SetOptions that changes
  // prefix_extractor stops these answers until a rebuild, queued by it, has
  // read every key's new prefix.
  bool filter_prefix_seeks = false;
  // Each filter also holds every key's range items (range_items.h: its bytes
  // per position for its length, and two members of runs in the filter's
  // bits), about 45 bits/key more at fpp 0.01: an iterator's Seek under an
  // iterate_upper_bound, or SeekForPrev above an iterate_lower_bound, then
  // answers "no entry" without entering RocksDB when the filter rules out
  // every key between target and bound. Only under the bytewise comparator;
  // a range whose keys of one length differ before their last two bytes is
  // never ruled out.
  bool filter_range_seeks = false;
  // Receives progress lines of recoveries and rebuilds. Null: they go to the
  // database's info log.
  std::function<void(const std::string&)> progress;
  // Told of saves and rebuilds; null for none. REQUIRES: outlives the
  // database.
  PresenceFilterListener* listener = nullptr;
};

// A rebuild sizes its filter for this many times the keys the column family
// holds, so that growth after it does not trigger the next at once.
constexpr double kRebuildHeadroom = 1.5;
// The longest a scan runs without a progress line.
constexpr std::chrono::seconds kProgressInterval{5};

// InvalidArgumentError naming the first field out of its range.
absl::Status ValidatePresenceFilterOptions(
    const PresenceFilterOptions& options);

// The file in db_path where the filters are saved.
std::string PresenceFilterFileName(const std::string& db_path);
// Removes that file and every file named after it (its changes, a save left
// half-written) from db_path: rocksdb::DestroyDB leaves them.
void RemovePresenceFilterFiles(const std::string& db_path);

// What a column family's filter is doing.
enum class PresenceFilterState {
  kServing,     // lookups are answered from the filter
  kRecovering,  // reading tables or rebuilding: lookups go to RocksDB
  kUnfiltered,  // no filter (timestamps, or a failed rebuild): RocksDB
};

struct PresenceFilterStats {
  PresenceFilterState state = PresenceFilterState::kUnfiltered;
  PresenceRebuildReason last_rebuild = PresenceRebuildReason::kNone;
  uint64_t memory_bytes = 0;      // filters' bodies, a rebuild's included
  uint64_t expected_keys = 0;     // what the serving filter was sized for
  uint64_t approximate_keys = 0;  // distinct keys in the serving filter
  double expected_fpp = 0;        // of the serving filter, from its fill
  uint64_t rebuilds = 0;          // finished in this process
  absl::Status last_error;        // of the last recovery or rebuild
  std::string unfiltered_reason;  // why a column family gets no filter
};

// The guarantee: a lookup answers NotFound from the filter only for a key
// that no covered write made visible, across crashes, power loss,
// reopenings and rebuilds; a "maybe" goes to RocksDB. Writes made while this
// object was closed are read at open. The filters are saved in the database
// directory (PresenceFilterFileName) after flushes and compactions and at
// CloseAndSave; a missing, damaged or foreign save, or best_efforts_recovery,
// rebuilds a column family's filter, its lookups going to RocksDB meanwhile
// (State()). Rebuilds also follow a rate past rebuild_fpp_ratio times fpp.
//
// Not covered (lookups may then miss keys those writes made): writes, or a
// SetOptions of prefix_extractor, through GetBaseDB(), GetRootDB() or another
// handle to the same database while this object is open, such as a
// TransactionDB opened on it, a secondary instance's catch-up, or the
// rocksdb::DB* RocksDB hands an EventListener. A SingleDelete of a key Put
// more than once since its last SingleDelete, which RocksDB leaves undefined:
// a compaction may bring back an older value a rebuilt filter lacks. A null
// column family handle: a write goes to the default column family's filter;
// a lookup or Merge answers InvalidArgument. Always to RocksDB: column families
// whose comparator has user-defined timestamps or may call keys of different
// bytes equal; lookups with a snapshot older than the last rebuild, a read
// timestamp, ignore_range_deletions, a memory-only read tier or an io_activity,
// and a MultiGet naming a null handle or a timestamped column family.
//
// Cost: MutableBloomFilter's body per column family for its key count at
// fpp (twice the keys with filter_prefix_seeks), twice that during a
// rebuild; one filter Add (two with prefixes) and a shared lock per write;
// one hash and one cache-line probe per ruled-out lookup. An iterator that
// may have its prefix seeks answered takes a snapshot when created.
// Thread safety: as rocksdb::DB, except that Close and CloseAndSave must not
// race other calls. Close with CloseAndSave, so that the next open reads no
// table.
class PresenceFilteredDB : public rocksdb::StackableDB {
 public:
  // Opens the database at path as rocksdb::DB::Open does (its options are
  // copied, with one EventListener added), restores or starts rebuilding the
  // filters, and returns before any table is read: lookups go through
  // RocksDB until WaitUntilServing would return. InvalidArgumentError for
  // options ValidatePresenceFilterOptions refuses; RocksDB's own error as an
  // absl::Status otherwise.
  static absl::StatusOr<std::unique_ptr<PresenceFilteredDB>> Open(
      const rocksdb::Options& options, const std::string& path,
      const PresenceFilterOptions& filter_options);
  // With column families, as rocksdb::DB::Open. REQUIRES: each handle is
  // destroyed through DestroyColumnFamilyHandle of this object, before Close.
  static absl::StatusOr<std::unique_ptr<PresenceFilteredDB>> Open(
      const rocksdb::DBOptions& options, const std::string& path,
      const std::vector<rocksdb::ColumnFamilyDescriptor>& column_families,
      std::vector<rocksdb::ColumnFamilyHandle*>* handles,
      const PresenceFilterOptions& filter_options);

  // Close without a final save; the next open reads the tables written since
  // the last save. Stops the background thread first.
  ~PresenceFilteredDB() override;

  // Waits for recoveries and rebuilds under way to finish, stops the
  // background work, flushes every column family, saves the filters and
  // closes the database: the next open reads no table.
  absl::Status CloseAndSave();
  // As rocksdb::DB::Close: stops the background work, then closes without a
  // save.
  rocksdb::Status Close() override;

  // Saves the filters now, on the calling thread.
  absl::Status SaveFilters();
  // Blocks until every column family's filter serves (or has none), or the
  // timeout passes (DeadlineExceededError).
  absl::Status WaitUntilServing(std::chrono::milliseconds timeout);
  // Starts a rebuild of the column family's filter from a snapshot; the
  // current filter serves until the new one is swapped in.
  absl::Status RebuildFilter(rocksdb::ColumnFamilyHandle* column_family);
  PresenceFilterState State(rocksdb::ColumnFamilyHandle* column_family) const;
  PresenceFilterStats Stats(rocksdb::ColumnFamilyHandle* column_family) const;

  // Lookups.
  using rocksdb::StackableDB::Get;
#if ROCKSDB_MAJOR >= 9
  rocksdb::Status Get(const rocksdb::ReadOptions& options,
                      rocksdb::ColumnFamilyHandle* column_family,
                      const rocksdb::Slice& key, rocksdb::PinnableSlice* value,
                      std::string* timestamp) override;
#else
  rocksdb::Status Get(const rocksdb::ReadOptions& options,
                      rocksdb::ColumnFamilyHandle* column_family,
                      const rocksdb::Slice& key,
                      rocksdb::PinnableSlice* value) override;
  // With a timestamp: to RocksDB (StackableDB of this release does not
  // forward it, and DB's default answers NotSupported).
  rocksdb::Status Get(const rocksdb::ReadOptions& options,
                      rocksdb::ColumnFamilyHandle* column_family,
                      const rocksdb::Slice& key, rocksdb::PinnableSlice* value,
                      std::string* timestamp) override;
#endif
  using rocksdb::StackableDB::MultiGet;
#if ROCKSDB_MAJOR >= 9
  void MultiGet(const rocksdb::ReadOptions& options, size_t num_keys,
                rocksdb::ColumnFamilyHandle** column_families,
                const rocksdb::Slice* keys, rocksdb::PinnableSlice* values,
                std::string* timestamps, rocksdb::Status* statuses,
                bool sorted_input = false) override;
#else
  void MultiGet(const rocksdb::ReadOptions& options,
                rocksdb::ColumnFamilyHandle* column_family, size_t num_keys,
                const rocksdb::Slice* keys, rocksdb::PinnableSlice* values,
                rocksdb::Status* statuses, bool sorted_input = false) override;
  void MultiGet(const rocksdb::ReadOptions& options, size_t num_keys,
                rocksdb::ColumnFamilyHandle** column_families,
                const rocksdb::Slice* keys, rocksdb::PinnableSlice* values,
                rocksdb::Status* statuses, bool sorted_input = false) override;
  // With timestamps: to RocksDB.
  void MultiGet(const rocksdb::ReadOptions& options,
                rocksdb::ColumnFamilyHandle* column_family, size_t num_keys,
                const rocksdb::Slice* keys, rocksdb::PinnableSlice* values,
                std::string* timestamps, rocksdb::Status* statuses,
                bool sorted_input = false) override;
  void MultiGet(const rocksdb::ReadOptions& options, size_t num_keys,
                rocksdb::ColumnFamilyHandle** column_families,
                const rocksdb::Slice* keys, rocksdb::PinnableSlice* values,
                std::string* timestamps, rocksdb::Status* statuses,
                bool sorted_input = false) override;
#endif
  using rocksdb::StackableDB::KeyMayExist;
  bool KeyMayExist(const rocksdb::ReadOptions& options,
                   rocksdb::ColumnFamilyHandle* column_family,
                   const rocksdb::Slice& key, std::string* value,
                   bool* value_found = nullptr) override;
  // With a timestamp: to RocksDB (StackableDB does not forward it).
  bool KeyMayExist(const rocksdb::ReadOptions& options,
                   rocksdb::ColumnFamilyHandle* column_family,
                   const rocksdb::Slice& key, std::string* value,
                   std::string* timestamp,
                   bool* value_found = nullptr) override;
#if ROCKSDB_MAJOR < 9
  // With timestamps: to RocksDB.
  std::vector<rocksdb::Status> MultiGet(
      const rocksdb::ReadOptions& options,
      const std::vector<rocksdb::ColumnFamilyHandle*>& column_families,
      const std::vector<rocksdb::Slice>& keys, std::vector<std::string>* values,
      std::vector<std::string>* timestamps) override;
#endif

  // Iterators: with PresenceFilterOptions::filter_prefix_seeks, a Seek or
  // SeekForPrev with prefix_same_as_start whose prefix the filter rules out
  // answers "no entry" without entering RocksDB (filtered_iterator.h).
  using rocksdb::StackableDB::NewIterator;
  rocksdb::Iterator* NewIterator(
      const rocksdb::ReadOptions& options,
      rocksdb::ColumnFamilyHandle* column_family) override;
  rocksdb::Status NewIterators(
      const rocksdb::ReadOptions& options,
      const std::vector<rocksdb::ColumnFamilyHandle*>& column_families,
      std::vector<rocksdb::Iterator*>* iterators) override;
  // To RocksDB; one naming prefix_extractor stops the column family's prefix
  // answers while it runs, and queues a rebuild that reads the new prefixes.
  using rocksdb::StackableDB::SetOptions;
  rocksdb::Status SetOptions(
      rocksdb::ColumnFamilyHandle* column_family,
      const std::unordered_map<std::string, std::string>& new_options) override;

  // Writes: each adds its keys to the filter before writing.
  using rocksdb::StackableDB::Put;
  rocksdb::Status Put(const rocksdb::WriteOptions& options,
                      rocksdb::ColumnFamilyHandle* column_family,
                      const rocksdb::Slice& key,
                      const rocksdb::Slice& value) override;
  rocksdb::Status Put(const rocksdb::WriteOptions& options,
                      rocksdb::ColumnFamilyHandle* column_family,
                      const rocksdb::Slice& key, const rocksdb::Slice& ts,
                      const rocksdb::Slice& value) override;
  using rocksdb::StackableDB::PutEntity;
  rocksdb::Status PutEntity(const rocksdb::WriteOptions& options,
                            rocksdb::ColumnFamilyHandle* column_family,
                            const rocksdb::Slice& key,
                            const rocksdb::WideColumns& columns) override;
#if ROCKSDB_MAJOR >= 9
  rocksdb::Status PutEntity(
      const rocksdb::WriteOptions& options, const rocksdb::Slice& key,
      const rocksdb::AttributeGroups& attribute_groups) override;
#endif
  using rocksdb::StackableDB::Merge;
  rocksdb::Status Merge(const rocksdb::WriteOptions& options,
                        rocksdb::ColumnFamilyHandle* column_family,
                        const rocksdb::Slice& key,
                        const rocksdb::Slice& value) override;
  rocksdb::Status Merge(const rocksdb::WriteOptions& options,
                        rocksdb::ColumnFamilyHandle* column_family,
                        const rocksdb::Slice& key, const rocksdb::Slice& ts,
                        const rocksdb::Slice& value) override;
  rocksdb::Status Write(const rocksdb::WriteOptions& options,
                        rocksdb::WriteBatch* updates) override;
#if ROCKSDB_MAJOR >= 9
  rocksdb::Status WriteWithCallback(
      const rocksdb::WriteOptions& options, rocksdb::WriteBatch* updates,
      rocksdb::UserWriteCallback* user_write_cb) override;
#endif
  using rocksdb::StackableDB::IngestExternalFile;
  rocksdb::Status IngestExternalFile(
      rocksdb::ColumnFamilyHandle* column_family,
      const std::vector<std::string>& external_files,
      const rocksdb::IngestExternalFileOptions& options) override;
  rocksdb::Status IngestExternalFiles(
      const std::vector<rocksdb::IngestExternalFileArg>& args) override;

  // Column families.
  using rocksdb::StackableDB::CreateColumnFamily;
  rocksdb::Status CreateColumnFamily(
      const rocksdb::ColumnFamilyOptions& options, const std::string& name,
      rocksdb::ColumnFamilyHandle** handle) override;
  rocksdb::Status CreateColumnFamilies(
      const rocksdb::ColumnFamilyOptions& options,
      const std::vector<std::string>& names,
      std::vector<rocksdb::ColumnFamilyHandle*>* handles) override;
  rocksdb::Status CreateColumnFamilies(
      const std::vector<rocksdb::ColumnFamilyDescriptor>& column_families,
      std::vector<rocksdb::ColumnFamilyHandle*>* handles) override;
  using rocksdb::StackableDB::CreateColumnFamilyWithImport;
  rocksdb::Status CreateColumnFamilyWithImport(
      const rocksdb::ColumnFamilyOptions& options, const std::string& name,
      const rocksdb::ImportColumnFamilyOptions& import_options,
      const rocksdb::ExportImportFilesMetaData& metadata,
      rocksdb::ColumnFamilyHandle** handle) override;
#if ROCKSDB_MAJOR >= 9
  rocksdb::Status CreateColumnFamilyWithImport(
      const rocksdb::ColumnFamilyOptions& options, const std::string& name,
      const rocksdb::ImportColumnFamilyOptions& import_options,
      const std::vector<const rocksdb::ExportImportFilesMetaData*>& metadatas,
      rocksdb::ColumnFamilyHandle** handle) override;
#endif
  rocksdb::Status DestroyColumnFamilyHandle(
      rocksdb::ColumnFamilyHandle* column_family) override;

  // To RocksDB: StackableDB of this release does not forward these, and
  // DB's defaults answer nothing or NotSupported.
  void GetAllColumnFamilyMetaData(
      std::vector<rocksdb::ColumnFamilyMetaData>* metadata) override;
  rocksdb::Status GetStatsHistory(
      uint64_t start_time, uint64_t end_time,
      std::unique_ptr<rocksdb::StatsHistoryIterator>* stats_iterator) override;
#if ROCKSDB_MAJOR < 9
  rocksdb::Status Resume() override;
#endif

  // Refused (NotSupported): a replayer writes into the base database, past
  // the filters.
  using rocksdb::StackableDB::NewDefaultReplayer;
  rocksdb::Status NewDefaultReplayer(
      const std::vector<rocksdb::ColumnFamilyHandle*>& handles,
      std::unique_ptr<rocksdb::TraceReader>&& reader,
      std::unique_ptr<rocksdb::Replayer>* replayer) override;

 private:
  PresenceFilteredDB(rocksdb::DB* db,
                     std::unique_ptr<presence_internal::PresenceCore> core);

  std::unique_ptr<presence_internal::PresenceCore> core_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_PRESENCE_FILTERED_DB_H_
