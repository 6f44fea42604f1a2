// db_bench's range-scan section: fresh iterators over short ranges that hold
// no key (kScanCodes key codes above a fresh absent key), in two databases
// of the same keys, each one sorted run in the last level: one without range
// filters, one with sstfilter's range filter in every table, scanned with
// RangeScan's table_filter. Scans that find a key show what the table_filter
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
// Codes per scanned range.
constexpr uint64_t kScanCodes = 16;
// The range filter's budget.
constexpr double kRangeFilterBitsPerKey = 16;

// kNoFilterConfig and the range filter's spec, "grafite:16".
std::vector<std::string> RangeConfigNames();

struct RangeResult {
  DbResult built;  // the scan figures are below
  bool range_filter = false;
  // Bits per key of the tables' range filters (0 without).
  double range_bits_per_key = 0;
  // Scans of empty ranges; data reads are BLOCK_CACHE_DATA_MISS per scan.
  // Scans do not fill the block cache (fill_cache = false), so each data
  // block a scan needs is read.
  ProbeFigures empty;
  // Scans from present keys, each of which finds its key.
  LookupFigures nonempty;
};

// Builds each chosen configuration's database (shape.keys keys), checks that
// scans around a sample of present keys find them, and times shape.reps
// repetitions of shape.lookups scans of empty ranges, then as many of
// non-empty ones, against each database in turn. Any error (a build, a present
// key not found, a key found in an empty range) stops it.
// inject_false_negative: the range filters are built from no keys
// (no_match_range_collector.h), so the check of present keys must fail.
absl::StatusOr<std::vector<RangeResult>> RunRangeSection(
    const std::vector<std::string>& configs, bool inject_false_negative,
    const DbShape& shape, const Progress& progress);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_RANGE_SECTION_H_
