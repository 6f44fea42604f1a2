// Accounts for every virtual method of rocksdb::DB in the RocksDB release this
// test is compiled against, so that a RocksDB upgrade cannot add a write path
// that bypasses PresenceFilteredDB's filters without a test failing.
//
// The test reads that release's db.h and utilities/stackable_db.h (after
// checking that their version.h is the compiled one) and this package's
// presence_filtered_db.h, lists their member functions as normalized
// signatures (name and parameter types, without parameter names, defaults or
// comments, plus a trailing const), and holds every virtual of rocksdb::DB to
// the table kApi below: how PresenceFilteredDB handles it, and why.

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "rocksdb/version.h"

namespace sstfilter {
namespace {

// ---------------------------------------------------------------------------
// How PresenceFilteredDB handles each virtual of rocksdb::DB.

enum class Handling {
  // A lookup the filter may answer (NotFound for a key it rules out).
  // PresenceFilteredDB overrides it.
  kFilters,
  // A write whose keys enter the filter before they are visible, or a column
  // family creation that sets up a filter. PresenceFilteredDB overrides it.
  kAddsKeys,
  // Forwarded unchanged to the base DB (by StackableDB or by
  // PresenceFilteredDB); it cannot make a key visible without the filter.
  kPassesThrough,
  // PresenceFilteredDB overrides it to return NotSupported or
  // InvalidArgument, saying why.
  kRefused,
  // Neither StackableDB nor PresenceFilteredDB overrides it, so DB's own
  // default runs on the wrapper and reaches another virtual (`target`)
  // through this object.
  kDelegates,
};

const char* HandlingName(Handling handling) {
  switch (handling) {
    case Handling::kFilters:
      return "kFilters";
    case Handling::kAddsKeys:
      return "kAddsKeys";
    case Handling::kPassesThrough:
      return "kPassesThrough";
    case Handling::kRefused:
      return "kRefused";
    case Handling::kDelegates:
      return "kDelegates";
  }
  return "?";
}

struct ApiEntry {
  const char* signature;  // as ParseMethod spells it from rocksdb/db.h
  Handling handling;
  const char* reason;
  const char* target = nullptr;  // kDelegates: the virtual DB's default calls
};

constexpr Handling kFilters = Handling::kFilters;
constexpr Handling kAddsKeys = Handling::kAddsKeys;
constexpr Handling kPassesThrough = Handling::kPassesThrough;
constexpr Handling kRefused = Handling::kRefused;
constexpr Handling kDelegates = Handling::kDelegates;

// Every virtual of rocksdb::DB in the release compiled against, in db.h's
// order; what differs between releases sits under #if ROCKSDB_MAJOR. A
// signature missing here, or here and not in db.h, fails the test.
const ApiEntry kApi[] = {
    {"Resume()", kPassesThrough,
     "recovers from a background error; writes nothing"},
    {"Close()", kPassesThrough,
     "the wrapper stops its background work, then closes the base DB"},
    {"CreateColumnFamily(const ColumnFamilyOptions&, const std::string&, "
     "ColumnFamilyHandle**)",
     kAddsKeys,
     "each new column family gets its filter before its handle is returned"},
    {"CreateColumnFamilies(const ColumnFamilyOptions&, const "
     "std::vector<std::string>&, std::vector<ColumnFamilyHandle*>*)",
     kAddsKeys,
     "each new column family gets its filter before its handle is returned"},
    {"CreateColumnFamilies(const std::vector<ColumnFamilyDescriptor>&, "
     "std::vector<ColumnFamilyHandle*>*)",
     kAddsKeys,
     "each new column family gets its filter before its handle is returned"},
    {"DropColumnFamily(ColumnFamilyHandle*)", kPassesThrough,
     "a dropped column family's keys can no longer be read"},
    {"DropColumnFamilies(const std::vector<ColumnFamilyHandle*>&)",
     kPassesThrough, "a dropped column family's keys can no longer be read"},
    {"DestroyColumnFamilyHandle(ColumnFamilyHandle*)", kPassesThrough,
     "the wrapper releases the handle's filter, then forwards"},
    {"Put(const WriteOptions&, ColumnFamilyHandle*, const Slice&, const "
     "Slice&)",
     kAddsKeys, "the key enters the filter before the write"},
    {"Put(const WriteOptions&, ColumnFamilyHandle*, const Slice&, const "
     "Slice&, const Slice&)",
     kAddsKeys, "the key enters the filter before the write"},
    {"Put(const WriteOptions&, const Slice&, const Slice&)", kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "Put(const WriteOptions&, ColumnFamilyHandle*, const Slice&, const "
     "Slice&)"},
    {"Put(const WriteOptions&, const Slice&, const Slice&, const Slice&)",
     kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "Put(const WriteOptions&, ColumnFamilyHandle*, const Slice&, const "
     "Slice&, const Slice&)"},
    {"PutEntity(const WriteOptions&, ColumnFamilyHandle*, const Slice&, const "
     "WideColumns&)",
     kAddsKeys, "the key enters the filter before the write"},
#if ROCKSDB_MAJOR >= 9
    {"PutEntity(const WriteOptions&, const Slice&, const AttributeGroups&)",
     kAddsKeys, "the key enters the filter before the write"},
#endif
    {"Delete(const WriteOptions&, ColumnFamilyHandle*, const Slice&)",
     kPassesThrough,
     "a delete makes no key visible; the filter may keep the key"},
    {"Delete(const WriteOptions&, ColumnFamilyHandle*, const Slice&, const "
     "Slice&)",
     kPassesThrough,
     "a delete makes no key visible; the filter may keep the key"},
    {"Delete(const WriteOptions&, const Slice&)", kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "Delete(const WriteOptions&, ColumnFamilyHandle*, const Slice&)"},
    {"Delete(const WriteOptions&, const Slice&, const Slice&)", kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "Delete(const WriteOptions&, ColumnFamilyHandle*, const Slice&, const "
     "Slice&)"},
    {"SingleDelete(const WriteOptions&, ColumnFamilyHandle*, const Slice&)",
     kPassesThrough,
     "a delete makes no key visible; the filter may keep the key"},
    {"SingleDelete(const WriteOptions&, ColumnFamilyHandle*, const Slice&, "
     "const Slice&)",
     kPassesThrough,
     "a delete makes no key visible; the filter may keep the key"},
    {"SingleDelete(const WriteOptions&, const Slice&)", kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "SingleDelete(const WriteOptions&, ColumnFamilyHandle*, const Slice&)"},
    {"SingleDelete(const WriteOptions&, const Slice&, const Slice&)",
     kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "SingleDelete(const WriteOptions&, ColumnFamilyHandle*, const Slice&, "
     "const Slice&)"},
    {"DeleteRange(const WriteOptions&, ColumnFamilyHandle*, const Slice&, "
     "const Slice&)",
     kPassesThrough,
     "a delete makes no key visible; the filter may keep the key"},
    {"DeleteRange(const WriteOptions&, ColumnFamilyHandle*, const Slice&, "
     "const Slice&, const Slice&)",
     kDelegates,
     "DB's default (db_impl_write.cc) writes a WriteBatch through this "
     "object's Write",
     "Write(const WriteOptions&, WriteBatch*)"},
#if ROCKSDB_MAJOR >= 9
    {"DeleteRange(const WriteOptions&, const Slice&, const Slice&)", kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "DeleteRange(const WriteOptions&, ColumnFamilyHandle*, const Slice&, "
     "const Slice&)"},
    {"DeleteRange(const WriteOptions&, const Slice&, const Slice&, const "
     "Slice&)",
     kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "DeleteRange(const WriteOptions&, ColumnFamilyHandle*, const Slice&, "
     "const Slice&, const Slice&)"},
#endif
    {"Merge(const WriteOptions&, ColumnFamilyHandle*, const Slice&, const "
     "Slice&)",
     kAddsKeys, "the key enters the filter before the write"},
    {"Merge(const WriteOptions&, const Slice&, const Slice&)", kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "Merge(const WriteOptions&, ColumnFamilyHandle*, const Slice&, const "
     "Slice&)"},
    {"Merge(const WriteOptions&, ColumnFamilyHandle*, const Slice&, const "
     "Slice&, const Slice&)",
     kAddsKeys, "the key enters the filter before the write"},
    {"Write(const WriteOptions&, WriteBatch*)", kAddsKeys,
     "each record's key enters the filter before the batch is written"},
#if ROCKSDB_MAJOR >= 9
    {"WriteWithCallback(const WriteOptions&, WriteBatch*, UserWriteCallback*)",
     kAddsKeys,
     "a write: its batch's keys must enter the filter before it is written"},
    {"Get(const ReadOptions&, ColumnFamilyHandle*, const Slice&, "
     "PinnableSlice*, std::string*)",
     kFilters,
     "answers NotFound for a key the filter rules out (no timestamp asked)"},
#else
    {"Get(const ReadOptions&, ColumnFamilyHandle*, const Slice&, "
     "PinnableSlice*, std::string*)",
     kPassesThrough, "lookups with a timestamp go to RocksDB"},
#endif
    {"Get(const ReadOptions&, ColumnFamilyHandle*, const Slice&, std::string*, "
     "std::string*)",
     kDelegates, "DB's default reads into a PinnableSlice through this object",
     "Get(const ReadOptions&, ColumnFamilyHandle*, const Slice&, "
     "PinnableSlice*, std::string*)"},
#if ROCKSDB_MAJOR >= 9
    {"Get(const ReadOptions&, ColumnFamilyHandle*, const Slice&, "
     "PinnableSlice*)",
     kDelegates, "DB's default asks for no timestamp through this object",
     "Get(const ReadOptions&, ColumnFamilyHandle*, const Slice&, "
     "PinnableSlice*, std::string*)"},
#else
    {"Get(const ReadOptions&, ColumnFamilyHandle*, const Slice&, "
     "PinnableSlice*)",
     kFilters, "answers NotFound for a key the filter rules out"},
#endif
    {"Get(const ReadOptions&, ColumnFamilyHandle*, const Slice&, std::string*)",
     kDelegates, "DB's default reads into a PinnableSlice through this object",
     "Get(const ReadOptions&, ColumnFamilyHandle*, const Slice&, "
     "PinnableSlice*)"},
    {"Get(const ReadOptions&, const Slice&, std::string*)", kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "Get(const ReadOptions&, ColumnFamilyHandle*, const Slice&, "
     "std::string*)"},
    {"Get(const ReadOptions&, const Slice&, std::string*, std::string*)",
     kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "Get(const ReadOptions&, ColumnFamilyHandle*, const Slice&, std::string*, "
     "std::string*)"},
    {"GetEntity(const ReadOptions&, ColumnFamilyHandle*, const Slice&, "
     "PinnableWideColumns*)",
     kPassesThrough, "wide-column lookups go to RocksDB"},
#if ROCKSDB_MAJOR >= 9
    {"GetEntity(const ReadOptions&, const Slice&, PinnableAttributeGroups*)",
     kPassesThrough, "wide-column lookups go to RocksDB"},
#endif
    {"GetMergeOperands(const ReadOptions&, ColumnFamilyHandle*, const Slice&, "
     "PinnableSlice*, GetMergeOperandsOptions*, int*)",
     kPassesThrough, "merge operands are read from RocksDB"},
#if ROCKSDB_MAJOR >= 9
    {"MultiGet(const ReadOptions&, const std::vector<ColumnFamilyHandle*>&, "
     "const std::vector<Slice>&, std::vector<std::string>*, "
     "std::vector<std::string>*)",
     kDelegates, "final in DB: converts to the array form through this object",
     "MultiGet(const ReadOptions&, const size_t, ColumnFamilyHandle**, const "
     "Slice*, PinnableSlice*, std::string*, Status*, const bool)"},
    {"MultiGet(const ReadOptions&, const std::vector<ColumnFamilyHandle*>&, "
     "const std::vector<Slice>&, std::vector<std::string>*)",
     kDelegates, "final in DB: asks for no timestamps through this object",
     "MultiGet(const ReadOptions&, const std::vector<ColumnFamilyHandle*>&, "
     "const std::vector<Slice>&, std::vector<std::string>*, "
     "std::vector<std::string>*)"},
#else
    {"MultiGet(const ReadOptions&, const std::vector<ColumnFamilyHandle*>&, "
     "const std::vector<Slice>&, std::vector<std::string>*, "
     "std::vector<std::string>*)",
     kPassesThrough, "the vector forms of MultiGet go to RocksDB"},
    {"MultiGet(const ReadOptions&, const std::vector<ColumnFamilyHandle*>&, "
     "const std::vector<Slice>&, std::vector<std::string>*)",
     kPassesThrough, "the vector forms of MultiGet go to RocksDB"},
#endif
    {"MultiGet(const ReadOptions&, const std::vector<Slice>&, "
     "std::vector<std::string>*)",
     kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "MultiGet(const ReadOptions&, const std::vector<ColumnFamilyHandle*>&, "
     "const std::vector<Slice>&, std::vector<std::string>*)"},
    {"MultiGet(const ReadOptions&, const std::vector<Slice>&, "
     "std::vector<std::string>*, std::vector<std::string>*)",
     kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "MultiGet(const ReadOptions&, const std::vector<ColumnFamilyHandle*>&, "
     "const std::vector<Slice>&, std::vector<std::string>*, "
     "std::vector<std::string>*)"},
#if ROCKSDB_MAJOR >= 9
    {"MultiGet(const ReadOptions&, const size_t, ColumnFamilyHandle**, const "
     "Slice*, PinnableSlice*, std::string*, Status*, const bool)",
     kFilters, "keys the filter rules out get NotFound (no timestamps asked)"},
    {"MultiGet(const ReadOptions&, ColumnFamilyHandle*, const size_t, const "
     "Slice*, PinnableSlice*, std::string*, Status*, const bool)",
     kDelegates,
     "DB's default (db_impl.cc) repeats the handle per key through this object",
     "MultiGet(const ReadOptions&, const size_t, ColumnFamilyHandle**, const "
     "Slice*, PinnableSlice*, std::string*, Status*, const bool)"},
    {"MultiGet(const ReadOptions&, ColumnFamilyHandle*, const size_t, const "
     "Slice*, PinnableSlice*, Status*, const bool)",
     kDelegates, "DB's default asks for no timestamps through this object",
     "MultiGet(const ReadOptions&, ColumnFamilyHandle*, const size_t, const "
     "Slice*, PinnableSlice*, std::string*, Status*, const bool)"},
    {"MultiGet(const ReadOptions&, const size_t, ColumnFamilyHandle**, const "
     "Slice*, PinnableSlice*, Status*, const bool)",
     kDelegates, "DB's default asks for no timestamps through this object",
     "MultiGet(const ReadOptions&, const size_t, ColumnFamilyHandle**, const "
     "Slice*, PinnableSlice*, std::string*, Status*, const bool)"},
    {"MultiGetEntity(const ReadOptions&, ColumnFamilyHandle*, size_t, const "
     "Slice*, PinnableWideColumns*, Status*, bool)",
     kPassesThrough, "wide-column lookups go to RocksDB"},
    {"MultiGetEntity(const ReadOptions&, size_t, ColumnFamilyHandle**, const "
     "Slice*, PinnableWideColumns*, Status*, bool)",
     kPassesThrough, "wide-column lookups go to RocksDB"},
    {"MultiGetEntity(const ReadOptions&, size_t, const Slice*, "
     "PinnableAttributeGroups*)",
     kPassesThrough, "wide-column lookups go to RocksDB"},
#else
    {"MultiGet(const ReadOptions&, const size_t, ColumnFamilyHandle**, const "
     "Slice*, PinnableSlice*, std::string*, Status*, const bool)",
     kPassesThrough, "lookups with timestamps go to RocksDB"},
    {"MultiGet(const ReadOptions&, ColumnFamilyHandle*, const size_t, const "
     "Slice*, PinnableSlice*, std::string*, Status*, const bool)",
     kPassesThrough, "lookups with timestamps go to RocksDB"},
    {"MultiGet(const ReadOptions&, ColumnFamilyHandle*, const size_t, const "
     "Slice*, PinnableSlice*, Status*, const bool)",
     kFilters,
     "keys the filter rules out get NotFound; the rest go to RocksDB"},
    {"MultiGet(const ReadOptions&, const size_t, ColumnFamilyHandle**, const "
     "Slice*, PinnableSlice*, Status*, const bool)",
     kFilters,
     "keys the filter rules out get NotFound; the rest go to RocksDB"},
#endif
    {"KeyMayExist(const ReadOptions&, ColumnFamilyHandle*, const Slice&, "
     "std::string*, std::string*, bool*)",
     kPassesThrough, "lookups with a timestamp go to RocksDB"},
    {"KeyMayExist(const ReadOptions&, ColumnFamilyHandle*, const Slice&, "
     "std::string*, bool*)",
     kFilters, "answers false for a key the filter rules out"},
    {"KeyMayExist(const ReadOptions&, const Slice&, std::string*, bool*)",
     kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "KeyMayExist(const ReadOptions&, ColumnFamilyHandle*, const Slice&, "
     "std::string*, bool*)"},
    {"KeyMayExist(const ReadOptions&, const Slice&, std::string*, "
     "std::string*, bool*)",
     kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "KeyMayExist(const ReadOptions&, ColumnFamilyHandle*, const Slice&, "
     "std::string*, std::string*, bool*)"},
    {"NewIterator(const ReadOptions&, ColumnFamilyHandle*)", kFilters,
     "a prefix seek for a prefix the filter rules out answers no entry"},
    {"NewIterator(const ReadOptions&)", kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "NewIterator(const ReadOptions&, ColumnFamilyHandle*)"},
    {"NewIterators(const ReadOptions&, const "
     "std::vector<ColumnFamilyHandle*>&, std::vector<Iterator*>*)",
     kFilters,
     "a prefix seek for a prefix the filter rules out answers no "
     "entry"},
#if ROCKSDB_MAJOR >= 9
    {"NewCoalescingIterator(const ReadOptions&, const "
     "std::vector<ColumnFamilyHandle*>&)",
     kPassesThrough, "iterators read through RocksDB"},
    {"NewAttributeGroupIterator(const ReadOptions&, const "
     "std::vector<ColumnFamilyHandle*>&)",
     kPassesThrough, "iterators read through RocksDB"},
#endif
    {"GetSnapshot()", kPassesThrough, "snapshots are the base DB's"},
    {"ReleaseSnapshot(const Snapshot*)", kPassesThrough,
     "snapshots are the base DB's"},
    {"GetProperty(ColumnFamilyHandle*, const Slice&, std::string*)",
     kPassesThrough, "properties and statistics"},
    {"GetProperty(const Slice&, std::string*)", kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "GetProperty(ColumnFamilyHandle*, const Slice&, std::string*)"},
    {"GetMapProperty(ColumnFamilyHandle*, const Slice&, std::map<std::string, "
     "std::string>*)",
     kPassesThrough, "properties and statistics"},
    {"GetMapProperty(const Slice&, std::map<std::string, std::string>*)",
     kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "GetMapProperty(ColumnFamilyHandle*, const Slice&, std::map<std::string, "
     "std::string>*)"},
    {"GetIntProperty(ColumnFamilyHandle*, const Slice&, uint64_t*)",
     kPassesThrough, "properties and statistics"},
    {"GetIntProperty(const Slice&, uint64_t*)", kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "GetIntProperty(ColumnFamilyHandle*, const Slice&, uint64_t*)"},
    {"ResetStats()", kPassesThrough, "properties and statistics"},
    {"GetAggregatedIntProperty(const Slice&, uint64_t*)", kPassesThrough,
     "properties and statistics"},
    {"GetApproximateSizes(const SizeApproximationOptions&, "
     "ColumnFamilyHandle*, const Range*, int, uint64_t*)",
     kPassesThrough, "size estimates"},
    {"GetApproximateSizes(ColumnFamilyHandle*, const Range*, int, uint64_t*, "
     "SizeApproximationFlags)",
     kDelegates,
     "DB's default (inline below the class) converts the flags to options "
     "through this object",
     "GetApproximateSizes(const SizeApproximationOptions&, "
     "ColumnFamilyHandle*, const Range*, int, uint64_t*)"},
    {"GetApproximateSizes(const Range*, int, uint64_t*, "
     "SizeApproximationFlags)",
     kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "GetApproximateSizes(ColumnFamilyHandle*, const Range*, int, uint64_t*, "
     "SizeApproximationFlags)"},
    {"GetApproximateMemTableStats(ColumnFamilyHandle*, const Range&, uint64_t* "
     "const, uint64_t* const)",
     kPassesThrough, "size estimates"},
    {"GetApproximateMemTableStats(const Range&, uint64_t* const, uint64_t* "
     "const)",
     kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "GetApproximateMemTableStats(ColumnFamilyHandle*, const Range&, uint64_t* "
     "const, uint64_t* const)"},
    {"CompactRange(const CompactRangeOptions&, ColumnFamilyHandle*, const "
     "Slice*, const Slice*)",
     kPassesThrough,
     "compaction moves keys between files; it makes none visible"},
    {"CompactRange(const CompactRangeOptions&, const Slice*, const Slice*)",
     kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "CompactRange(const CompactRangeOptions&, ColumnFamilyHandle*, const "
     "Slice*, const Slice*)"},
    {"SetOptions(ColumnFamilyHandle*, const std::unordered_map<std::string, "
     "std::string>&)",
     kPassesThrough,
     "to RocksDB; one naming prefix_extractor stops prefix answers while it "
     "runs and queues a rebuild"},
    {"SetOptions(const std::unordered_map<std::string, std::string>&)",
     kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "SetOptions(ColumnFamilyHandle*, const std::unordered_map<std::string, "
     "std::string>&)"},
    {"SetDBOptions(const std::unordered_map<std::string, std::string>&)",
     kPassesThrough, "options and identity"},
    {"CompactFiles(const CompactionOptions&, ColumnFamilyHandle*, const "
     "std::vector<std::string>&, const int, const int, "
     "std::vector<std::string>* const, CompactionJobInfo*)",
     kPassesThrough,
     "compaction moves keys between files; it makes none visible"},
    {"CompactFiles(const CompactionOptions&, const std::vector<std::string>&, "
     "const int, const int, std::vector<std::string>* const, "
     "CompactionJobInfo*)",
     kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "CompactFiles(const CompactionOptions&, ColumnFamilyHandle*, const "
     "std::vector<std::string>&, const int, const int, "
     "std::vector<std::string>* const, CompactionJobInfo*)"},
    {"PauseBackgroundWork()", kPassesThrough,
     "compaction moves keys between files; it makes none visible"},
    {"ContinueBackgroundWork()", kPassesThrough,
     "compaction moves keys between files; it makes none visible"},
    {"EnableAutoCompaction(const std::vector<ColumnFamilyHandle*>&)",
     kPassesThrough,
     "compaction moves keys between files; it makes none visible"},
    {"DisableManualCompaction()", kPassesThrough,
     "compaction moves keys between files; it makes none visible"},
    {"EnableManualCompaction()", kPassesThrough,
     "compaction moves keys between files; it makes none visible"},
#if ROCKSDB_MAJOR >= 9
    {"WaitForCompact(const WaitForCompactOptions&)", kPassesThrough,
     "compaction moves keys between files; it makes none visible"},
#endif
    {"NumberLevels(ColumnFamilyHandle*)", kPassesThrough,
     "options and identity"},
    {"NumberLevels()", kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "NumberLevels(ColumnFamilyHandle*)"},
    {"MaxMemCompactionLevel(ColumnFamilyHandle*)", kPassesThrough,
     "options and identity"},
    {"MaxMemCompactionLevel()", kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "MaxMemCompactionLevel(ColumnFamilyHandle*)"},
    {"Level0StopWriteTrigger(ColumnFamilyHandle*)", kPassesThrough,
     "options and identity"},
    {"Level0StopWriteTrigger()", kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "Level0StopWriteTrigger(ColumnFamilyHandle*)"},
    {"GetName() const", kPassesThrough, "options and identity"},
    {"GetEnv() const", kPassesThrough, "options and identity"},
    {"GetFileSystem() const", kPassesThrough, "options and identity"},
    {"GetOptions(ColumnFamilyHandle*) const", kPassesThrough,
     "options and identity"},
    {"GetOptions() const", kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "GetOptions(ColumnFamilyHandle*) const"},
    {"GetDBOptions() const", kPassesThrough, "options and identity"},
    {"Flush(const FlushOptions&, ColumnFamilyHandle*)", kPassesThrough,
     "a flush moves memtable keys the filter holds into a table"},
    {"Flush(const FlushOptions&)", kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "Flush(const FlushOptions&, ColumnFamilyHandle*)"},
    {"Flush(const FlushOptions&, const std::vector<ColumnFamilyHandle*>&)",
     kPassesThrough,
     "a flush moves memtable keys the filter holds into a table"},
    {"FlushWAL(bool)", kPassesThrough, "the WAL and sequence numbers"},
    {"SyncWAL()", kPassesThrough, "the WAL and sequence numbers"},
    {"LockWAL()", kPassesThrough, "the WAL and sequence numbers"},
    {"UnlockWAL()", kPassesThrough, "the WAL and sequence numbers"},
    {"GetLatestSequenceNumber() const", kPassesThrough,
     "the WAL and sequence numbers"},
    {"IncreaseFullHistoryTsLow(ColumnFamilyHandle*, std::string)",
     kPassesThrough,
     "timestamp history; column families with timestamps get no filter"},
    {"GetFullHistoryTsLow(ColumnFamilyHandle*, std::string*)", kPassesThrough,
     "timestamp history; column families with timestamps get no filter"},
#if ROCKSDB_MAJOR < 9
    {"EnableFileDeletions(bool)", kPassesThrough,
     "file lists and table properties"},
#endif
    {"DisableFileDeletions()", kPassesThrough,
     "file lists and table properties"},
#if ROCKSDB_MAJOR >= 9
    {"EnableFileDeletions()", kPassesThrough,
     "file lists and table properties"},
#endif
    {"GetCreationTimeOfOldestFile(uint64_t*)", kPassesThrough,
     "the WAL and sequence numbers"},
    {"GetUpdatesSince(SequenceNumber, "
     "std::unique_ptr<TransactionLogIterator>*, const "
     "TransactionLogIterator::ReadOptions&)",
     kPassesThrough, "the WAL and sequence numbers"},
    {"DeleteFile(std::string)", kPassesThrough,
     "removes a file's keys; the filter may keep them"},
    {"GetLiveFilesMetaData(std::vector<LiveFileMetaData>*)", kPassesThrough,
     "file lists and table properties"},
    {"GetLiveFilesChecksumInfo(FileChecksumList*)", kPassesThrough,
     "file lists and table properties"},
    {"GetLiveFilesStorageInfo(const LiveFilesStorageInfoOptions&, "
     "std::vector<LiveFileStorageInfo>*)",
     kPassesThrough, "file lists and table properties"},
    {"GetColumnFamilyMetaData(ColumnFamilyHandle*, ColumnFamilyMetaData*)",
     kPassesThrough, "file lists and table properties"},
    {"GetAllColumnFamilyMetaData(std::vector<ColumnFamilyMetaData>*)",
     kPassesThrough, "file lists and table properties"},
    {"GetLiveFiles(std::vector<std::string>&, uint64_t*, bool)", kPassesThrough,
     "file lists and table properties"},
#if ROCKSDB_MAJOR >= 9
    {"GetSortedWalFiles(VectorWalPtr&)", kPassesThrough,
     "the WAL and sequence numbers"},
    {"GetCurrentWalFile(std::unique_ptr<WalFile>*)", kPassesThrough,
     "the WAL and sequence numbers"},
#else
    {"GetSortedWalFiles(VectorLogPtr&)", kPassesThrough,
     "the WAL and sequence numbers"},
    {"GetCurrentWalFile(std::unique_ptr<LogFile>*)", kPassesThrough,
     "the WAL and sequence numbers"},
#endif
    {"IngestExternalFile(ColumnFamilyHandle*, const std::vector<std::string>&, "
     "const IngestExternalFileOptions&)",
     kAddsKeys, "the files' keys enter the filter before they are ingested"},
    {"IngestExternalFile(const std::vector<std::string>&, const "
     "IngestExternalFileOptions&)",
     kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "IngestExternalFile(ColumnFamilyHandle*, const std::vector<std::string>&, "
     "const IngestExternalFileOptions&)"},
    {"IngestExternalFiles(const std::vector<IngestExternalFileArg>&)",
     kAddsKeys, "the files' keys enter the filter before they are ingested"},
    {"CreateColumnFamilyWithImport(const ColumnFamilyOptions&, const "
     "std::string&, const ImportColumnFamilyOptions&, const "
     "ExportImportFilesMetaData&, ColumnFamilyHandle**)",
     kAddsKeys,
     "the filter is rebuilt from a scan; lookups go to RocksDB until it "
     "serves"},
#if ROCKSDB_MAJOR >= 9
    {"CreateColumnFamilyWithImport(const ColumnFamilyOptions&, const "
     "std::string&, const ImportColumnFamilyOptions&, const std::vector<const "
     "ExportImportFilesMetaData*>&, ColumnFamilyHandle**)",
     kAddsKeys,
     "the filter is rebuilt from a scan; lookups go to RocksDB until it "
     "serves"},
    {"ClipColumnFamily(ColumnFamilyHandle*, const Slice&, const Slice&)",
     kPassesThrough, "deletes keys outside a range; the filter may keep them"},
#endif
    {"VerifyFileChecksums(const ReadOptions&)", kPassesThrough, "checksums"},
    {"VerifyChecksum(const ReadOptions&)", kPassesThrough, "checksums"},
    {"VerifyChecksum()", kPassesThrough, "checksums"},
    {"GetDbIdentity(std::string&) const", kPassesThrough,
     "options and identity"},
    {"GetDbSessionId(std::string&) const", kPassesThrough,
     "options and identity"},
    {"DefaultColumnFamily() const", kPassesThrough, "options and identity"},
    {"GetPropertiesOfAllTables(ColumnFamilyHandle*, "
     "TablePropertiesCollection*)",
     kPassesThrough, "file lists and table properties"},
    {"GetPropertiesOfAllTables(TablePropertiesCollection*)", kDelegates,
     "DB's default calls it on DefaultColumnFamily() through this object",
     "GetPropertiesOfAllTables(ColumnFamilyHandle*, "
     "TablePropertiesCollection*)"},
    {"GetPropertiesOfTablesInRange(ColumnFamilyHandle*, const Range*, "
     "std::size_t, TablePropertiesCollection*)",
     kPassesThrough, "file lists and table properties"},
    {"SuggestCompactRange(ColumnFamilyHandle*, const Slice*, const Slice*)",
     kPassesThrough,
     "compaction moves keys between files; it makes none visible"},
    {"PromoteL0(ColumnFamilyHandle*, int)", kPassesThrough,
     "compaction moves keys between files; it makes none visible"},
    {"StartTrace(const TraceOptions&, std::unique_ptr<TraceWriter>&&)",
     kPassesThrough, "tracing records operations; it writes none"},
    {"EndTrace()", kPassesThrough,
     "tracing records operations; it writes none"},
    {"StartIOTrace(const TraceOptions&, std::unique_ptr<TraceWriter>&&)",
     kPassesThrough, "tracing records operations; it writes none"},
    {"EndIOTrace()", kPassesThrough,
     "tracing records operations; it writes none"},
    {"StartBlockCacheTrace(const TraceOptions&, "
     "std::unique_ptr<TraceWriter>&&)",
     kPassesThrough, "tracing records operations; it writes none"},
    {"StartBlockCacheTrace(const BlockCacheTraceOptions&, "
     "std::unique_ptr<BlockCacheTraceWriter>&&)",
     kPassesThrough, "tracing records operations; it writes none"},
    {"EndBlockCacheTrace()", kPassesThrough,
     "tracing records operations; it writes none"},
    {"NewDefaultReplayer(const std::vector<ColumnFamilyHandle*>&, "
     "std::unique_ptr<TraceReader>&&, std::unique_ptr<Replayer>*)",
     kRefused,
     "a replayer would write the trace into the base DB, past the filters"},
    {"GetRootDB()", kPassesThrough,
     "the base DB itself: writes through it are Not covered (see "
     "presence_filtered_db.h)"},
    {"GetStatsHistory(uint64_t, uint64_t, "
     "std::unique_ptr<StatsHistoryIterator>*)",
     kPassesThrough, "statistics history"},
    {"TryCatchUpWithPrimary()", kPassesThrough, "secondary instances only"},
};

// ---------------------------------------------------------------------------
// Reading member function declarations out of a C++ header. Enough C++ for
// RocksDB's public headers and ours: comments, string literals, inline
// bodies, nested types, access labels, #if/#ifdef/#else/#endif on the
// macros the test knows (anything else inside a class is an error).

// One member function as declared in a class.
struct Method {
  std::string name;
  std::string signature;  // "Put(const WriteOptions&, const Slice&) const"
  std::string key;        // signature without top-level const on parameters
  bool is_virtual = false;
  bool is_override = false;
  bool has_body = false;
  std::string body;  // the inline body, if any, on one line
};

struct ParsedClass {
  std::vector<Method> methods;
  std::vector<std::string> errors;  // empty when the class parsed cleanly
};

// What the test knows of the preprocessor: the macros a conditional inside a
// class may test, with their values; any other name is an error.
struct Macros {
  std::map<std::string, long> defined;
  std::set<std::string> undefined;
};

Macros CompiledMacros() {
  Macros macros;
  macros.defined = {{"ROCKSDB_MAJOR", ROCKSDB_MAJOR},
                    {"ROCKSDB_MINOR", ROCKSDB_MINOR},
                    {"ROCKSDB_PATCH", ROCKSDB_PATCH}};
#ifdef ROCKSDB_LITE
  macros.defined["ROCKSDB_LITE"] = 1;
#else
  macros.undefined.insert("ROCKSDB_LITE");
#endif
#ifdef _WIN32
  macros.defined["_WIN32"] = 1;
#else
  macros.undefined.insert("_WIN32");
#endif
  return macros;
}

bool IsWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// text without its comments, with string and character literals emptied (so
// that no brace or quote inside one is seen); line breaks are kept.
std::string StripComments(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (c == '/' && next == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
      out += ' ';
    } else if (c == '/' && next == '*') {
      const size_t end = text.find("*/", i + 2);
      const size_t stop = end == absl::string_view::npos ? text.size() : end;
      out += ' ';
      for (size_t j = i; j < stop; ++j) {
        if (text[j] == '\n') out += '\n';
      }
      i = end == absl::string_view::npos ? text.size() : end + 2;
    } else if ((c == '"' || c == '\'') &&
               !(c == '\'' && i > 0 && IsWordChar(text[i - 1]))) {
      out += c;
      ++i;
      while (i < text.size() && text[i] != c && text[i] != '\n') {
        i += text[i] == '\\' ? 2 : 1;
      }
      out += c;
      ++i;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

// Where the text between the braces of class `name`'s definition begins and
// ends in text, or nullopt.
std::optional<std::pair<size_t, size_t>> ClassBody(const std::string& text,
                                                   const std::string& name) {
  const std::regex head("\\bclass\\s+" + name + "\\b[^;{]*\\{");
  std::smatch match;
  if (!std::regex_search(text, match, head)) return std::nullopt;
  const size_t open = match.position(0) + match.length(0) - 1;
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    if (text[i] == '{') ++depth;
    if (text[i] == '}' && --depth == 0) return std::make_pair(open + 1, i);
  }
  return std::nullopt;
}

// A preprocessor #if expression: integers, macro names, defined(NAME),
// !, &&, ||, comparisons and parentheses.
class ConditionEvaluator {
 public:
  ConditionEvaluator(absl::string_view expression, const Macros& macros)
      : macros_(macros) {
    size_t i = 0;
    while (i < expression.size()) {
      const char c = expression[i];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
      } else if (IsWordChar(c)) {
        size_t j = i;
        while (j < expression.size() && IsWordChar(expression[j])) ++j;
        tokens_.emplace_back(expression.substr(i, j - i));
        i = j;
      } else {
        const absl::string_view two = expression.substr(i, 2);
        if (two == "&&" || two == "||" || two == "==" || two == "!=" ||
            two == "<=" || two == ">=") {
          tokens_.emplace_back(two);
          i += 2;
        } else {
          tokens_.emplace_back(1, c);
          ++i;
        }
      }
    }
  }

  // The value, or nullopt with error() saying why.
  std::optional<long> Evaluate() {
    const long value = Or();
    if (error_.empty() && next_ != tokens_.size()) {
      error_ = absl::StrCat("unexpected ", tokens_[next_]);
    }
    if (!error_.empty()) return std::nullopt;
    return value;
  }
  const std::string& error() const { return error_; }

 private:
  bool Accept(absl::string_view token) {
    if (next_ < tokens_.size() && tokens_[next_] == token) {
      ++next_;
      return true;
    }
    return false;
  }
  long Or() {
    long value = And();
    while (Accept("||")) value = (And() != 0) || value != 0;
    return value;
  }
  long And() {
    long value = Comparison();
    while (Accept("&&")) value = (Comparison() != 0) && value != 0;
    return value;
  }
  long Comparison() {
    const long left = Unary();
    for (const char* op : {"==", "!=", "<=", ">=", "<", ">"}) {
      if (!Accept(op)) continue;
      const long right = Unary();
      const absl::string_view o = op;
      if (o == "==") return left == right;
      if (o == "!=") return left != right;
      if (o == "<=") return left <= right;
      if (o == ">=") return left >= right;
      if (o == "<") return left < right;
      return left > right;
    }
    return left;
  }
  long Unary() {
    if (Accept("!")) return Unary() == 0;
    if (Accept("(")) {
      const long value = Or();
      if (!Accept(")")) error_ = "missing )";
      return value;
    }
    if (next_ >= tokens_.size()) {
      error_ = "expression ends early";
      return 0;
    }
    const std::string token = tokens_[next_++];
    if (token == "defined") {
      const bool parenthesized = Accept("(");
      const std::string name = next_ < tokens_.size() ? tokens_[next_++] : "";
      if (parenthesized && !Accept(")")) error_ = "missing )";
      return Defined(name);
    }
    if (std::isdigit(static_cast<unsigned char>(token[0]))) {
      return std::strtol(token.c_str(), nullptr, 0);
    }
    if (!Known(token)) return 0;
    auto it = macros_.defined.find(token);
    return it == macros_.defined.end() ? 0 : it->second;
  }
  long Defined(const std::string& name) {
    if (!Known(name)) return 0;
    return macros_.defined.count(name);
  }
  bool Known(const std::string& name) {
    if (macros_.defined.count(name) > 0 || macros_.undefined.count(name) > 0) {
      return true;
    }
    if (error_.empty()) error_ = absl::StrCat("unknown macro ", name);
    return false;
  }

  const Macros& macros_;
  std::vector<std::string> tokens_;
  size_t next_ = 0;
  std::string error_;
};

// body with its preprocessor lines applied: the lines of false branches and
// the directives themselves become empty lines.
std::string ApplyConditionals(absl::string_view body, const Macros& macros,
                              std::vector<std::string>* errors) {
  struct Branch {
    bool enclosing;  // the lines around the #if are kept
    bool taken;      // some branch so far was true
    bool active;     // the lines of this branch are kept
  };
  std::vector<Branch> stack;
  auto evaluate = [&](absl::string_view expression) {
    ConditionEvaluator evaluator(expression, macros);
    const std::optional<long> value = evaluator.Evaluate();
    if (!value.has_value()) {
      errors->push_back(absl::StrCat("#if ", expression, ": ",
                                     evaluator.error(),
                                     " (teach db_api_coverage_test.cc)"));
    }
    return value.value_or(0) != 0;
  };
  std::string out;
  for (absl::string_view line : absl::StrSplit(body, '\n')) {
    const bool kept = stack.empty() || stack.back().active;
    const absl::string_view stripped = absl::StripAsciiWhitespace(line);
    if (!absl::StartsWith(stripped, "#")) {
      if (kept) out.append(line.data(), line.size());
      out += '\n';
      continue;
    }
    out += '\n';
    absl::string_view directive =
        absl::StripLeadingAsciiWhitespace(stripped.substr(1));
    size_t end = 0;
    while (end < directive.size() && IsWordChar(directive[end])) ++end;
    const absl::string_view word = directive.substr(0, end);
    const absl::string_view rest =
        absl::StripAsciiWhitespace(directive.substr(end));
    if (word == "if" || word == "ifdef" || word == "ifndef") {
      bool value = false;
      if (word == "if") {
        value = evaluate(rest);
      } else {
        value = evaluate(absl::StrCat("defined(", rest, ")"));
        if (word == "ifndef") value = !value;
      }
      stack.push_back({kept, value, kept && value});
    } else if (word == "elif" || word == "else") {
      if (stack.empty()) {
        errors->push_back(absl::StrCat("#", word, " without #if"));
        continue;
      }
      Branch& branch = stack.back();
      const bool value = word == "else" || evaluate(rest);
      branch.active = branch.enclosing && !branch.taken && value;
      branch.taken = branch.taken || value;
    } else if (word == "endif") {
      if (stack.empty()) {
        errors->push_back("#endif without #if");
      } else {
        stack.pop_back();
      }
    } else if (kept && word != "undef" && word != "pragma") {
      errors->push_back(
          absl::StrCat("unexpected directive inside a class: ", stripped));
    }
  }
  if (!stack.empty()) errors->push_back("#if without #endif");
  return out;
}

// One declaration of a class body: its text up to the ';' or the inline body.
struct Declaration {
  std::string text;
  bool has_body = false;
  std::string body;
};

// The declarations of a class body, with nested bodies flattened: a function
// body ends its declaration, a nested type's body is dropped, and access
// labels are removed.
std::vector<Declaration> SplitDeclarations(absl::string_view body) {
  std::vector<Declaration> declarations;
  std::string current;
  int parens = 0;
  auto flush = [&](bool has_body, absl::string_view inline_body) {
    const absl::string_view text = absl::StripAsciiWhitespace(current);
    if (!text.empty()) {
      std::vector<absl::string_view> words = absl::StrSplit(
          inline_body, absl::ByAnyChar(" \t\n"), absl::SkipEmpty());
      declarations.push_back(
          {std::string(text), has_body, absl::StrJoin(words, " ")});
    }
    current.clear();
  };
  for (size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (c == '(') ++parens;
    if (c == ')') --parens;
    if (parens > 0) {
      current += c;
    } else if (c == '{') {
      size_t end = i;
      for (int depth = 0; end < body.size(); ++end) {
        if (body[end] == '{') ++depth;
        if (body[end] == '}' && --depth == 0) break;
      }
      const absl::string_view inner = body.substr(i + 1, end - i - 1);
      if (absl::StrContains(current, '(')) {
        flush(true, inner);
      } else {
        current += " {} ";  // a nested type or a brace initializer
      }
      i = end;
    } else if (c == ';') {
      flush(false, "");
    } else if (c == ':' && (i + 1 >= body.size() || body[i + 1] != ':') &&
               (i == 0 || body[i - 1] != ':')) {
      const absl::string_view text = absl::StripAsciiWhitespace(current);
      if (text == "public" || text == "protected" || text == "private") {
        current.clear();
      } else {
        current += c;
      }
    } else {
      current += c;
    }
  }
  return declarations;
}

// C++ tokens, enough for declarations: names (with their "::" qualifiers),
// numbers, and single punctuation characters.
std::vector<std::string> Tokenize(absl::string_view text) {
  std::vector<std::string> tokens;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (IsWordChar(c) || text.substr(i, 2) == "::") {
      size_t j = i;
      while (j < text.size() &&
             (IsWordChar(text[j]) || text.substr(j, 2) == "::")) {
        j += text.substr(j, 2) == "::" ? 2 : 1;
      }
      absl::string_view word = text.substr(i, j - i);
      // Our headers name RocksDB's types with their namespace; its own do not.
      for (absl::string_view qualifier :
           {"::", "rocksdb::", "ROCKSDB_NAMESPACE::"}) {
        if (absl::StartsWith(word, qualifier) &&
            word.size() > qualifier.size()) {
          word.remove_prefix(qualifier.size());
        }
      }
      tokens.emplace_back(word);
      i = j;
    } else {
      tokens.emplace_back(1, c);
      ++i;
    }
  }
  return tokens;
}

bool IsWord(const std::string& token) {
  return !token.empty() && (IsWordChar(token[0]) || token[0] == ':');
}

// A name, not a keyword of a built-in type or a qualifier.
bool IsIdentifier(const std::string& token) {
  static const std::set<std::string> kKeywords = {
      "const", "volatile", "unsigned", "signed", "int",    "long",
      "short", "char",     "bool",     "float",  "double", "void"};
  return IsWord(token) && !std::isdigit(static_cast<unsigned char>(token[0])) &&
         kKeywords.count(token) == 0;
}

// tokens joined as C++ is usually written: "const std::vector<Slice>&".
std::string Render(const std::vector<std::string>& tokens) {
  std::string out;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (i > 0 &&
        ((IsWord(tokens[i - 1]) && IsWord(tokens[i])) || tokens[i - 1] == "," ||
         (tokens[i] == "const" && !IsWord(tokens[i - 1]) &&
          tokens[i - 1] != "<" && tokens[i - 1] != "("))) {
      out += ' ';
    }
    out += tokens[i];
  }
  return out;
}

