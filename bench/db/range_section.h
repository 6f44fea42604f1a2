// db_bench's range-scan section: for each key shape of util/key_shapes.h,
// fresh iterators over short ranges that hold no key, at the keys' last
// position, in databases of the same keys, each one sorted run: without
// filters, with RocksDB's Bloom filter over prefixes (auto_prefix_mode), with
// sstfilter's range filter of either key coding in every table (RangeScan),
// and RocksDB's prefix Bloom configuration behind PresenceFilteredDB's range
// items, in front of the whole database. Scans that find a key show what each
// costs where it cannot skip. The setup and figures: docs/range_filter.md.

#ifndef SSTFILTER_BENCH_DB_RANGE_SECTION_H_
#define SSTFILTER_BENCH_DB_RANGE_SECTION_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "bench/db/db_store.h"
#include "bench/db/section_probes.h"

namespace sstfilter {
namespace bench {

constexpr char kRangeSection[] = "range";
// Possible keys per scanned range.
constexpr uint64_t kScanWidth = 64;
// The range filter's budget.
constexpr double kRangeFilterBitsPerKey = 16;

// kNoFilterConfig, kRocksDbBloomConfig (over prefixes), and the range
// filter's specs: "grafite:16" and "grafite:16:codes=table".
std::vector<std::string> RangeConfigNames();

// What a database of the section is read through: RocksDB alone, or
// PresenceFilteredDB in front of it.
constexpr char kRocksDbAlone[] = "";
constexpr char kPresenceFront[] = "PresenceFilteredDB";
// The wrapper's filter: this rate, sized for the section's key count.
constexpr double kPresenceRangeFpp = 0.01;

struct RangeResult {
  DbResult built;     // the scan figures are below
  std::string shape;  // KeyShape::name
  std::string front = kRocksDbAlone;
  // Bits per key of the tables' range filters (0 without), or of the
  // wrapper's filter (its keys and range items).
  double range_bits_per_key = 0;
  // Scans of empty ranges just after a key (correlated) and anywhere
  // (uniform); data reads are BLOCK_CACHE_DATA_MISS per scan. Scans do not
  // fill the block cache (fill_cache = false), so each data block a scan
  // needs is read.
  ProbeFigures correlated;
  ProbeFigures uniform;
  // Scans from present keys, each of which finds its key.
  LookupFigures nonempty;
};

// For each key shape: builds each chosen configuration's database
// (shape.keys keys), checks that scans around a sample of present keys find
// them, and times shape.reps repetitions of shape.lookups scans of each kind
// against each database in turn. Any error (a build, a present key not found,
// a key found in an empty range) stops it. inject_false_negative: the range
// filters are built from no keys (no_match_range_collector.h), so the check
// of present keys must fail.
absl::StatusOr<std::vector<RangeResult>> RunRangeSection(
    const std::vector<std::string>& configs, bool inject_false_negative,
    const DbShape& shape, const Progress& progress);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_RANGE_SECTION_H_
