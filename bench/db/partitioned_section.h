// db_bench's partitioned-filter section: RocksDB tables whose filters are cut
// into partitions under a top-level index, kept with the index blocks in a
// block cache a quarter the size of the filters, so that an absent-key
// lookup often reads its filter partition, as in a store whose filters do
// not fit in memory. Each configuration is one sorted run in the last level
// (RocksDbTreeSpec::one_level). Options and columns: bench/db_bench.md
// ("partitioned").

#ifndef SSTFILTER_BENCH_DB_PARTITIONED_SECTION_H_
#define SSTFILTER_BENCH_DB_PARTITIONED_SECTION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "bench/db/db_configs.h"
#include "bench/db/db_store.h"
#include "bench/db/rocksdb_store.h"
#include "bench/db/section_probes.h"

namespace sstfilter {
namespace bench {

constexpr char kPartitionedSection[] = "partitioned";
// The filters expected at kDbBitsPerKey are this many times the block cache.
constexpr uint64_t kFiltersPerBlockCache = 4;

// The block cache of a database of `keys` keys:
// keys * kDbBitsPerKey / 8 / kFiltersPerBlockCache bytes.
uint64_t PartitionedBlockCacheBytes(uint64_t keys);

// DbConfigs::section_policies, each under its own name: a row's "section"
// tells the partitioned runs apart from the point section's.
std::vector<RocksDbConfig> PartitionedConfigs(const DbConfigs& configs);

struct PartitionedResult {
  DbResult built;  // the lookup figures are below
  uint64_t block_cache_bytes = 0;
  // Absent-key lookups; data reads are BLOCK_CACHE_DATA_MISS per lookup.
  ProbeFigures absent;
  // Per absent-key lookup, from RocksDB's tickers: filters asked
  // (BLOOM_FILTER_USEFUL + BLOOM_FILTER_FULL_POSITIVE: one per table whose
  // key range holds the key), those that answered "no" (BLOOM_FILTER_USEFUL),
  // filter blocks not found in the block cache (BLOCK_CACHE_FILTER_MISS), and
  // filter bytes inserted into it (BLOCK_CACHE_FILTER_BYTES_INSERT, the
  // partitions' cache charge).
  double filter_checks = 0;
  double filter_useful = 0;
  double filter_misses = 0;
  double filter_bytes_inserted = 0;
};

// Builds a database per configuration (shape.keys keys), checks that a
// sample of present keys is found, and times shape.reps repetitions of
// shape.lookups absent-key lookups, every database in turn. Any error (a
// build, a present key not found, an absent one found) stops it.
absl::StatusOr<std::vector<PartitionedResult>> RunPartitionedSection(
    const std::vector<RocksDbConfig>& configs, const DbShape& shape,
    const Progress& progress);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_PARTITIONED_SECTION_H_