// Splits tokens at the commas outside any bracket.
std::vector<std::vector<std::string>> SplitTopLevel(
    const std::vector<std::string>& tokens) {
  std::vector<std::vector<std::string>> parts(1);
  int depth = 0;
  for (const std::string& token : tokens) {
    if (token == "(" || token == "<" || token == "[" || token == "{") ++depth;
    if (token == ")" || token == ">" || token == "]" || token == "}") --depth;
    if (token == "," && depth == 0) {
      parts.emplace_back();
    } else {
      parts.back().push_back(token);
    }
  }
  return parts;
}

// A parameter's type, without its default value and name, as declared and
// (key) without a top-level const, which does not change the signature.
void NormalizeParameter(std::vector<std::string> tokens, std::string* type,
                        std::string* key) {
  int depth = 0;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i] == "<" || tokens[i] == "(") ++depth;
    if (tokens[i] == ">" || tokens[i] == ")") --depth;
    if (tokens[i] == "=" && depth == 0) {
      tokens.resize(i);
      break;
    }
  }
  size_t significant = 0;
  for (const std::string& token : tokens) significant += token != "const";
  if (significant > 1 && IsIdentifier(tokens.back())) tokens.pop_back();
  *type = Render(tokens);

  bool indirect = false;
  depth = 0;
  for (const std::string& token : tokens) {
    if (token == "<") ++depth;
    if (token == ">") --depth;
    if (depth == 0 && (token == "*" || token == "&")) indirect = true;
  }
  std::vector<std::string> bare;
  depth = 0;
  for (const std::string& token : tokens) {
    if (token == "<") ++depth;
    if (token == ">") --depth;
    if (!indirect && depth == 0 && token == "const") continue;
    bare.push_back(token);
  }
  if (bare.size() >= 2 && bare.back() == "const" &&
      bare[bare.size() - 2] == "*") {
    bare.pop_back();
  }
  *key = Render(bare);
}

