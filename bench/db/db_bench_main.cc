// db_bench: what sstfilter's filters buy a real database. Builds a RocksDB
// 7.8.3 and a LevelDB 1.23 database per filter configuration, at the same
// filter memory, and times point lookups of absent and present keys (the
// point section, point_section.h). Then two RocksDB sections: absent-key
// lookups with partitioned filters in a block cache smaller than the filters
// (partitioned_section.h), seeks to absent prefixes with a prefix
// extractor (prefix_section.h), and short scans of empty ranges with and
// without range filters (range_section.h). When named, the presence section
// measures sstfilter::PresenceFilteredDB against the same database opened by
// RocksDB alone (presence_section.h).
//
//   bazel run -c opt //bench:db_bench -- [--suite=headline|full|deep]
//   [--keys=N]
//       [--direct_reads=true|false]
//       [--sections=point,partitioned,prefix,range,presence]
//       [--section_keys=N]
//       [--stores=...] [--filter=...] [--format=table|json] [--dir=/tmp]
//
// The markdown of docs/presence_filtered_db.md comes from the JSON lines of
// the presence section: bazel run //docs:results_table.
//
// Progress goes to stderr, the tables (or JSON lines) to stdout. Exit status
// 0; 1 when a database could not be built or read, or a section found a
// present key missing or an absent one present; 2 for a bad flag value.

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
#include "bench/db/no_match_policy.h"
#include "bench/db/partitioned_section.h"
#include "bench/db/point_section.h"
#include "bench/db/prefix_section.h"
#include "bench/db/section_report.h"
#include "engines/rocksdb/presence/bench/presence_report.h"
#include "engines/rocksdb/presence/bench/presence_section.h"
#include "filter/spec_list.h"
#include "util/flag_check.h"

ABSL_FLAG(std::string, suite, sstfilter::bench::kDefaultDbSuite,
          "headline, full or deep: how many keys each database holds, in "
          "what size of RocksDB tables (the usage message above gives each "
          "suite's)");
ABSL_FLAG(std::optional<bool>, direct_reads, std::nullopt,
          "true or false: also time absent-key lookups in every RocksDB "
          "database reopened with use_direct_reads and a block cache that "
          "holds only its filters and indexes (default: the suite's; the "
          "presence section's queries: true)");
ABSL_FLAG(std::optional<uint64_t>, keys, std::nullopt,
          "keys in each database (default: the suite's)");
ABSL_FLAG(uint64_t, value_bytes, 32, "bytes of each value");
ABSL_FLAG(std::optional<uint64_t>, lookups, std::nullopt,
          "lookups of each kind (absent, present) per repetition (default: "
          "the suite's)");
ABSL_FLAG(int, reps, 5,
          "repetitions of each kind of lookup; the median counts");
ABSL_FLAG(std::string, sections, "point,partitioned,prefix,range",
          "sections to run: point (point lookups in every configuration), "
          "partitioned (partitioned filters out of cache, RocksDB), prefix "
          "(seeks to absent prefixes, RocksDB), range (scans of empty "
          "ranges, RocksDB), presence (PresenceFilteredDB against RocksDB "
          "alone, on databases of --keys keys; only when named)");
ABSL_FLAG(std::optional<uint64_t>, section_keys, std::nullopt,
          "keys in each database of the partitioned, prefix and range "
          "sections "
          "(default: the suite's)");
ABSL_FLAG(uint64_t, section_lookups, 50'000,
          "absent-key lookups (partitioned), seeks (prefix) or scans (range) "
          "per repetition in the sections");
ABSL_FLAG(std::string, stores, "rocksdb,leveldb",
          "stores to run (the partitioned and prefix sections need rocksdb)");
ABSL_FLAG(std::string, configs, "",
          "replaced by --filter, which takes the configurations' names");
