// Medians of repeated measurements, and the median of paired ratios that
// compares two things timed in turn.

#ifndef SSTFILTER_UTIL_MEDIANS_H_
#define SSTFILTER_UTIL_MEDIANS_H_

#include <vector>

namespace sstfilter {

// The middle of values, or the lower of the two middles for an even count: a
// figure one repetition measured, never a mean of two. 0 when values is empty.
double LowerMedian(std::vector<double> values);

// The median (LowerMedian) over repetitions of numerators[i] /
// denominators[i], for two things timed in turn within each repetition. Each
// pair ran seconds apart, so a change of the machine's speed between
// repetitions cancels in its ratio, as it does not in the ratio of two
// medians. 0 when the vectors differ in length, are empty, or hold a value
// that is not positive.
double MedianOfRatios(const std::vector<double>& numerators,
                      const std::vector<double>& denominators);

}  // namespace sstfilter

#endif  // SSTFILTER_UTIL_MEDIANS_H_