// The member function a declaration declares, or nullopt for anything else
// (data members, types, using-declarations, constructors, destructors and
// operators).
std::optional<Method> ParseMethod(const Declaration& declaration,
                                  const std::string& class_name) {
  const std::vector<std::string> tokens = Tokenize(declaration.text);
  static const std::set<std::string> kNotNames = {"__attribute__", "__declspec",
                                                  "alignas",       "decltype",
                                                  "noexcept",      "throw"};
  size_t open = tokens.size();
  int angles = 0;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i] == "operator") return std::nullopt;
    if (tokens[i] == "<") ++angles;
    if (tokens[i] == ">") --angles;
    if (tokens[i] == "(" && angles == 0 && i > 0 &&
        IsIdentifier(tokens[i - 1]) && kNotNames.count(tokens[i - 1]) == 0) {
      open = i;
      break;
    }
  }
  if (open == tokens.size()) return std::nullopt;
  Method method;
  const std::string& qualified = tokens[open - 1];
  const size_t colons = qualified.rfind("::");
  method.name =
      colons == std::string::npos ? qualified : qualified.substr(colons + 2);
  if (method.name == class_name || (open >= 2 && tokens[open - 2] == "~")) {
    return std::nullopt;
  }
  for (size_t i = 0; i + 1 < open; ++i) {
    method.is_virtual = method.is_virtual || tokens[i] == "virtual";
  }
  size_t close = open;
  for (int depth = 0; close < tokens.size(); ++close) {
    if (tokens[close] == "(") ++depth;
    if (tokens[close] == ")" && --depth == 0) break;
  }
  const std::vector<std::string> parameters(tokens.begin() + open + 1,
                                            tokens.begin() + close);
  std::vector<std::string> types;
  std::vector<std::string> keys;
  for (const std::vector<std::string>& parameter : SplitTopLevel(parameters)) {
    if (parameter.empty() ||
        (parameter.size() == 1 && parameter[0] == "void")) {
      continue;
    }
    std::string type;
    std::string key;
    NormalizeParameter(parameter, &type, &key);
    types.push_back(type);
    keys.push_back(key);
  }
  bool is_const = false;
  for (size_t i = close + 1; i < tokens.size(); ++i) {
    if (tokens[i] == "=" || tokens[i] == ":") break;
    is_const = is_const || tokens[i] == "const";
    method.is_override =
        method.is_override || tokens[i] == "override" || tokens[i] == "final";
  }
  const std::string suffix = is_const ? " const" : "";
  method.signature =
      absl::StrCat(method.name, "(", absl::StrJoin(types, ", "), ")", suffix);
  method.key =
      absl::StrCat(method.name, "(", absl::StrJoin(keys, ", "), ")", suffix);
  method.has_body = declaration.has_body;
  method.body = declaration.body;
  return method;
}

