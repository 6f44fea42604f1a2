// Timing helpers shared by sstfilter's benchmarks: clocks, the cost of reading
// one, a sink that keeps timed loops from being optimised away, and medians.

#ifndef SSTFILTER_BENCH_TIMING_H_
#define SSTFILTER_BENCH_TIMING_H_

#include <chrono>
#include <cstdint>
#include <limits>
#include <vector>

namespace sstfilter {
namespace bench {

constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN();

using Clock = std::chrono::steady_clock;
double NanosSince(Clock::time_point start);
// This thread's CPU time (user and system), in ns.
double ThreadCpuNanos();
// The cost of timing an empty region with Clock, subtracted from each block.
double TimerOverheadNanos();
// Defeats dead-code elimination of timed loops.
void KeepResult(uint64_t checksum);
// The median of the non-NaN values (NaN when there are none).
double Median(std::vector<double> values);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_TIMING_H_