ABSL_FLAG(sstfilter::SpecList, filter, {},
          "configurations to run, comma-separated (default: all; --filter=list "
          "prints their names): sstfilter's policies by spec, the other "
          "libraries' filters as lib: peers; any other spec "
          "(filter/filter_spec.h) adds a point-section configuration in each "
          "store and a partitioned one, a tree policy's (levels=tree) a "
          "RocksDB point-section one, sized at 10 bits/key unless it gives "
          "its size");
ABSL_FLAG(std::string, format, "table", "table or json");
ABSL_FLAG(bool, inject_false_negative, false,
          "testing: the sections' filters answer no for every key (range: "
          "every range), so that their checks of present keys and prefixes "
          "must stop the run (exit status 1)");
ABSL_FLAG(std::string, presence_markdown_from, "",
          "replaced by bazel run //docs:results_table -- --render=presence "
          "FILE");
ABSL_FLAG(std::string, dir, "",
          "parent directory of the databases (default: $TEST_TMPDIR, else "
          "/tmp); each database is removed after its run");

namespace sstfilter {
namespace bench {
namespace {

constexpr int kErrorExit = 1;
constexpr int kUsageExit = 2;

int Usage(const std::string& message) {
  std::cerr << "db_bench: " << message << "\n";
  return kUsageExit;
}

int Error(const absl::Status& status) {
  std::cerr << "db_bench: " << status.message() << "\n";
  return kErrorExit;
}

std::string DefaultDir() {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
}

// The command line, validated.
struct Settings {
  DbShape shape;          // the point section's databases
  DbShape section_shape;  // the other sections'
  // Whether the presence section also reads with direct reads.
  bool presence_direct_reads = true;
  std::string format;  // "table" or "json"
  std::vector<std::string> stores;
  std::vector<std::string> sections;
  std::vector<std::string> filter;  // --filter's entries
  bool inject_false_negative = false;