// The inline definitions of class_name's member functions outside its body
// ("inline Status DB::GetApproximateSizes(...) { ... }"), from text without
// the class body.
std::vector<Declaration> OutOfClassDefinitions(const std::string& text,
                                               const std::string& class_name) {
  std::vector<Declaration> definitions;
  const std::regex qualified("\\b" + class_name + "::~?\\w+\\s*\\(");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), qualified);
       it != std::sregex_iterator(); ++it) {
    const size_t at = it->position(0);
    const size_t start = text.find_last_of(";{}", at);
    size_t i = at + it->length(0) - 1;  // the '('
    for (int depth = 0; i < text.size(); ++i) {
      if (text[i] == '(') ++depth;
      if (text[i] == ')' && --depth == 0) break;
    }
    const size_t open = text.find_first_of(";{", i);
    if (open == std::string::npos || text[open] == ';') continue;
    size_t close = open;
    for (int depth = 0; close < text.size(); ++close) {
      if (text[close] == '{') ++depth;
      if (text[close] == '}' && --depth == 0) break;
    }
    std::vector<absl::string_view> words = absl::StrSplit(
        absl::string_view(text).substr(open + 1, close - open - 1),
        absl::ByAnyChar(" \t\n"), absl::SkipEmpty());
    definitions.push_back(
        {text.substr(start == std::string::npos ? 0 : start + 1,
                     open - (start == std::string::npos ? 0 : start + 1)),
         true, absl::StrJoin(words, " ")});
  }
  return definitions;
}

