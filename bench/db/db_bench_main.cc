// db_bench: what sstfilter's filters buy a real database. Builds a RocksDB
// 7.8.3 and a LevelDB 1.23 database per filter configuration, at the same
// filter memory, and times point lookups of absent and present keys.
//
//   bazel run -c opt //bench:db_bench -- [--suite=headline|full] [--keys=N]
//       [--stores=...] [--configs=...] [--format=table|json] [--dir=/tmp]
//
// Progress goes to stderr, the table (or JSON lines) to stdout. Exit status 0;
// 1 when a database could not be built or read; 2 for a bad flag value.

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "bench/db/db_configs.h"
#include "bench/db/db_report.h"
#include "bench/db/db_suites.h"
#include "bench/db/leveldb_store.h"
#include "bench/db/rocksdb_store.h"
#include "bench/flag_check.h"

ABSL_FLAG(std::string, suite, sstfilter::bench::kDefaultDbSuite,
          "headline or full: how many keys each database holds (the usage "
          "message above gives each suite's count and duration)");
ABSL_FLAG(std::optional<uint64_t>, keys, std::nullopt,
          "keys in each database (default: the suite's)");
ABSL_FLAG(uint64_t, value_bytes, 32, "bytes of each value");
ABSL_FLAG(uint64_t, lookups, 200'000,
          "lookups of each kind (absent, present) per repetition");
ABSL_FLAG(int, reps, 5,
          "repetitions of each kind of lookup; the median counts");
ABSL_FLAG(std::string, stores, "rocksdb,leveldb", "stores to run");
ABSL_FLAG(
    std::string, configs, "",
    "configurations to run, comma-separated (default: all; --configs=list "
    "lists them)");
ABSL_FLAG(std::string, format, "table", "table or json");
ABSL_FLAG(std::string, dir, "",
          "parent directory of the databases (default: $TEST_TMPDIR, else "
          "/tmp); each database is removed after its run");

namespace sstfilter {
namespace bench {
namespace {

constexpr int kErrorExit = 1;
constexpr int kUsageExit = 2;

// Warms up dbs, then times shape.reps repetitions of absent and of present
// lookups. Each repetition asks every database in turn, so that drift in the
// machine's speed (10-60% here over minutes) reaches every one alike.
template <typename Db>
std::vector<DbResult> Measure(const DbShape& shape, const Progress& progress,
                              const std::vector<Db>& dbs) {
  progress("warming up every database");
  for (const auto& db : dbs) {
    WarmUp(LookupKind::kAbsent, shape, &*db);
    WarmUp(LookupKind::kPresent, shape, &*db);
  }
  std::vector<std::vector<RepFigures>> absent(dbs.size());
  std::vector<std::vector<RepFigures>> present(dbs.size());
  for (int rep = 0; rep < shape.reps; ++rep) {
    progress(absl::StrFormat("repetition %d of %d", rep + 1, shape.reps));
    for (size_t i = 0; i < dbs.size(); ++i) {
      absent[i].push_back(TimeRep(LookupKind::kAbsent, rep, shape, &*dbs[i]));
    }
    for (size_t i = 0; i < dbs.size(); ++i) {
      present[i].push_back(TimeRep(LookupKind::kPresent, rep, shape, &*dbs[i]));
    }
  }
  std::vector<DbResult> results;
  for (size_t i = 0; i < dbs.size(); ++i) {
    DbResult result = dbs[i]->result;
    result.absent = Summarize(absent[i], shape.lookups);
    result.present = Summarize(present[i], shape.lookups);
    results.push_back(std::move(result));
  }
  return results;
}

int Usage(const std::string& message) {
  std::cerr << "db_bench: " << message << "\n";
  return kUsageExit;
}

std::string DefaultDir() {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
}

int Main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "db_bench [--suite=headline|full] [--keys=N] [--stores=rocksdb,leveldb]\n"
      "         [--configs=a,b] [--format=table|json]\n"
      "Builds real RocksDB and LevelDB databases with each filter "
      "configuration and\ntimes point lookups. Suites, with the wall time of "
      "a run of every configuration\non a 2-core machine (up to twice that on "
      "a slower or busier one):\n" +
      DbSuitesUsage());
  if (absl::Status flags = CheckFlags(argc, argv); !flags.ok()) {
    return Usage(std::string(flags.message()));
  }
  absl::ParseCommandLine(argc, argv);
  DbShape shape;
  absl::StatusOr<uint64_t> keys =
      DbKeys(absl::GetFlag(FLAGS_suite), absl::GetFlag(FLAGS_keys));
  if (!keys.ok()) return Usage(std::string(keys.status().message()));
  shape.keys = *keys;
  shape.value_bytes = absl::GetFlag(FLAGS_value_bytes);
  shape.lookups = absl::GetFlag(FLAGS_lookups);
  shape.reps = absl::GetFlag(FLAGS_reps);
  shape.dir = absl::GetFlag(FLAGS_dir).empty() ? DefaultDir()
                                               : absl::GetFlag(FLAGS_dir);
  const std::string format = absl::GetFlag(FLAGS_format);
  if (shape.lookups == 0) return Usage("--lookups must be at least 1");
  if (shape.reps < 1) return Usage("--reps must be at least 1");
  if (format != "table" && format != "json") {
    return Usage("--format must be table or json, got '" + format + "'");
  }
  const std::vector<std::string> stores =
      absl::StrSplit(absl::GetFlag(FLAGS_stores), ',', absl::SkipEmpty());
  for (const std::string& store : stores) {
    if (store != "rocksdb" && store != "leveldb") {
      return Usage("--stores takes rocksdb and leveldb, got '" + store + "'");
    }
  }
  const auto wants_store = [&](const std::string& store) {
    return std::find(stores.begin(), stores.end(), store) != stores.end();
  };

