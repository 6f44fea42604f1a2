// A real LevelDB 1.23 database of 200,000 random keys written with a filter
// policy, and what its lookups cost when it is reopened: the measurements
// behind leveldb_db_test.cc.
//
// Reads are counted by CountingLevelDbEnv with LevelDB's block cache turned
// off and every table kept open (its index and filter read once, when it
// opens, before counting starts), so each counted read is a data block a
// lookup needed. After CompactRange all keys sit in one level, so a lookup
// reaches at most one table.

#ifndef SSTFILTER_TESTS_INTEGRATION_LEVELDB_DB_READS_H_
#define SSTFILTER_TESTS_INTEGRATION_LEVELDB_DB_READS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "leveldb/filter_policy.h"

namespace sstfilter {
namespace test {

struct DbKeys {
  std::vector<std::string> sorted;   // the written keys, sorted
  std::vector<std::string> written;  // the same keys, in the order written
  std::vector<std::string> present;  // every other written key
  // Keys never written, of the same form, so they fall inside the tables' key
  // ranges and reach a filter: keys outside every range would be ruled out by
  // LevelDB before any filter, and prove nothing.
  std::vector<std::string> absent;
};

// 200,000 written keys, 100,000 of them looked up as present keys, and
// 100,000 absent ones, from fixed seeds; made once.
const DbKeys& TestDbKeys();

// Writes every key of TestDbKeys() with policy (nullptr: no filter), compacts
// everything into one level, closes the database, and returns its table files.
absl::StatusOr<std::vector<std::string>> WriteTestDatabase(
    const std::string& dir, const leveldb::FilterPolicy* policy);

// The expected false-positive rate of a lookup that reaches a filter of these
// tables: the ExpectedFpp of each filter as sstfilter's table reader finds it
// (the policy's formula at the filter's own size; for LevelDB's format, its
// rate measured against sample hashes), averaged with weights proportional to
// each filter's bytes, a proxy for its share of the keys and so of the absent
// keys that land in it. An error unless every table holds a readable filter
// under filter_name.
absl::StatusOr<double> FiltersExpectedFpp(
    const std::vector<std::string>& tables, const std::string& filter_name);

struct ReadCounts {
  int64_t absent = 0;   // table reads to look up TestDbKeys().absent
  int64_t present = 0;  // table reads to look up TestDbKeys().present
};

// Reopens the database in dir with read_policy (nullptr: none) and scans it:
// it must hold exactly the written keys and values, and every table is then
// open. Then counts the table reads of a lookup of each absent key (each must
// be NotFound) and of each present key (each must come back with its value:
// a false negative from a filter would lose it). Half the written keys are
// looked up, not all: under AddressSanitizer a lookup costs about 15 us, and
// the scan has already read every key back.
absl::StatusOr<ReadCounts> CountReads(const std::string& dir,
                                      const leveldb::FilterPolicy* read_policy);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_INTEGRATION_LEVELDB_DB_READS_H_