// The member functions of class `class_name` as defined in header_text, with
// the bodies of those defined inline below the class.
ParsedClass ParseClass(const std::string& header_text,
                       const std::string& class_name, const Macros& macros) {
  ParsedClass parsed;
  const std::string text = StripComments(header_text);
  const std::optional<std::pair<size_t, size_t>> body =
      ClassBody(text, class_name);
  if (!body.has_value()) {
    parsed.errors.push_back(
        absl::StrCat("no definition of class ", class_name));
    return parsed;
  }
  const std::string kept = ApplyConditionals(
      absl::string_view(text).substr(body->first, body->second - body->first),
      macros, &parsed.errors);
  for (const Declaration& declaration : SplitDeclarations(kept)) {
    std::optional<Method> method = ParseMethod(declaration, class_name);
    if (method.has_value()) parsed.methods.push_back(*std::move(method));
  }
  const std::string outside =
      text.substr(0, body->first) + text.substr(body->second);
  for (const Declaration& definition :
       OutOfClassDefinitions(outside, class_name)) {
    const std::optional<Method> defined = ParseMethod(definition, class_name);
    if (!defined.has_value()) continue;
    for (Method& method : parsed.methods) {
      if (method.key == defined->key && !method.has_body) {
        method.has_body = true;
        method.body = defined->body;
      }
    }
  }
  return parsed;
}