  absl::StatusOr<DbConfigs> configs = MakeDbConfigs();
  if (!configs.ok()) {
    std::cerr << "db_bench: " << configs.status().message() << "\n";
    return kErrorExit;
  }
  std::vector<std::string> all_names;
  for (const RocksDbConfig& c : configs->rocksdb) all_names.push_back(c.name);
  for (const LevelDbConfig& c : configs->leveldb) all_names.push_back(c.name);
  const std::string config_flag = absl::GetFlag(FLAGS_configs);
  if (config_flag == "list") {
    for (const std::string& name : all_names) std::cout << name << "\n";
    return 0;
  }
  const std::vector<std::string> chosen =
      absl::StrSplit(config_flag, ',', absl::SkipEmpty());
  for (const std::string& name : chosen) {
    if (std::find(all_names.begin(), all_names.end(), name) ==
        all_names.end()) {
      return Usage("unknown --configs entry '" + name +
                   "'; known: " + absl::StrJoin(all_names, ","));
    }
  }
  const auto wants = [&](const std::string& name) {
    return chosen.empty() ||
           std::find(chosen.begin(), chosen.end(), name) != chosen.end();
  };

  const absl::Time start = absl::Now();
  const Progress progress = [&](const std::string& line) {
    std::cerr << absl::StrFormat("[%4.0fs] ",
                                 absl::ToDoubleSeconds(absl::Now() - start))
              << line << std::endl;
  };
  // Every database is built first and kept open, then measured.
  std::vector<std::unique_ptr<OpenDb>> dbs;
  const auto keep = [&](absl::StatusOr<std::unique_ptr<OpenDb>> db) {
    if (!db.ok()) {
      std::cerr << "db_bench: " << db.status().message() << "\n";
      return false;
    }
    dbs.push_back(*std::move(db));
    return true;
  };
  if (wants_store("rocksdb")) {
    // An index: dbs grows, so a pointer into it would not stay valid.
    std::optional<size_t> uniform;
    for (const RocksDbConfig& listed : configs->rocksdb) {
      const bool per_level = listed.name == kPerLevelConfig;
      // The per-level policy needs the uniform run's tree: it runs it too.
      const bool needed =
          wants(listed.name) ||
          (listed.name == kUniformConfig && wants(kPerLevelConfig));
      if (!needed) continue;
      RocksDbConfig config = listed;
      if (per_level) {
        if (!uniform.has_value()) {
          std::cerr << "db_bench: " << kPerLevelConfig << " needs "
                    << kUniformConfig << " built first\n";
          return kErrorExit;
        }
        absl::StatusOr<RocksDbConfig> made =
            MakePerLevelConfig(dbs[*uniform]->result, shape.value_bytes);
        if (!made.ok()) {
          std::cerr << "db_bench: " << made.status().message() << "\n";
          return kErrorExit;
        }
        config = *std::move(made);
      }
      if (!keep(BuildRocksDb(config, shape, progress))) return kErrorExit;
      if (listed.name == kUniformConfig) uniform = dbs.size() - 1;
    }
  }
  if (wants_store("leveldb")) {
    for (const LevelDbConfig& config : configs->leveldb) {
      if (wants(config.name) && !keep(BuildLevelDb(config, shape, progress))) {
        return kErrorExit;
      }
    }
  }

  std::vector<DbResult> results = Measure(shape, progress, dbs);
  // Then the same databases as a store taking writes has them: L0 holds
  // recent flushes, each one more run a lookup consults.
  std::vector<OpenDb*> flushed;
  for (const auto& db : dbs) {
    const absl::Status status = db->AddRecentFlushes(shape);
    if (absl::IsUnimplemented(status)) continue;
    if (!status.ok()) {
      std::cerr << "db_bench: " << status.message() << "\n";
      return kErrorExit;
    }
    flushed.push_back(db.get());
  }
  if (!flushed.empty()) {
    progress(absl::StrFormat("%d databases with %s", flushed.size(),
                             kRecentFlushesTree));
    for (DbResult& result : Measure(shape, progress, flushed)) {
      results.push_back(std::move(result));
    }
  }
  dbs.clear();  // closes and removes every database
  if (format == "json") {
    PrintJson(shape, results, std::cout);
  } else {
    PrintTable(shape, results, std::cout);
  }
  return 0;
}

}  // namespace
}  // namespace bench
}  // namespace sstfilter

int main(int argc, char** argv) { return sstfilter::bench::Main(argc, argv); }
