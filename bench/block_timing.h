// Times one repetition of a case for every implementation at once, block by
// block: each turn of query blocks is asked of every implementation in turn,
// each followed by its memory floor, the order rotated from turn to turn,
// and a figure is the median over blocks, so that all figures come from the
// same stretches of a shared machine's time. Why: filter_bench.md ("How it
// measures, and why").

#ifndef SSTFILTER_BENCH_BLOCK_TIMING_H_
#define SSTFILTER_BENCH_BLOCK_TIMING_H_

#include <cstddef>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bench/measure.h"
#include "bench/workload.h"

namespace sstfilter {
namespace bench {

// Times every figure of one repetition for all the runners, in turns of
// blocks, into *results[i] for runners[i]: the five query figures, the
// three memory floors and the false-positive rate (measure_speed = false: the
// false-positive rate only). *hash_floor_ns: XXH3-64 of each mixed query key
// alone, timed in the same blocks (kNotMeasured without measure_speed).
// interleaved: each runner's memory floor follows its own turn of queries, as
// where the filters and floors of every runner share the cache without
// noticing; otherwise the floors are timed after each figure's queries.
// Returns a DataLossError, and sets *failed to the runner's index, when a
// timed query of an added key did not match.
// REQUIRES: every runner Prepared for data; results.size() == runners.size().
absl::Status TimeRepetition(const CaseData& data,
                            const std::vector<ImplRunner*>& runners,
                            bool measure_speed, bool interleaved,
                            const std::vector<RepResult*>& results,
                            double* hash_floor_ns, size_t* failed);

// One repetition of one runner on its own: Prepare, TimeRepetition, Release.
absl::StatusOr<RepResult> RunRepetition(ImplRunner* runner,
                                        const CaseData& data,
                                        bool measure_speed);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_BLOCK_TIMING_H_
