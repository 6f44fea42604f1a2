// db_bench: what sstfilter's filters buy a real database. Builds a RocksDB
// 7.8.3 and a LevelDB 1.23 database per filter configuration, at the same
// filter memory, and times point lookups of absent and present keys (the
// point section, point_section.h). Then two RocksDB sections: absent-key
// lookups with partitioned filters in a block cache smaller than the filters
// (partitioned_section.h), seeks to absent prefixes with a prefix
// extractor (prefix_section.h), and short scans of empty ranges with and
// without range filters (range_section.h).
//
//   bazel run -c opt //bench:db_bench -- [--suite=headline|full|deep]
//   [--keys=N]
//       [--direct_reads=true|false]
//       [--sections=point,partitioned,prefix,range] [--section_keys=N]
//       [--stores=...] [--configs=...] [--format=table|json] [--dir=/tmp]
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
#include "bench/flag_check.h"

ABSL_FLAG(std::string, suite, sstfilter::bench::kDefaultDbSuite,
          "headline, full or deep: how many keys each database holds, in "
          "what size of RocksDB tables (the usage message above gives each "
          "suite's)");
ABSL_FLAG(std::optional<bool>, direct_reads, std::nullopt,
          "true or false: also time absent-key lookups in every RocksDB "
          "database reopened with use_direct_reads and a block cache that "
          "holds only its filters and indexes (default: the suite's)");
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
          "ranges, RocksDB)");
ABSL_FLAG(std::optional<uint64_t>, section_keys, std::nullopt,
          "keys in each database of the partitioned, prefix and range "
          "sections "
          "(default: the suite's)");
ABSL_FLAG(uint64_t, section_lookups, 50'000,
          "absent-key lookups (partitioned), seeks (prefix) or scans (range) "
          "per repetition in the sections");
ABSL_FLAG(std::string, stores, "rocksdb,leveldb",
          "stores to run (the partitioned and prefix sections need rocksdb)");
ABSL_FLAG(
    std::string, configs, "",
    "configurations to run, comma-separated (default: all; --configs=list "
    "lists them)");
ABSL_FLAG(std::string, filter, "",
          "comma list of sstfilter policy spec strings (filter/filter_spec.h), "
          "e.g. bloom:10,burr:fpp=0.001: each one more point-section "
          "configuration in RocksDB (named by the spec) and LevelDB "
          "(leveldb+spec), sized by the spec; run whatever --configs says");
ABSL_FLAG(std::string, format, "table", "table or json");
ABSL_FLAG(bool, inject_false_negative, false,
          "testing: the sections' filters answer no for every key (range: "
          "every range), so that their checks of present keys and prefixes "
          "must stop the run (exit status 1)");
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

