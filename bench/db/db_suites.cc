#include "bench/db/db_suites.h"

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "util/flag_check.h"

namespace sstfilter {
namespace bench {

const std::vector<DbSuite>& AllDbSuites() {
  static const auto* suites = new std::vector<DbSuite>{
      // A run that answers in about two minutes: building a database grows
      // faster than its keys (compactions rewrite every table once per
      // level), and the lookups take a little longer than the builds. The
      // sections' eleven databases of 4 * 10^5 keys add about 25 seconds.
      // Direct reads would add about 20%, so they are left to the full
      // suite, and 150,000 lookups of each kind keep the run within 2.5
      // minutes with seven configurations.
      {kDefaultDbSuite, 2'000'000, 400'000, "about 2.5 minutes", 150'000,
       kDefaultRocksDbTableBytes, false},
      // The tree of the project's README: three levels below L0 in RocksDB.
      // The sections add about 45 seconds.
      {"full", 10'000'000, 2'000'000, "about 9 minutes", 200'000,
       kDefaultRocksDbTableBytes, true},
      // The same keys in tables a quarter the size: four levels below L0 in
      // RocksDB, where the levels' sizes differ more. LevelDB's tree does
      // not change; run it with --stores=rocksdb --sections=point.
      // Each RocksDB database takes 2-3 minutes to build.
      {"deep", 10'000'000, 2'000'000, "about 20 minutes", 200'000, 256 << 10,
       true},
  };
  return *suites;
}

absl::StatusOr<DbSuite> FindDbSuite(absl::string_view suite) {
  std::vector<std::string> names;
  for (const DbSuite& s : AllDbSuites()) {
    if (suite == s.name) return s;
    names.push_back(s.name);
  }
  return FlagError("suite", suite,
                   absl::StrFormat("unknown suite '%s' (the suites are %s)",
                                   suite, absl::StrJoin(names, ", ")));
}

namespace {

// keys when given (flag names it), else the named suite's count (`count`).
absl::StatusOr<uint64_t> SuiteKeys(absl::string_view suite,
                                   std::optional<uint64_t> keys,
                                   const char* flag, uint64_t DbSuite::*count) {
  absl::StatusOr<DbSuite> found = FindDbSuite(suite);
  if (!found.ok()) return found.status();
  if (!keys.has_value()) return (*found).*count;
  if (*keys == 0) {
    return FlagError(flag, "0", "a database needs at least 1 key");
  }
  return *keys;
}

}  // namespace

absl::StatusOr<uint64_t> DbKeys(absl::string_view suite,
                                std::optional<uint64_t> keys) {
  return SuiteKeys(suite, keys, "keys", &DbSuite::keys);
}

absl::StatusOr<uint64_t> DbSectionKeys(absl::string_view suite,
                                       std::optional<uint64_t> section_keys) {
  return SuiteKeys(suite, section_keys, "section_keys", &DbSuite::section_keys);
}

std::string DbSuitesUsage() {
  std::string text;
  for (const DbSuite& suite : AllDbSuites()) {
    text += absl::StrFormat(
        "  %-9s %s%s: %d keys per database, %d in the sections'; RocksDB "
        "tables of %d KiB; %d lookups of each kind; direct reads %s\n",
        suite.name, suite.duration,
        suite.name == std::string(kDefaultDbSuite) ? ", the default" : "",
        suite.keys, suite.section_keys, suite.rocksdb_table_bytes >> 10,
        suite.lookups, suite.direct_reads ? "on" : "off");
  }
  return text;
}

}  // namespace bench
}  // namespace sstfilter
