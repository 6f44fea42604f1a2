// Keys made of a fixed-length prefix and a suffix, many keys to a prefix, for
// RocksDB databases with a prefix extractor: the present entries, absent keys
// of each kind a lookup can meet, and reading the keys back by prefix with
// Seek.

#ifndef SSTFILTER_TESTS_INTEGRATION_ROCKSDB_PREFIX_KEYS_H_
#define SSTFILTER_TESTS_INTEGRATION_ROCKSDB_PREFIX_KEYS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "tests/integration/rocksdb_db_util.h"
#include "util/grouped_keys.h"

namespace sstfilter {
namespace test {

constexpr size_t kPrefixBytes = kGroupPrefixBytes;  // the prefix extractor's

struct PrefixedKeys {
  // Every present key with its value, sorted by key, so that the keys of one
  // prefix are adjacent.
  std::vector<Entry> entries;
  // The distinct prefixes, sorted, and where the keys of prefixes[i] are in
  // entries: [first_entry[i], first_entry[i + 1]).
  std::vector<std::string> prefixes;
  std::vector<size_t> first_entry;
  // Absent keys whose prefix is present, each sorting below the last key of
  // its prefix: the table, and the filter partition, that such a lookup
  // reaches hold a key of its prefix.
  std::vector<std::string> absent_keys_of_present_prefixes;
  // Prefixes no key has, and for each one an absent key with it (the prefix
  // and a random suffix): one lookup per absent prefix, so that the lookups'
  // filter answers are independent.
  std::vector<std::string> absent_prefixes;
  std::vector<std::string> keys_of_absent_prefixes;
};

// num_prefixes groups of util/grouped_keys.h's binary keys, each with a number
// of keys uniform in [1, 2 * mean_keys_per_prefix - 1]; values name their
// key's index in entries. num_absent distinct absent keys of each kind, and
// as many absent prefixes, one absent key each. The same for the same
// arguments on every platform. REQUIRES: mean_keys_per_prefix >= 1.
PrefixedKeys MakePrefixedKeys(size_t num_prefixes, size_t mean_keys_per_prefix,
                              size_t num_absent, uint64_t seed);

// What reading every prefix's keys back found.
struct PrefixScans {
  size_t exact = 0;  // prefixes whose keys and values all came back, in order
  size_t keys = 0;   // keys of the scanned prefix returned, over all prefixes
  std::string first_failure;  // the first prefix that did not come back exact
};

// For each prefix of keys: Seek(prefix) with default ReadOptions (prefix mode
// when the database has a prefix extractor, so each table's filter is asked
// for the prefix), then Next while the key has the prefix. One iterator for
// all prefixes, in sorted order.
PrefixScans ScanEveryPrefix(rocksdb::DB* db, const PrefixedKeys& keys);

// Seeks each of prefixes, with default ReadOptions and a fresh iterator each
// (one that kept the previous seek's data block would not read it again);
// returns how many found a key with the prefix sought or failed.
size_t SeekAbsentPrefixes(rocksdb::DB* db,
                          const std::vector<std::string>& prefixes);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_INTEGRATION_ROCKSDB_PREFIX_KEYS_H_