// ---------------------------------------------------------------------------
// The headers this test reads.

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in.good()) return "";
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

// The directory of the RocksDB headers of the release this test is compiled
// against ("" if this test does not know where that release lives).
std::string RocksDBIncludeDir() {
#if ROCKSDB_MAJOR == 7
  return "/usr/include/rocksdb";  // Debian's librocksdb-dev
#elif ROCKSDB_MAJOR == 9
  // Where ./setup.sh --rocksdb9 installs it (third_party/rocksdb9/install.sh).
  const char* prefix = std::getenv("SSTFILTER_ROCKSDB9_PREFIX");
  if (prefix != nullptr && *prefix != '\0') {
    return absl::StrCat(prefix, "/include/rocksdb");
  }
  return "/opt/sstfilter/rocksdb-9.7.4/include/rocksdb";
#else
  return "";
#endif
}

// A file of this workspace from the test's runfiles.
std::string RunfilePath(const std::string& path) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  if (srcdir == nullptr) return path;
  return absl::StrCat(
      srcdir, "/", workspace != nullptr ? workspace : "sstfilter", "/", path);
}

constexpr char kWrapperHeader[] =
    "engines/rocksdb/presence/presence_filtered_db.h";

// Everything the checks compare, read once.
struct Api {
  std::string release;  // "7.8.3", from the compiled macros
  std::string include_dir;
  std::vector<std::string> errors;  // any: nothing below can be trusted
  std::vector<Method> db_virtuals;  // of rocksdb::DB
  std::map<std::string, Method> db_by_key;
  std::set<std::string> stackable_overrides;  // keys of DB virtuals
  std::set<std::string> stackable_keys;       // all its member functions
  std::set<std::string> wrapper_overrides;    // keys of DB virtuals
  std::vector<Method> wrapper_methods;
  std::string wrapper_comment;  // the opening comment of kWrapperHeader
};

