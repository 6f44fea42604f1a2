#include "bench/db/db_suites.h"

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "bench/flag_check.h"

namespace sstfilter {
namespace bench {

const std::vector<DbSuite>& AllDbSuites() {
  static const auto* suites = new std::vector<DbSuite>{
      // A run that answers in about two minutes: building a database grows
      // faster than its keys (compactions rewrite every table once per
      // level), and the lookups take a little longer than the builds. The
      // sections' nine databases of 4 * 10^5 keys add about 15 seconds.
      {kDefaultDbSuite, 2'000'000, 400'000, "about 2 minutes"},
      // The tree of the project's README: three levels below L0 in RocksDB.
      // The sections add about 45 seconds.
      {"full", 10'000'000, 2'000'000, "about 6 minutes"},
  };
  return *suites;
}

namespace {

// keys when given (flag names it), else the named suite's count (`count`).
absl::StatusOr<uint64_t> SuiteKeys(absl::string_view suite,
                                   std::optional<uint64_t> keys,
                                   const char* flag, uint64_t DbSuite::*count) {
  const DbSuite* found = nullptr;
  std::vector<std::string> names;
  for (const DbSuite& s : AllDbSuites()) {
    if (suite == s.name) found = &s;
    names.push_back(s.name);
  }
  if (found == nullptr) {
    return FlagError("suite", suite,
                     absl::StrFormat("unknown suite '%s' (the suites are %s)",
                                     suite, absl::StrJoin(names, ", ")));
  }
  if (!keys.has_value()) return found->*count;
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
        "  %-9s %s%s: %d keys per database, %d in the sections'\n", suite.name,
        suite.duration,
        suite.name == std::string(kDefaultDbSuite) ? ", the default" : "",
        suite.keys, suite.section_keys);
  }
  return text;
}

}  // namespace bench
}  // namespace sstfilter
