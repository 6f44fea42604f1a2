// One database of a crash test, LevelDB 1.23 or RocksDB 7.8.3, opened with
// one of sstfilter's policies and options under which flushes and
// compactions run all the time, so that a crash or power loss lands while
// tables and their filters are being built; or a RocksDB database behind a
// PresenceFilteredDB, whose filter is saved and rebuilt all the time too.
// The writer process and the checking test open it the same way through
// this file.

#ifndef SSTFILTER_TESTS_CRASH_CRASH_DB_H_
#define SSTFILTER_TESTS_CRASH_CRASH_DB_H_

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tests/crash/background_work.h"
#include "tests/crash/workload.h"

namespace leveldb {
class Env;
}  // namespace leveldb
namespace rocksdb {
class Env;
}  // namespace rocksdb

namespace sstfilter {
class PresenceFilteredDB;

namespace test {

enum class Engine { kLevelDb, kRocksDb };

// An engine and the sstfilter policy its tables are written with:
//  "native"     NewBloomFilterPolicy at 10 bits/key
//  "compact"    NewBurrFilterPolicy at 10 bits/key
//  "per_level"  NewRocksDbPerLevelFilterPolicy (RocksDB only)
//  "hybrid"     NewRocksDbHybridFilterPolicy (RocksDB only)
// The last two spend 10 bits/key over a 4-level tree of fan-out 10, the
// crash tests' own shape.
struct CrashConfig {
  Engine engine = Engine::kRocksDb;
  std::string policy;
  // RocksDB only: every read and write goes through a PresenceFilteredDB
  // (engines/rocksdb/presence) sized for few keys, so that the workload's
  // growth makes it rebuild its filter, and (unless paced_saves) saves
  // follow every flush and compaction.
  bool presence_filtered = false;
  // Presence-filtered only: saves paced as by default, by RocksDB's table
  // writes (table_bytes_per_saved_byte at its default), instead of one after
  // every flush and compaction, so that a crash leaves as many tables
  // unlisted by the last save as the default does, for open to read. The
  // save_interval stays 0: a writer killed within a second still saves.
  bool paced_saves = false;

  // "leveldb_native" and so on, "rocksdb_presence" and
  // "rocksdb_presence_paced_saves" for the presence-filtered ones (whose
  // tables have the "native" policy): a test name, and the writer's argument.
  std::string Name() const;
};

// Prints Name(): googletest's failure messages, and the test names
// ::testing::PrintToStringParamName makes, show it.
void PrintTo(const CrashConfig& config, std::ostream* os);

// Every configuration the crash tests run.
std::vector<CrashConfig> AllCrashConfigs();

// The kinds of background work config's database reports to a listener:
// flushes and compactions, and saves and rebuilds when presence_filtered.
std::vector<BackgroundKind> BackgroundKindsOf(const CrashConfig& config);

// The configuration whose Name() is name; InvalidArgumentError otherwise.
absl::StatusOr<CrashConfig> ParseCrashConfig(const std::string& name);

// Environments to open a database in; null: the engine's default.
struct CrashDbEnvs {
  leveldb::Env* leveldb = nullptr;
  rocksdb::Env* rocksdb = nullptr;
};

class CrashDb {
 public:
  // A read view; release it (destroy it) before its database.
  class Snapshot {
   public:
    virtual ~Snapshot() = default;
  };

  // Opens (creating if missing) the database of config in dir. With a
  // listener, each piece of work of BackgroundKindsOf(config) is reported to
  // it as it begins and ends (background_work.h). REQUIRES: envs and
  // listener outlive the database.
  static absl::StatusOr<std::unique_ptr<CrashDb>> Open(
      const CrashConfig& config, const std::string& dir,
      const CrashDbEnvs& envs = {}, BackgroundWorkListener* listener = nullptr);

  // Closes the database without any orderly shutdown beyond the engine's
  // own: a presence-filtered one is not saved, as after a crash.
  virtual ~CrashDb() = default;

  // Closes the database as an orderly shutdown does (RocksDB: Close; a
  // presence-filtered one: CloseAndSave, so that its next open reads no
  // table). Only the destructor may be called after.
  virtual absl::Status Close() = 0;

  // Writes op as one write; with sync, the write is on disk (RocksDB: its
  // write-ahead log, which is on) when this returns OK.
  virtual absl::Status Apply(const Op& op, bool sync) = 0;

  // The key's value, or nullopt for NotFound; at snapshot when given.
  virtual absl::StatusOr<std::optional<std::string>> Get(
      const std::string& key, const Snapshot* snapshot = nullptr) = 0;

  // The keys' values at the latest state (nullopt for NotFound), with the
  // engine's batched lookup: RocksDB's MultiGet (rocksdb_lookups.h);
  // LevelDB, which has none, one Get a key.
  virtual absl::StatusOr<std::vector<std::optional<std::string>>> MultiGet(
      const std::vector<std::string>& keys);

  virtual std::unique_ptr<Snapshot> TakeSnapshot() = 0;

  // The PresenceFilteredDB every call goes through, for a presence_filtered
  // configuration; null otherwise. Its RocksDB statistics are on.
  virtual PresenceFilteredDB* presence_filtered_db() { return nullptr; }

 protected:
  // The table files of the current version.
  virtual std::vector<std::string> LiveTableFiles() = 0;
  // An iterator over the current version, held until the result goes.
  virtual std::unique_ptr<Snapshot> NewIteratorPin() = 0;

 public:
  // The name the policy persists in each table (leveldb: the metaindex key
  // "filter.<name>"; RocksDB: "fullfilter.<name>" and the table property
  // filter_policy_name).
  virtual std::string FilterName() const = 0;

  // The table files of the database's current version, kept on disk until
  // pin goes: the engine removes no file of a version an open iterator
  // reads. Files a crash left half-written, or a compaction abandoned at
  // close, are not among them (the engine removes them at its next open).
  // REQUIRES: pin goes before the database.
  struct LiveTables {
    std::unique_ptr<Snapshot> pin;
    std::vector<std::string> paths;
  };
  LiveTables PinLiveTables();

  // Get at the latest state, as CheckDatabase wants it. The function refers
  // to this database.
  Lookup AsLookup();
};

// Opens each of tables (PinLiveTables().paths) with
// sstfilter's TableFilter (RocksDB's: also its properties) and checks that
// each carries a filter under filter_name and that every key the table holds
// matches it. Returns the number of tables, or an error naming the first
// table that fails.
absl::StatusOr<int> CheckTableFilters(const CrashConfig& config,
                                      const std::vector<std::string>& tables,
                                      const std::string& filter_name);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_CRASH_CRASH_DB_H_
