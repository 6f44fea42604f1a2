#include "tests/crash/crash_db.h"

#include <iterator>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tests/crash/crash_db_engines.h"

namespace sstfilter {
namespace test {

std::string CrashConfig::Name() const {
  return absl::StrCat(engine == Engine::kLevelDb ? "leveldb_" : "rocksdb_",
                      presence_filtered ? "presence" : policy,
                      paced_saves ? "_paced_saves" : "");
}

void PrintTo(const CrashConfig& config, std::ostream* os) {
  *os << config.Name();
}

std::vector<CrashConfig> AllCrashConfigs() {
  return {
      {Engine::kLevelDb, "native"},
      {Engine::kLevelDb, "compact"},
      {Engine::kRocksDb, "native"},
      {Engine::kRocksDb, "compact"},
      {Engine::kRocksDb, "per_level"},
      {Engine::kRocksDb, "hybrid"},
      {Engine::kRocksDb, "native", /*presence_filtered=*/true},
      {Engine::kRocksDb, "native", /*presence_filtered=*/true,
       /*paced_saves=*/true},
  };
}

std::vector<BackgroundKind> BackgroundKindsOf(const CrashConfig& config) {
  if (config.presence_filtered) {
    return {std::begin(kAllBackgroundKinds), std::end(kAllBackgroundKinds)};
  }
  return {BackgroundKind::kFlush, BackgroundKind::kCompaction};
}

absl::StatusOr<CrashConfig> ParseCrashConfig(const std::string& name) {
  std::vector<std::string> names;
  for (const CrashConfig& config : AllCrashConfigs()) {
    if (config.Name() == name) return config;
    names.push_back(config.Name());
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown configuration \"", name,
                   "\"; known: ", absl::StrJoin(names, ", ")));
}

absl::StatusOr<std::unique_ptr<CrashDb>> CrashDb::Open(
    const CrashConfig& config, const std::string& dir, const CrashDbEnvs& envs,
    BackgroundWorkListener* listener) {
  if (config.engine == Engine::kLevelDb) {
    if (config.presence_filtered) {
      return absl::InvalidArgumentError(
          "presence filtering is for RocksDB only");
    }
    return OpenLevelDbCrashDb(config.policy, dir, envs.leveldb, listener);
  }
  return OpenRocksDbCrashDb(config, dir, envs.rocksdb, listener);
}

absl::StatusOr<std::vector<std::optional<std::string>>> CrashDb::MultiGet(
    const std::vector<std::string>& keys) {
  std::vector<std::optional<std::string>> values;
  for (const std::string& key : keys) {
    absl::StatusOr<std::optional<std::string>> value = Get(key);
    if (!value.ok()) return value.status();
    values.push_back(*std::move(value));
  }
  return values;
}

CrashDb::LiveTables CrashDb::PinLiveTables() {
  // A compaction may install a new version between the listing and the
  // pin; the same listing on both sides of the pin is the version pinned.
  LiveTables tables;
  std::vector<std::string> before = LiveTableFiles();
  for (;;) {
    tables.pin = NewIteratorPin();
    tables.paths = LiveTableFiles();
    if (tables.paths == before) return tables;
    before = tables.paths;
  }
}

Lookup CrashDb::AsLookup() {
  return [this](const std::string& key) { return Get(key); };
}

absl::StatusOr<int> CheckTableFilters(const CrashConfig& config,
                                      const std::vector<std::string>& tables,
                                      const std::string& filter_name) {
  int checked = 0;
  for (const std::string& path : tables) {
    absl::Status s = config.engine == Engine::kLevelDb
                         ? CheckLevelDbTableFilter(path, filter_name)
                         : CheckRocksDbTableFilter(path, filter_name);
    if (!s.ok()) return s;
    ++checked;
  }
  return checked;
}

}  // namespace test
}  // namespace sstfilter