  // --filter=list: print the configurations' names.
  bool ListsConfigs() const {
    return filter == std::vector<std::string>{"list"};
  }
  bool WantsStore(const std::string& store) const {
    return std::find(stores.begin(), stores.end(), store) != stores.end();
  }
  bool WantsSection(const std::string& section) const {
    return std::find(sections.begin(), sections.end(), section) !=
           sections.end();
  }
};

// The flags as Settings; an InvalidArgumentError names a bad value.
absl::StatusOr<Settings> ReadSettings() {
  const std::string suite_name = absl::GetFlag(FLAGS_suite);
  const absl::StatusOr<uint64_t> keys =
      DbKeys(suite_name, absl::GetFlag(FLAGS_keys));
  if (!keys.ok()) return keys.status();
  const absl::StatusOr<uint64_t> section_keys =
      DbSectionKeys(suite_name, absl::GetFlag(FLAGS_section_keys));
  if (!section_keys.ok()) return section_keys.status();
  const absl::StatusOr<DbSuite> suite = FindDbSuite(suite_name);
  if (!suite.ok()) return suite.status();
  Settings s;
  s.shape.keys = *keys;
  s.shape.rocksdb_table_bytes = suite->rocksdb_table_bytes;
  s.shape.direct_reads =
      absl::GetFlag(FLAGS_direct_reads).value_or(suite->direct_reads);
  s.presence_direct_reads = absl::GetFlag(FLAGS_direct_reads).value_or(true);
  s.shape.value_bytes = absl::GetFlag(FLAGS_value_bytes);
  s.shape.lookups = absl::GetFlag(FLAGS_lookups).value_or(suite->lookups);
  s.shape.reps = absl::GetFlag(FLAGS_reps);
  s.shape.dir = absl::GetFlag(FLAGS_dir).empty() ? DefaultDir()
                                                 : absl::GetFlag(FLAGS_dir);
  s.section_shape = s.shape;
  s.section_shape.keys = *section_keys;
  s.section_shape.rocksdb_table_bytes = kDefaultRocksDbTableBytes;
  s.section_shape.lookups = absl::GetFlag(FLAGS_section_lookups);
  s.format = absl::GetFlag(FLAGS_format);
  auto bad = [](const std::string& message) {
    return absl::InvalidArgumentError(message);
  };
  if (s.shape.lookups == 0) return bad("--lookups must be at least 1");
  if (s.section_shape.lookups == 0) {
    return bad("--section_lookups must be at least 1");
  }
  if (s.shape.reps < 1) return bad("--reps must be at least 1");
  if (s.format != "table" && s.format != "json") {
    return bad("--format must be table or json, got '" + s.format + "'");
  }
  s.stores =
      absl::StrSplit(absl::GetFlag(FLAGS_stores), ',', absl::SkipEmpty());
  for (const std::string& store : s.stores) {
    if (store != kRocksDbStore && store != kLevelDbStore) {
      return bad("--stores takes rocksdb and leveldb, got '" + store + "'");
    }
  }
  const std::vector<std::string> all_sections = {
      kPointSection, kPartitionedSection, kPrefixSection, kRangeSection,
      kPresenceSection};
  s.sections =
      absl::StrSplit(absl::GetFlag(FLAGS_sections), ',', absl::SkipEmpty());
  for (const std::string& section : s.sections) {
    if (std::find(all_sections.begin(), all_sections.end(), section) ==
        all_sections.end()) {
      return bad("--sections takes " + absl::StrJoin(all_sections, ",") +
                 ", got '" + section + "'");
    }
  }
  if (const std::string from = absl::GetFlag(FLAGS_presence_markdown_from);
      !from.empty()) {
    return FlagError("presence_markdown_from", from,
                     "--presence_markdown_from is replaced by bazel run "
                     "//docs:results_table (--render=presence FILE)");
  }
  if (const std::string configs = absl::GetFlag(FLAGS_configs);
      !configs.empty()) {
    return FlagError("configs", configs,
                     "--configs is replaced by --filter, which takes the same "
                     "configurations by spec or lib: peer (--filter=list "
                     "prints them)");
  }
  s.filter = absl::GetFlag(FLAGS_filter).entries;
  s.inject_false_negative = absl::GetFlag(FLAGS_inject_false_negative);
  return s;
}

// Every configuration the run may measure, and the names that choose them.
struct Configs {
  DbConfigs db;
  std::vector<RocksDbConfig> partitioned;
  std::vector<PrefixConfig> prefix;
  // Every built-in configuration's name, once each, in the order they run.
  std::vector<std::string> names;
};

void AddName(const std::string& name, std::vector<std::string>* names) {
  if (std::find(names->begin(), names->end(), name) == names->end()) {
    names->push_back(name);
  }
}

// Makes config's policy answer "no" for every key (--inject_false_negative).
void InjectFalseNegative(RocksDbConfig* config) {
  config->policy = NewNoMatchFilterPolicy(config->policy);
  config->filter += " (answering no for every key: --inject_false_negative)";
}

// The built-in configurations, and a point-section and partitioned-section
// configuration for each entry of --filter that names none of them. An
// InvalidArgumentError is the user's (a bad or repeated entry); other errors
// are the run's.
absl::StatusOr<Configs> MakeConfigs(const Settings& settings) {
  absl::StatusOr<DbConfigs> db = MakeDbConfigs();
  if (!db.ok()) return db.status();
  Configs configs;
  configs.db = *std::move(db);
  if (settings.inject_false_negative) {
    for (RocksDbConfig& config : configs.db.section_policies) {
      InjectFalseNegative(&config);
    }
  }
  configs.partitioned = PartitionedConfigs(configs.db);
  configs.prefix = PrefixConfigs(configs.db);
  for (const RocksDbConfig& c : configs.db.rocksdb)
    AddName(c.name, &configs.names);
  for (const LevelDbConfig& c : configs.db.leveldb)
    AddName(c.name, &configs.names);
  for (const RocksDbConfig& c : configs.partitioned) {
    AddName(c.name, &configs.names);
  }
  for (const PrefixConfig& c : configs.prefix) {
    AddName(c.config.name, &configs.names);
  }
  for (const std::string& name : RangeConfigNames()) {
    AddName(name, &configs.names);
  }
  for (const std::string& name : PresenceConfigNames()) {
    AddName(name, &configs.names);
  }

  std::vector<std::string> specs;
  if (settings.ListsConfigs()) return configs;
  for (const std::string& entry : settings.filter) {
    const bool built_in = std::find(configs.names.begin(), configs.names.end(),
                                    entry) != configs.names.end();
    if (!built_in) {
      if (IsPeerName(entry)) {
        return absl::InvalidArgumentError("--filter: unknown configuration '" +
                                          entry +
                                          "' (--filter=list prints the names)");
      }
      specs.push_back(entry);
    }
  }
  const size_t built_in_rocksdb = configs.db.rocksdb.size();
  if (absl::Status status = AddSpecConfigs(specs, &configs.db); !status.ok()) {
    return absl::InvalidArgumentError("--filter: " +
                                      std::string(status.message()));
  }
  // A spec's policy is measured with partitioned filters as well; a tree
  // policy's is made once its base's tree is known, in the point section.
  for (size_t i = built_in_rocksdb; i < configs.db.rocksdb.size(); ++i) {
    RocksDbConfig config = configs.db.rocksdb[i];
    if (config.policy == nullptr) continue;
    if (settings.inject_false_negative) InjectFalseNegative(&config);
    configs.partitioned.push_back(std::move(config));
  }
  return configs;
}

// Whether --filter chose a configuration: every one when it is empty.
ConfigWanted ChooseConfigs(const Settings& settings) {
  const std::vector<std::string> chosen = settings.filter;
  return ConfigWanted([chosen](const std::string& name) {
    return chosen.empty() ||
           std::find(chosen.begin(), chosen.end(), name) != chosen.end();
  });
}

struct Results {
  std::vector<DbResult> point;
  std::vector<PartitionedResult> partitioned;
  std::vector<PrefixResult> prefix;
  std::vector<RangeResult> range;
  std::vector<PresenceResult> presence;
};

// Runs the chosen sections one at a time: each section's databases are
// built, measured and removed before the next section's are built.
absl::StatusOr<Results> RunSections(const Settings& settings,
                                    const Configs& configs,
                                    const ConfigWanted& wants,
                                    const Progress& progress) {
  Results results;
  const StoreWanted wants_store = [&](const std::string& store) {
    return settings.WantsStore(store);
  };
  if (settings.WantsSection(kPointSection)) {
    absl::StatusOr<std::vector<DbResult>> point = RunPointSection(
        configs.db, wants_store, wants, settings.shape, progress);
    if (!point.ok()) return point.status();
    results.point = *std::move(point);
  }
  // The other sections measure RocksDB only.
  if (!settings.WantsStore(kRocksDbStore)) return results;
  std::vector<RocksDbConfig> partitioned;
  for (const RocksDbConfig& config : configs.partitioned) {
    if (wants(config.name)) partitioned.push_back(config);
  }
  if (settings.WantsSection(kPartitionedSection) && !partitioned.empty()) {
    absl::StatusOr<std::vector<PartitionedResult>> section =
        RunPartitionedSection(partitioned, settings.section_shape, progress);
    if (!section.ok()) return section.status();
    results.partitioned = *std::move(section);
  }
  std::vector<PrefixConfig> prefix;
  for (const PrefixConfig& config : configs.prefix) {
    if (wants(config.config.name)) prefix.push_back(config);
  }
  if (settings.WantsSection(kPrefixSection) && !prefix.empty()) {
    absl::StatusOr<std::vector<PrefixResult>> section =
        RunPrefixSection(prefix, settings.section_shape, progress);
    if (!section.ok()) return section.status();
    results.prefix = *std::move(section);
  }
  std::vector<std::string> range;
  for (const std::string& name : RangeConfigNames()) {
    if (wants(name)) range.push_back(name);
  }
  if (settings.WantsSection(kRangeSection) && !range.empty()) {
    absl::StatusOr<std::vector<RangeResult>> section =
        RunRangeSection(range, settings.inject_false_negative,
                        settings.section_shape, progress);
    if (!section.ok()) return section.status();
    results.range = *std::move(section);
  }
  if (settings.WantsSection(kPresenceSection)) {
    absl::StatusOr<std::vector<PresenceResult>> section =
        RunPresenceSection(configs.db, wants, settings.shape,
                           settings.presence_direct_reads, progress);
    if (!section.ok()) return section.status();
    results.presence = *std::move(section);
  }
  return results;
}

void PrintResults(const Settings& settings, const Results& results) {
  if (settings.format == "json") {
    PrintJson(settings.shape, results.point, std::cout);
    PrintPartitionedJson(settings.section_shape, results.partitioned,
                         std::cout);
    PrintPrefixJson(settings.section_shape, results.prefix, std::cout);
    PrintRangeJson(settings.section_shape, results.range, std::cout);
    PrintPresenceJson(settings.shape, results.presence, std::cout);
  } else {
    PrintTable(settings.shape, results.point, std::cout);
    PrintPartitionedTable(settings.section_shape, results.partitioned,
                          std::cout);
    PrintPrefixTable(settings.section_shape, results.prefix, std::cout);
    PrintRangeTable(settings.section_shape, results.range, std::cout);
    PrintPresenceTable(settings.shape, results.presence, std::cout);
  }
}

int Main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "db_bench [--suite=headline|full|deep] [--keys=N] "
      "[--stores=rocksdb,leveldb]\n"
      "         [--sections=point,partitioned,prefix,range,presence] "
      "[--section_keys=N]\n"
      "         [--direct_reads=true|false]\n"
      "         [--filter=NAME,...] [--format=table|json]\n"
      "Builds real RocksDB and LevelDB databases with each filter "
      "configuration and\ntimes point lookups; then RocksDB with partitioned "
      "filters out of cache,\nseeks to absent prefixes and empty scans; "
      "presence: PresenceFilteredDB against\nRocksDB alone. Suites, with the "
      "wall time of a run of every\nconfiguration on a 2-core machine (up to "
      "twice that on a slower or busier one):\n" +
      DbSuitesUsage());
  if (absl::Status flags = CheckFlags(argc, argv); !flags.ok()) {
    return Usage(std::string(flags.message()));
  }
  absl::ParseCommandLine(argc, argv);
  const absl::StatusOr<Settings> settings = ReadSettings();
  if (!settings.ok()) return Usage(std::string(settings.status().message()));
  const absl::StatusOr<Configs> configs = MakeConfigs(*settings);
  if (!configs.ok()) {
    return absl::IsInvalidArgument(configs.status())
               ? Usage(std::string(configs.status().message()))
               : Error(configs.status());
  }
  if (settings->ListsConfigs()) {
    for (const std::string& name : configs->names) std::cout << name << "\n";
    return 0;
  }
  const ConfigWanted wants = ChooseConfigs(*settings);

  const absl::Time start = absl::Now();
  const Progress progress = [&](const std::string& line) {
    std::cerr << absl::StrFormat("[%4.0fs] ",
                                 absl::ToDoubleSeconds(absl::Now() - start))
              << line << std::endl;
  };
  const absl::StatusOr<Results> results =
      RunSections(*settings, *configs, wants, progress);
  if (!results.ok()) return Error(results.status());
  progress("done");
  PrintResults(*settings, *results);
  return 0;
}

}  // namespace
}  // namespace bench
}  // namespace sstfilter

int main(int argc, char** argv) { return sstfilter::bench::Main(argc, argv); }