int Main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "db_bench [--suite=headline|full|deep] [--keys=N] "
      "[--stores=rocksdb,leveldb]\n"
      "         [--sections=point,partitioned,prefix] [--section_keys=N]\n"
      "         [--direct_reads=true|false]\n"
      "         [--configs=a,b] [--filter=SPEC,...] [--format=table|json]\n"
      "Builds real RocksDB and LevelDB databases with each filter "
      "configuration and\ntimes point lookups; then RocksDB with partitioned "
      "filters out of cache, and\nseeks to absent prefixes. Suites, with the "
      "wall time of a run of every\nconfiguration on a 2-core machine (up to "
      "twice that on a slower or busier one):\n" +
      DbSuitesUsage());
  if (absl::Status flags = CheckFlags(argc, argv); !flags.ok()) {
    return Usage(std::string(flags.message()));
  }
  absl::ParseCommandLine(argc, argv);
  DbShape shape;
  absl::StatusOr<uint64_t> keys =
      DbKeys(absl::GetFlag(FLAGS_suite), absl::GetFlag(FLAGS_keys));
  if (!keys.ok()) return Usage(std::string(keys.status().message()));
  absl::StatusOr<uint64_t> section_keys = DbSectionKeys(
      absl::GetFlag(FLAGS_suite), absl::GetFlag(FLAGS_section_keys));
  if (!section_keys.ok()) {
    return Usage(std::string(section_keys.status().message()));
  }
  const absl::StatusOr<DbSuite> suite = FindDbSuite(absl::GetFlag(FLAGS_suite));
  if (!suite.ok()) return Usage(std::string(suite.status().message()));
  shape.keys = *keys;
  shape.rocksdb_table_bytes = suite->rocksdb_table_bytes;
  shape.direct_reads =
      absl::GetFlag(FLAGS_direct_reads).value_or(suite->direct_reads);
  shape.value_bytes = absl::GetFlag(FLAGS_value_bytes);
  shape.lookups = absl::GetFlag(FLAGS_lookups).value_or(suite->lookups);
  shape.reps = absl::GetFlag(FLAGS_reps);
  shape.dir = absl::GetFlag(FLAGS_dir).empty() ? DefaultDir()
                                               : absl::GetFlag(FLAGS_dir);
  DbShape section_shape = shape;
  section_shape.keys = *section_keys;
  section_shape.rocksdb_table_bytes = kDefaultRocksDbTableBytes;
  section_shape.lookups = absl::GetFlag(FLAGS_section_lookups);
  const std::string format = absl::GetFlag(FLAGS_format);
  if (shape.lookups == 0) return Usage("--lookups must be at least 1");
  if (section_shape.lookups == 0) {
    return Usage("--section_lookups must be at least 1");
  }
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
  const StoreWanted wants_store = [&](const std::string& store) {
    return std::find(stores.begin(), stores.end(), store) != stores.end();
  };
  const std::vector<std::string> all_sections = {
      kPointSection, kPartitionedSection, kPrefixSection, kRangeSection};
  const std::vector<std::string> sections =
      absl::StrSplit(absl::GetFlag(FLAGS_sections), ',', absl::SkipEmpty());
  for (const std::string& section : sections) {
    if (std::find(all_sections.begin(), all_sections.end(), section) ==
        all_sections.end()) {
      return Usage("--sections takes " + absl::StrJoin(all_sections, ",") +
                   ", got '" + section + "'");
    }
  }
  const auto wants_section = [&](const std::string& section) {
    return std::find(sections.begin(), sections.end(), section) !=
           sections.end();
  };

  absl::StatusOr<DbConfigs> configs = MakeDbConfigs();
  if (!configs.ok()) return Error(configs.status());
  if (absl::GetFlag(FLAGS_inject_false_negative)) {
    for (RocksDbConfig& config : configs->section_policies) {
      config.policy = NewNoMatchFilterPolicy(config.policy);
      config.filter += " (answering no for every key: --inject_false_negative)";
    }
  }
  // --filter's configurations run whatever --configs chooses.
  const std::vector<std::string> specs =
      absl::StrSplit(absl::GetFlag(FLAGS_filter), ',', absl::SkipEmpty());
  std::vector<std::string> spec_names;
  for (const std::string& spec : specs) {
    if (std::find(spec_names.begin(), spec_names.end(), spec) !=
        spec_names.end()) {
      return Usage("--filter: '" + spec + "' listed twice");
    }
    spec_names.push_back(spec);
    spec_names.push_back("leveldb+" + spec);
  }
  if (absl::Status status = AddSpecConfigs(specs, &*configs); !status.ok()) {
    return Usage("--filter: " + std::string(status.message()));
  }
  const std::vector<RocksDbConfig> partitioned_configs =
      PartitionedConfigs(*configs);
  const std::vector<PrefixConfig> prefix_configs = PrefixConfigs(*configs);
  std::vector<std::string> all_names;
  for (const RocksDbConfig& c : configs->rocksdb) all_names.push_back(c.name);
  for (const LevelDbConfig& c : configs->leveldb) all_names.push_back(c.name);
  for (const RocksDbConfig& c : partitioned_configs) {
    all_names.push_back(c.name);
  }
  for (const PrefixConfig& c : prefix_configs) {
    all_names.push_back(c.config.name);
  }
  for (const std::string& name : RangeConfigNames()) all_names.push_back(name);
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
  const ConfigWanted wants = [&](const std::string& name) {
    return chosen.empty() ||
           std::find(chosen.begin(), chosen.end(), name) != chosen.end() ||
           std::find(spec_names.begin(), spec_names.end(), name) !=
               spec_names.end();
  };

  const absl::Time start = absl::Now();
  const Progress progress = [&](const std::string& line) {
    std::cerr << absl::StrFormat("[%4.0fs] ",
                                 absl::ToDoubleSeconds(absl::Now() - start))
              << line << std::endl;
  };
  // One section at a time: its databases are built, measured and removed
  // before the next section's are built.
  std::vector<DbResult> point;
  if (wants_section(kPointSection)) {
    absl::StatusOr<std::vector<DbResult>> results =
        RunPointSection(*configs, wants_store, wants, shape, progress);
    if (!results.ok()) return Error(results.status());
    point = *std::move(results);
  }
  std::vector<PartitionedResult> partitioned;
  std::vector<RocksDbConfig> chosen_partitioned;
  for (const RocksDbConfig& config : partitioned_configs) {
    if (wants(config.name)) chosen_partitioned.push_back(config);
  }
  if (wants_section(kPartitionedSection) && wants_store("rocksdb") &&
      !chosen_partitioned.empty()) {
    absl::StatusOr<std::vector<PartitionedResult>> results =
        RunPartitionedSection(chosen_partitioned, section_shape, progress);
    if (!results.ok()) return Error(results.status());
    partitioned = *std::move(results);
  }
  std::vector<PrefixResult> prefix;
  std::vector<PrefixConfig> chosen_prefix;
  for (const PrefixConfig& config : prefix_configs) {
    if (wants(config.config.name)) chosen_prefix.push_back(config);
  }
  if (wants_section(kPrefixSection) && wants_store("rocksdb") &&
      !chosen_prefix.empty()) {
    absl::StatusOr<std::vector<PrefixResult>> results =
        RunPrefixSection(chosen_prefix, section_shape, progress);
    if (!results.ok()) return Error(results.status());
    prefix = *std::move(results);
  }
  std::vector<RangeResult> range;
  std::vector<std::string> chosen_range;
  for (const std::string& name : RangeConfigNames()) {
    if (wants(name)) chosen_range.push_back(name);
  }
  if (wants_section(kRangeSection) && wants_store("rocksdb") &&
      !chosen_range.empty()) {
    absl::StatusOr<std::vector<RangeResult>> results = RunRangeSection(
        chosen_range, absl::GetFlag(FLAGS_inject_false_negative), section_shape,
        progress);
    if (!results.ok()) return Error(results.status());
    range = *std::move(results);
  }
  progress("done");
  if (format == "json") {
    PrintJson(shape, point, std::cout);
    PrintPartitionedJson(section_shape, partitioned, std::cout);
    PrintPrefixJson(section_shape, prefix, std::cout);
    PrintRangeJson(section_shape, range, std::cout);
  } else {
    PrintTable(shape, point, std::cout);
    PrintPartitionedTable(section_shape, partitioned, std::cout);
    PrintPrefixTable(section_shape, prefix, std::cout);
    PrintRangeTable(section_shape, range, std::cout);
  }
  return 0;
}

}  // namespace
}  // namespace bench
}  // namespace sstfilter

int main(int argc, char** argv) { return sstfilter::bench::Main(argc, argv); }
