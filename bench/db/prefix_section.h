// db_bench's prefix-seek section: RocksDB with a fixed-length prefix
// extractor (rocksdb::NewFixedPrefixTransform(kPrefixBytes)), keys in groups
// sharing a prefix (prefix_keys.h), and seeks to prefixes no key has, with no
// filter, and with RocksDB's and sstfilter's filters of prefixes only or of
// whole keys and prefixes (kDbBitsPerKey per entry). Each database is one
// sorted run in the last level. Configurations and columns:
// bench/db_bench.md ("prefix").

#ifndef SSTFILTER_BENCH_DB_PREFIX_SECTION_H_
#define SSTFILTER_BENCH_DB_PREFIX_SECTION_H_

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

constexpr char kPrefixSection[] = "prefix";

// What a table's filter holds.
enum class PrefixFilter {
  kNone,                  // no filter
  kPrefixes,              // whole_key_filtering = false
  kWholeKeysAndPrefixes,  // whole_key_filtering = true
};
// "none", "prefixes", "keys+prefixes".
const char* PrefixFilterName(PrefixFilter holds);

// A configuration of the section: a policy, named as in the point section
// (kNoFilterConfig for none), and what its filters hold; a row's
// "filter_holds" tells a policy's two configurations apart.
struct PrefixConfig {
  RocksDbConfig config;
  PrefixFilter holds = PrefixFilter::kNone;
};

// The section's configurations: no filter, then kUniformConfig's and
// kRocksDbBloomConfig's policies (DbConfigs::section_policies) holding
// prefixes, then holding whole keys and prefixes.
std::vector<PrefixConfig> PrefixConfigs(const DbConfigs& configs);

struct PrefixResult {
  DbResult built;  // the seek figures are below
  PrefixFilter holds = PrefixFilter::kNone;
  // Seeks to absent prefixes; data reads are BLOCK_CACHE_DATA_MISS per seek.
  // Seeks do not fill the block cache (fill_cache = false), as the point
  // lookups, so each data block a seek needs is read.
  ProbeFigures absent;
  // Per seek, from RocksDB's tickers: tables whose filter was asked for the
  // prefix, and that answered "no" (BLOOM_FILTER_PREFIX_CHECKED and _USEFUL
  // in RocksDB 7.8; *_LEVEL_SEEK_FILTERED and _FILTER_MATCH in RocksDB 9).
  double prefix_checked = 0;
  double prefix_useful = 0;
};

// Builds a database per configuration (shape.keys keys), checks that seeks to
// a sample of present prefixes find exactly their keys, and times
// shape.reps repetitions of shape.lookups seeks to absent prefixes, a fresh
// iterator each (as RocksDB's own db_bench seeks by default), every database
// in turn. Any error (a build, a present prefix's keys not found, a key found
// under an absent prefix) stops it.
absl::StatusOr<std::vector<PrefixResult>> RunPrefixSection(
    const std::vector<PrefixConfig>& configs, const DbShape& shape,
    const Progress& progress);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_PREFIX_SECTION_H_
