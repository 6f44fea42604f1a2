// Helpers for the tests that run sstfilter's policies inside real RocksDB
// 7.8.3 databases: keys and values, options whose statistics count the data
// blocks a lookup reads, writing a database compacted into tables, reading
// every key back, and a policy that counts how RocksDB calls the filter
// readers.

#ifndef SSTFILTER_TESTS_INTEGRATION_ROCKSDB_DB_UTIL_H_
#define SSTFILTER_TESTS_INTEGRATION_ROCKSDB_DB_UTIL_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bench/db/rocksdb_build.h"
#include "filter/filter_policy.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "rocksdb/version.h"

namespace sstfilter {
namespace test {

struct Entry {
  std::string key;
  std::string value;
};

// n entries with distinct random 16-byte keys (uniform over all byte
// values, so absent keys of the same kind fall between them) and values of
// value_bytes bytes that name their key's index.
std::vector<Entry> RandomEntries(size_t n, size_t value_bytes, uint64_t seed);

// n distinct random 16-byte keys, none of them a key of entries.
std::vector<std::string> AbsentKeys(size_t n, uint64_t seed,
                                    const std::vector<Entry>& entries);

// OK, or an InternalError of "what: RocksDB's message".
using ::sstfilter::bench::FromRocksDb;

// Options under which every data block a lookup needs is read from the file
// and counted, and nothing else is:
//  - data blocks pass through a block cache of capacity 0, so each one is a
//    miss (ticker BLOCK_CACHE_DATA_MISS) and is dropped once used;
//  - index and filter blocks stay in the table readers
//    (cache_index_and_filter_blocks = false, RocksDB's default), loaded when
//    a table is opened; max_open_files = -1 opens every table at DB::Open;
//  - index keys are the blocks' last keys (kNoShortening): a lookup that
//    passes the filter reads exactly one data block. A shortened separator
//    can lie above a block's last key, and a key between the two reads that
//    block and the next;
//  - no compression, statistics on.
rocksdb::Options CountingOptions(
    std::shared_ptr<const rocksdb::FilterPolicy> filter_policy);

// The table options of CountingOptions(filter_policy), for a caller that
// changes some of them, and the database options around them.
rocksdb::BlockBasedTableOptions CountingTableOptions(
    std::shared_ptr<const rocksdb::FilterPolicy> filter_policy);
rocksdb::Options CountingOptions(
    const rocksdb::BlockBasedTableOptions& table_options);

absl::StatusOr<std::unique_ptr<rocksdb::DB>> OpenDb(
    const rocksdb::Options& options, const std::string& path);

// Writes every entry in batches, without the write-ahead log (the tests
// flush before they close).
absl::Status PutAll(rocksdb::DB* db, const std::vector<Entry>& entries);

// Opens a database in dir with options, writes every entry (PutAll),
// flushes, compacts everything into tables of the last level written by the
// compaction (bottommost_level_compaction = kForce: a lone flushed table
// would otherwise move down unchanged), and closes it.
absl::Status WriteFlushAndCompact(const rocksdb::Options& options,
                                  const std::string& dir,
                                  const std::vector<Entry>& entries);

// How each Get for a present key ended.
struct GetOutcomes {
  size_t found = 0;           // OK with the right value
  size_t not_found = 0;       // NotFound: a lost key
  size_t corruption = 0;      // Corruption reported
  size_t wrong = 0;           // OK with another value, or any other status
  std::string first_failure;  // the first key that was not found or wrong
};

// Every key found with its value, and nothing else (gtest expectations).
void ExpectEveryKeyFound(const GetOutcomes& got, size_t n, const char* how);

// Gets every entry's key, one Get each.
GetOutcomes GetAll(rocksdb::DB* db, const std::vector<Entry>& entries);

// The same with MultiGet, batch_keys keys a call, in the entries' order.
GetOutcomes MultiGetAll(rocksdb::DB* db, const std::vector<Entry>& entries,
                        size_t batch_keys);

// Gets each key, expecting NotFound; returns how many were not NotFound.
size_t GetAbsent(rocksdb::DB* db, const std::vector<std::string>& keys);
size_t MultiGetAbsent(rocksdb::DB* db, const std::vector<std::string>& keys,
                      size_t batch_keys);

// The tickers that show what a lookup read.
struct ReadTickers {
  uint64_t filter_useful = 0;  // BLOOM_FILTER_USEFUL: a filter said no
  uint64_t data_misses = 0;    // BLOCK_CACHE_DATA_MISS: data blocks read
  uint64_t data_hits = 0;      // BLOCK_CACHE_DATA_HIT
  // With a prefix extractor: a prefix asked of a table's filter (by a seek,
  // or by a point lookup without whole-key filtering), and the filter said
  // no: BLOOM_FILTER_PREFIX_CHECKED and _USEFUL, plus, since RocksDB 8 counts
  // seeks apart, SeekFilterChecks() and SeekFiltered().
  uint64_t prefix_checked = 0;
  uint64_t prefix_useful = 0;
  uint64_t filter_misses = 0;  // BLOCK_CACHE_FILTER_MISS: filter blocks read
  uint64_t filter_hits = 0;    // BLOCK_CACHE_FILTER_HIT
};
ReadTickers Tickers(const rocksdb::Statistics& statistics);

// Seeks that a filter turned away, and seeks that asked a filter: RocksDB 9's
// tickers (LAST_LEVEL_ and NON_LAST_LEVEL_SEEK_FILTERED, _FILTER_MATCH); 0
// for RocksDB 7.8, which counts seeks in BLOOM_FILTER_PREFIX_*.
uint64_t SeekFiltered(const rocksdb::Statistics& statistics);
uint64_t SeekFilterChecks(const rocksdb::Statistics& statistics);

// How many times a point lookup asks a prefix-only filter (no whole keys) for
// a key's prefix: RocksDB 7.8 counts MultiGet's checks in
// BLOOM_FILTER_PREFIX_CHECKED, RocksDB 9.7 Get's and MultiGet's.
constexpr int kPointLookupsCountingPrefixChecks = ROCKSDB_MAJOR >= 9 ? 2 : 1;
ReadTickers operator-(const ReadTickers& a, const ReadTickers& b);

// How many of keys fall within some table's [smallest, largest] key range:
// the lookups that reach a table (after a full compaction every table is in
// one level, so each such lookup reaches exactly one).
size_t KeysInTableRanges(rocksdb::DB* db, const std::vector<std::string>& keys);

// How many of targets a Seek takes into some table: those at or below some
// table's largest key (the level's iterator positions in the first table
// whose largest key is not below the target; after a full compaction every
// table is in one level, so each such seek reaches exactly one).
size_t SeeksReachingATable(rocksdb::DB* db,
                           const std::vector<std::string>& targets);

// The .sst files in dir, sorted.
std::vector<std::string> TableFiles(const std::string& dir);

// The false-positive rate the filter of the table file at path is expected to
// have, from its own size and key count, read with sstfilter's table reader;
// 1 for a table without a filter.
absl::StatusOr<double> TableExpectedFpp(const std::string& path);

// How RocksDB called the readers of a CountingPolicy.
struct MayMatchCalls {
  std::atomic<uint64_t> single{0};        // MayMatch(key)
  std::atomic<uint64_t> batches{0};       // MayMatch(keys, results)
  std::atomic<uint64_t> batched_keys{0};  // keys in those batches
};

// inner, with readers that count their calls in *calls. Same name, same
// filters.
std::shared_ptr<const FilterPolicy> CountingPolicy(
    std::shared_ptr<const FilterPolicy> inner,
    std::shared_ptr<MayMatchCalls> calls);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_INTEGRATION_ROCKSDB_DB_UTIL_H_
