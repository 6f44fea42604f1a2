// What db_bench measures for one configuration of one store, and the shape of
// the database it builds. The stores (rocksdb_store.h, leveldb_store.h) fill
// these in; db_report.h prints them.

#ifndef SSTFILTER_BENCH_DB_DB_STORE_H_
#define SSTFILTER_BENCH_DB_DB_STORE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/db/db_suites.h"

namespace sstfilter {
namespace bench {

// The database every configuration builds: keys random 16-byte keys
// (KeyKind::kRandom16 of indexes 0 .. keys - 1) written in index order, which
// is random key order, so compactions rewrite every table and each level's
// filters are built at that level.
struct DbShape {
  uint64_t keys = 10'000'000;
  size_t value_bytes = 32;
  // Lookups per repetition, of each kind; every repetition draws fresh keys.
  uint64_t lookups = 200'000;
  int reps = 5;
  // RocksDB's memtables and tables; its base level is
  // kRocksDbL0CompactionTrigger of them (rocksdb_tree.h). Smaller tables make
  // a deeper tree of the same keys.
  size_t rocksdb_table_bytes = kDefaultRocksDbTableBytes;
  // Also times absent-key lookups in each RocksDB database reopened with
  // direct reads and a block cache that holds only the filters and indexes
  // (DirectReadFigures).
  bool direct_reads = false;
  std::string dir;  // parent of the databases; each is removed after its run
};

// One kind of lookup (absent or present keys), the median repetition.
struct LookupFigures {
  double lookups_per_second = 0;
  // Data blocks read from table files. Lookups do not fill the block cache
  // (ReadOptions::fill_cache = false), so every data block a lookup needs is
  // read, whatever the luck of a cache.
  double data_reads_per_lookup = 0;
  uint64_t found = 0;    // keys found, over all repetitions
  uint64_t lookups = 0;  // over all repetitions
  // Lookups per second of each repetition, in repetition order. Databases
  // timed in turn within the same repetitions pair up by index
  // (MedianOfRatios, util/medians.h).
  std::vector<double> rates;
};

// Absent-key lookups in a RocksDB database reopened as one whose data
// outgrows memory: use_direct_reads, so that no data block comes from the
// operating system's page cache, and an LRU block cache that holds every
// filter and index block (cache_index_and_filter_blocks, at high priority,
// L0's pinned) and no data block (lookups do not fill it). Every data block a
// false positive needs is a read of the device.
struct DirectReadFigures {
  // False when the directory's file system refused O_DIRECT: the database
  // was reopened with the same cache but buffered reads, so data blocks came
  // from the page cache (the report says so).
  bool direct = false;
  std::string refused;  // RocksDB's message when direct is false
  uint64_t block_cache_bytes = 0;
  uint64_t data_bytes = 0;  // every table's data blocks, as stored
  LookupFigures absent;
  // Filter and index blocks not found in the block cache, per absent lookup:
  // 0 when the cache holds them all, as the mode intends.
  double metadata_misses_per_lookup = 0;
};

// The states of a tree lookups are timed in. Settled: every flush and
// compaction done (RocksDB: L0 compacted too, so that every configuration has
// the same shape).
// Recent flushes (RocksDB): the settled tree plus kRocksDbRecentFlushes
// memtables flushed into L0 and not yet compacted, as a store receiving writes
// has them; each is one more run that every lookup consults.
constexpr char kSettledTree[] = "settled";
constexpr char kRecentFlushesTree[] = "2 flushes in L0";

// The section of db_bench's output the point lookups of DbResult make: its
// JSON rows' "section". The RocksDB sections are partitioned_section.h and
// prefix_section.h.
constexpr char kPointSection[] = "point";

// The stores a DbResult comes from: its "store", and --stores's words.
constexpr char kRocksDbStore[] = "rocksdb";
constexpr char kLevelDbStore[] = "leveldb";

// The directory of a store's database of a configuration: the two stores name
// a configuration alike ("bloom").
inline std::string DatabasePath(const DbShape& shape, const std::string& store,
                                const std::string& config) {
  return shape.dir + "/" + store + "-" + config;
}

struct DbResult {
  std::string store;   // kRocksDbStore or kLevelDbStore
  std::string config;  // e.g. "bloom" (db_configs.h)
  std::string tree = kSettledTree;
  std::string filter;         // the policy as configured
  uint64_t keys = 0;          // in the tree, recent flushes included
  double build_seconds = 0;   // writes, flushes and compactions
  uint64_t filter_bytes = 0;  // every table's filter block
  double bits_per_key = 0;    // filter_bytes * 8 / keys
  std::vector<int> files_per_level;
  std::vector<uint64_t> entries_per_level;     // RocksDB: keys in each level
  std::vector<double> bits_per_key_per_level;  // RocksDB: filter bits / keys
  LookupFigures absent;
  LookupFigures present;
  std::optional<DirectReadFigures> direct;  // RocksDB, with --direct_reads
};

// Progress lines for stderr.
using Progress = std::function<void(const std::string&)>;

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_DB_STORE_H_