// The value of `#define name N` in version_h, or -1.
long DefinedNumber(const std::string& version_h, const std::string& name) {
  const std::regex define("#define\\s+" + name + "\\s+([0-9]+)");
  std::smatch match;
  if (!std::regex_search(version_h, match, define)) return -1;
  return std::stol(match[1].str());
}

Api ReadApi() {
  Api api;
  api.release =
      absl::StrCat(ROCKSDB_MAJOR, ".", ROCKSDB_MINOR, ".", ROCKSDB_PATCH);
  api.include_dir = RocksDBIncludeDir();
  if (api.include_dir.empty()) {
    api.errors.push_back(
        absl::StrCat("compiled against RocksDB ", api.release,
                     ", whose headers this test cannot locate: add them to "
                     "RocksDBIncludeDir() in db_api_coverage_test.cc"));
    return api;
  }
  const std::string version_path = api.include_dir + "/version.h";
  const std::string version_h = ReadFile(version_path);
  const std::string found =
      absl::StrCat(DefinedNumber(version_h, "ROCKSDB_MAJOR"), ".",
                   DefinedNumber(version_h, "ROCKSDB_MINOR"), ".",
                   DefinedNumber(version_h, "ROCKSDB_PATCH"));
  if (found != api.release) {
    api.errors.push_back(absl::StrCat(
        version_path, version_h.empty() ? " is missing" : " is release ",
        version_h.empty() ? "" : found, ", but this test was compiled against ",
        api.release, ": it would classify another release's methods"));
    return api;
  }

  const Macros macros = CompiledMacros();
  auto parse = [&](const std::string& path, const std::string& class_name) {
    const std::string text = ReadFile(path);
    if (text.empty()) {
      api.errors.push_back(absl::StrCat("cannot read ", path));
      return ParsedClass();
    }
    ParsedClass parsed = ParseClass(text, class_name, macros);
    for (const std::string& error : parsed.errors) {
      api.errors.push_back(absl::StrCat(path, ": ", class_name, ": ", error));
    }
    return parsed;
  };
  const ParsedClass db = parse(api.include_dir + "/db.h", "DB");
  const ParsedClass stackable =
      parse(api.include_dir + "/utilities/stackable_db.h", "StackableDB");
  const std::string wrapper_path = RunfilePath(kWrapperHeader);
  const ParsedClass wrapper = parse(wrapper_path, "PresenceFilteredDB");

  for (const Method& method : db.methods) {
    if (method.is_virtual) api.db_virtuals.push_back(method);
  }
  for (const Method& method : api.db_virtuals) {
    api.db_by_key[method.key] = method;
  }
  for (const Method& method : stackable.methods) {
    api.stackable_keys.insert(method.key);
    if (api.db_by_key.count(method.key) > 0) {
      api.stackable_overrides.insert(method.key);
    }
  }
  api.wrapper_methods = wrapper.methods;
  for (const Method& method : wrapper.methods) {
    if (api.db_by_key.count(method.key) > 0) {
      api.wrapper_overrides.insert(method.key);
    }
  }
  for (absl::string_view line : absl::StrSplit(ReadFile(wrapper_path), '\n')) {
    if (!absl::StartsWith(line, "//")) break;
    absl::StrAppend(&api.wrapper_comment, line.substr(2), "\n");
  }
  return api;
}

const Api& TheApi() {
  static const Api* const api = new Api(ReadApi());
  return *api;
}

// The entries of kApi by signature.
std::map<std::string, const ApiEntry*> TableBySignature() {
  std::map<std::string, const ApiEntry*> table;
  for (const ApiEntry& entry : kApi) table[entry.signature] = &entry;
  return table;
}

// Whether word occurs in text as a whole name ("Put" not in "PutEntity").
bool ContainsWord(absl::string_view text, absl::string_view word) {
  for (size_t at = text.find(word); at != absl::string_view::npos;
       at = text.find(word, at + 1)) {
    const size_t end = at + word.size();
    if ((at == 0 || !IsWordChar(text[at - 1])) &&
        (end == text.size() || !IsWordChar(text[end]))) {
      return true;
    }
  }
  return false;
}

// The name of a signature: "Put" of "Put(const WriteOptions&, ...)".
std::string NameOf(absl::string_view signature) {
  return std::string(signature.substr(0, signature.find('(')));
}

// The key (ParseMethod's) of a signature as the table spells it.
std::string KeyOf(const std::string& signature) {
  Declaration declaration;
  declaration.text = signature;
  const std::optional<Method> method = ParseMethod(declaration, "");
  return method.has_value() ? method->key : signature;
}

#define ASSERT_API_READ(api)                                                \
  ASSERT_TRUE((api).errors.empty())                                         \
      << "reading the headers of RocksDB " << (api).release << " failed:\n" \
      << absl::StrJoin((api).errors, "\n")

// ---------------------------------------------------------------------------
// The parser, on small declarations.

std::vector<std::string> Signatures(const std::string& header,
                                    const std::string& class_name,
                                    bool virtual_only) {
  Macros macros;
  macros.defined = {{"ROCKSDB_MAJOR", 9}};
  macros.undefined = {"ROCKSDB_LITE"};
  const ParsedClass parsed = ParseClass(header, class_name, macros);
  EXPECT_TRUE(parsed.errors.empty()) << absl::StrJoin(parsed.errors, "\n");
  std::vector<std::string> signatures;
  for (const Method& method : parsed.methods) {
    if (!virtual_only || method.is_virtual) {
      signatures.push_back(method.signature);
    }
  }
  return signatures;
}

TEST(DeclarationParserTest, DropsNamesDefaultsAndComments) {
  EXPECT_EQ(Signatures(R"(
class DB {
 public:
  virtual Status Put(const WriteOptions& options, ColumnFamilyHandle* cf,
                     const Slice& /*key*/, const Slice& value) = 0;
  virtual void MultiGet(const ReadOptions& options, const size_t num_keys,
                        const bool /*sorted_input*/ = false);
  virtual bool KeyMayExist(std::string* value, bool* value_found = nullptr);
  virtual std::vector<Status> MultiGet(
      const std::map<std::string, std::string>& m,
      std::unique_ptr<TraceReader>&& reader) const;
  virtual uint64_t Count();
};)",
                       "DB", true),
            (std::vector<std::string>{
                "Put(const WriteOptions&, ColumnFamilyHandle*, const Slice&, "
                "const Slice&)",
                "MultiGet(const ReadOptions&, const size_t, const bool)",
                "KeyMayExist(std::string*, bool*)",
                "MultiGet(const std::map<std::string, std::string>&, "
                "std::unique_ptr<TraceReader>&&) const",
                "Count()"}));
}

TEST(DeclarationParserTest, FlattensBodiesAndSkipsWhatIsNotAMethod) {
  EXPECT_EQ(Signatures(R"(
class DB;  // a declaration, not the definition
class StackableDB : public DB {
 public:
  explicit StackableDB(DB* db) : db_(db) {}
  ~StackableDB() { if (x) { delete db_; } }
  struct Properties {
    static const std::string kStats;
    int Ignored(int x);
  };
  enum class Flags : uint8_t { kNone = 0, kAll = 1 };
  using DB::Get;
  void operator=(const StackableDB&) = delete;
  static Status Open(const Options& options, DB** db);
  Status Get(const ReadOptions& options, const Slice& key,
             PinnableSlice* value) override {
    if (key.empty()) { return Status::NotFound("{"); }
    return db_->Get(options, key, value);
  }
 private:
  DB* db_;
  std::atomic<bool> closed_{false};
};)",
                       "StackableDB", false),
            (std::vector<std::string>{
                "Open(const Options&, DB**)",
                "Get(const ReadOptions&, const Slice&, PinnableSlice*)"}));
}

