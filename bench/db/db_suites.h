// The runs db_bench knows by name (--suite): how many keys each database
// holds, and how long the whole run takes. --keys, when given, replaces the
// suite's count.

#ifndef SSTFILTER_BENCH_DB_DB_SUITES_H_
#define SSTFILTER_BENCH_DB_DB_SUITES_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sstfilter {
namespace bench {

// RocksDB's memtables and tables unless a suite says otherwise.
constexpr size_t kDefaultRocksDbTableBytes = 1 << 20;

struct DbSuite {
  const char* name;
  uint64_t keys;  // in each database of the point lookups
  // In each database of the partitioned-filter and prefix-seek sections:
  // fewer, so that the sections add a fraction of the point lookups' time.
  uint64_t section_keys;
  // Wall time of a run of every configuration with the default lookups and
  // reps on a 2-core machine, as a rule of thumb (the machine's speed drifts).
  const char* duration;
  // Point lookups of each kind per repetition, unless --lookups says.
  uint64_t lookups;
  // RocksDB's memtables and tables in the point section (DbShape).
  size_t rocksdb_table_bytes;
  // Whether the point section also times lookups with direct reads
  // (DbShape::direct_reads) unless --direct_reads says.
  bool direct_reads;
};

// The suite a run without --suite takes.
constexpr char kDefaultDbSuite[] = "headline";

// headline, full, deep.
const std::vector<DbSuite>& AllDbSuites();

// The named suite; an unknown name is an InvalidArgumentError naming --suite.
absl::StatusOr<DbSuite> FindDbSuite(absl::string_view suite);

// Keys per database: `keys` when given, else the named suite's. An unknown
// suite or a count of 0 is an InvalidArgumentError naming the flag.
absl::StatusOr<uint64_t> DbKeys(absl::string_view suite,
                                std::optional<uint64_t> keys);

// The same for the sections' databases and --section_keys.
absl::StatusOr<uint64_t> DbSectionKeys(absl::string_view suite,
                                       std::optional<uint64_t> section_keys);

// The lines of --help that name each suite, its keys (of the point lookups
// and of the sections) and its duration.
std::string DbSuitesUsage();

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_DB_SUITES_H_
