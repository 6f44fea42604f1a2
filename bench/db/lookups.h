// Timing point lookups the same way in every store: fresh keys for every
// repetition (never a small repeated set, which the branch predictor and the
// caches would learn), the same keys for every configuration, and the data
// blocks read counted by the store's own counter.

#ifndef SSTFILTER_BENCH_DB_LOOKUPS_H_
#define SSTFILTER_BENCH_DB_LOOKUPS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "bench/db/db_store.h"

namespace sstfilter {
namespace bench {

enum class LookupKind {
  kAbsent,   // keys never written
  kPresent,  // keys drawn uniformly from the written ones
};

// Looks a key up; returns whether it was found.
using LookupFn = std::function<bool(absl::string_view key)>;
// The store's running count of data blocks read from table files.
using ReadCounterFn = std::function<uint64_t()>;

// Runs shape.reps repetitions of shape.lookups lookups of kind, after a
// warm-up of lookups from a separate range of keys, and returns the median
// repetition's rates with the totals.
LookupFigures TimeLookups(LookupKind kind, const DbShape& shape,
                          const LookupFn& lookup,
                          const ReadCounterFn& data_reads);

// The median of values (the lower middle for an even count). REQUIRES: not
// empty.
double Median(std::vector<double> values);

// "3 4 12 41": files in each level from L0.
std::string FormatLevels(const std::vector<int>& files_per_level);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_LOOKUPS_H_