TEST(DeclarationParserTest, KeyIgnoresTopLevelConst) {
  Declaration with_const;
  with_const.text =
      "void MultiGet(const size_t n, const bool sorted, const Slice* keys,"
      " Slice* const out)";
  Declaration without_const;
  without_const.text =
      "void MultiGet(size_t n, bool sorted, const Slice* keys, Slice* out)";
  const std::optional<Method> a = ParseMethod(with_const, "DB");
  const std::optional<Method> b = ParseMethod(without_const, "DB");
  ASSERT_TRUE(a.has_value() && b.has_value());
  EXPECT_EQ(a->signature,
            "MultiGet(const size_t, const bool, const Slice*, Slice* const)");
  EXPECT_EQ(a->key, b->key);
  EXPECT_EQ(b->key, "MultiGet(size_t, bool, const Slice*, Slice*)");
}

TEST(DeclarationParserTest, KeepsTheBranchesTheMacrosSelect) {
  EXPECT_EQ(Signatures(R"(
class DB {
#ifndef ROCKSDB_LITE
  virtual void Full();
#else
  virtual void Lite();
#endif
#if ROCKSDB_MAJOR >= 9 && !defined(ROCKSDB_LITE)
  virtual void Nine();
#elif ROCKSDB_MAJOR == 8
  virtual void Eight();
#else
  virtual void Seven();
#endif
};)",
                       "DB", true),
            (std::vector<std::string>{"Full()", "Nine()"}));
}

TEST(DeclarationParserTest, UnknownConditionsAreErrors) {
  Macros macros;
  macros.defined = {{"ROCKSDB_MAJOR", 9}};
  const ParsedClass parsed = ParseClass(R"(
class DB {
#if defined(ROCKSDB_SOMETHING_NEW)
  virtual void Maybe();
#endif
};)",
                                        "DB", macros);
  ASSERT_EQ(parsed.errors.size(), 1u);
  EXPECT_TRUE(absl::StrContains(parsed.errors[0], "ROCKSDB_SOMETHING_NEW"))
      << parsed.errors[0];
}

// ---------------------------------------------------------------------------
// The classification, against the headers of the compiled release.

TEST(DbApiCoverageTest, HeadersAreTheCompiledRelease) {
  const Api& api = TheApi();
  ASSERT_API_READ(api);
  // A parser that lost most of class DB would leave every check vacuous.
  EXPECT_GT(api.db_virtuals.size(), 100u);
  EXPECT_GT(api.stackable_overrides.size(), 50u);
}

TEST(DbApiCoverageTest, EveryVirtualOfDbIsClassified) {
  const Api& api = TheApi();
  ASSERT_API_READ(api);
  const std::map<std::string, const ApiEntry*> table = TableBySignature();
  EXPECT_EQ(table.size(), std::size(kApi)) << "a signature is in kApi twice";
  std::set<std::string> in_header;
  for (const Method& method : api.db_virtuals) {
    in_header.insert(method.signature);
    EXPECT_EQ(table.count(method.signature), 1u)
        << "unclassified: " << method.signature
        << ": classify it in db_api_coverage_test.cc";
  }
  for (const ApiEntry& entry : kApi) {
    EXPECT_EQ(in_header.count(entry.signature), 1u)
        << "stale: " << entry.signature << " is in kApi for RocksDB "
        << api.release << " but is no virtual of rocksdb::DB in "
        << api.include_dir << "/db.h: remove it, or put it under the "
        << "#if ROCKSDB_MAJOR of the releases that have it";
  }
}

TEST(DbApiCoverageTest, FilteredAddingAndRefusedMethodsAreOverridden) {
  const Api& api = TheApi();
  ASSERT_API_READ(api);
  for (const ApiEntry& entry : kApi) {
    if (entry.handling != kFilters && entry.handling != kAddsKeys &&
        entry.handling != kRefused) {
      continue;
    }
    EXPECT_EQ(api.wrapper_overrides.count(KeyOf(entry.signature)), 1u)
        << entry.signature << " is " << HandlingName(entry.handling) << " ("
        << entry.reason << "), but PresenceFilteredDB does not "
        << "override it in " << kWrapperHeader
        << ": without the override it goes "
        << (api.stackable_overrides.count(KeyOf(entry.signature)) > 0
                ? "to the base DB through StackableDB, past the filter"
                : "to DB's default implementation");
  }
}

TEST(DbApiCoverageTest, DelegatingDefaultsReachTheWrapper) {
  const Api& api = TheApi();
  ASSERT_API_READ(api);
  const std::map<std::string, const ApiEntry*> table = TableBySignature();
  for (const ApiEntry& entry : kApi) {
    if (entry.handling != kDelegates) continue;
    const std::string key = KeyOf(entry.signature);
    EXPECT_EQ(api.stackable_overrides.count(key), 0u)
        << entry.signature << " is kDelegates, but StackableDB overrides it: "
        << "it goes to the base DB, not through the wrapper; classify it by "
        << "what that means for the filter, or override it in "
        << kWrapperHeader;
    EXPECT_EQ(api.wrapper_overrides.count(key), 0u)
        << entry.signature << " is kDelegates, but PresenceFilteredDB "
        << "overrides it, so DB's default never runs: classify it by what the "
        << "override does";
    ASSERT_NE(entry.target, nullptr) << entry.signature << ": no target";
    EXPECT_EQ(table.count(entry.target), 1u)
        << entry.signature << " delegates to " << entry.target
        << ", which kApi does not classify";
    auto it = api.db_by_key.find(key);
    if (it == api.db_by_key.end()) continue;  // stale: reported elsewhere
    const Method& method = it->second;
    // A default defined in RocksDB's sources, not its headers, is taken on
    // the word of the entry's reason.
    if (!method.has_body) continue;
    EXPECT_TRUE(ContainsWord(method.body, NameOf(entry.target)))
        << entry.signature << " is kDelegates to " << entry.target
        << ", but DB's default does not call " << NameOf(entry.target) << ": {"
        << method.body << "}";
  }
}

TEST(DbApiCoverageTest, PassedThroughMethodsAreForwarded) {
  const Api& api = TheApi();
  ASSERT_API_READ(api);
  for (const ApiEntry& entry : kApi) {
    if (entry.handling != kPassesThrough) continue;
    const std::string key = KeyOf(entry.signature);
    if (api.stackable_overrides.count(key) > 0 ||
        api.wrapper_overrides.count(key) > 0) {
      continue;
    }
    auto it = api.db_by_key.find(key);
    const std::string body = it == api.db_by_key.end() ? "" : it->second.body;
    ADD_FAILURE() << entry.signature << " passes through, but neither "
                  << "StackableDB nor PresenceFilteredDB overrides it: on the "
                  << "wrapper it runs DB's default {" << body
                  << "} while RocksDB itself supports it; add a forwarding "
                  << "override to " << kWrapperHeader;
  }
}

// Whether a method's name says that it writes keys or brings data in.
bool NameSaysItWrites(absl::string_view name) {
  for (absl::string_view prefix :
       {"Put", "Merge", "Write", "Ingest", "CreateColumnFamil"}) {
    if (absl::StartsWith(name, prefix)) return true;
  }
  return absl::StrContains(name, "Import") || absl::StrContains(name, "Replay");
}

// A second guard against a careless entry: the headers cannot tell a write
// the wrapper forwards unchanged from one it filters, but a write passed
// through unchanged would make keys visible that the filter lacks.
TEST(DbApiCoverageTest, WritesNeverPassThrough) {
  for (const ApiEntry& entry : kApi) {
    EXPECT_FALSE(entry.handling == kPassesThrough &&
                 NameSaysItWrites(NameOf(entry.signature)))
        << entry.signature << " is kPassesThrough, but its name says it "
        << "writes: classify it kAddsKeys (its keys enter the filter first) "
        << "or kRefused";
  }
}

// Every override in the wrapper's header matches a virtual the parser found,
// so a check above cannot miss an override through a parsing slip.
TEST(DbApiCoverageTest, WrapperOverridesAreRecognized) {
  const Api& api = TheApi();
  ASSERT_API_READ(api);
  for (const Method& method : api.wrapper_methods) {
    if (!method.is_override) continue;
    EXPECT_TRUE(api.db_by_key.count(method.key) > 0 ||
                api.stackable_keys.count(method.key) > 0)
        << "PresenceFilteredDB overrides " << method.signature
        << ", which matches no virtual of rocksdb::DB or StackableDB as "
        << "this test reads them";
  }
}

TEST(DbApiCoverageTest, HeaderCommentNamesCoveredAndRefusedMethods) {
  const Api& api = TheApi();
  ASSERT_API_READ(api);
  ASSERT_FALSE(api.wrapper_comment.empty()) << kWrapperHeader;
  std::set<std::string> checked;
  for (const ApiEntry& entry : kApi) {
    if (entry.handling != kFilters && entry.handling != kAddsKeys &&
        entry.handling != kRefused) {
      continue;
    }
    const std::string name = NameOf(entry.signature);
    if (!checked.insert(name).second) continue;
    EXPECT_TRUE(ContainsWord(api.wrapper_comment, name))
        << kWrapperHeader << "'s opening comment does not name " << name
        << ", which is " << HandlingName(entry.handling) << " ("
        << entry.signature << ")";
  }
}

}  // namespace
}  // namespace sstfilter
