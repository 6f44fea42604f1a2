// Draws FP rate against bits/key for every implementation, beside the
// theoretical curves of util/bloom_math.h, with gnuplot (pngcairo, or png when
// cairo is missing).

#ifndef SSTFILTER_BENCH_PLOT_H_
#define SSTFILTER_BENCH_PLOT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "bench/harness.h"

namespace sstfilter {
namespace bench {

// Writes the data and a gnuplot script to a scratch directory, runs gnuplot,
// checks that the PNG was written, and removes the scratch files. keys: the
// filter size the series were measured at (for the title).
absl::Status DrawFppPlot(const std::vector<FppSeries>& series, uint64_t keys,
                         const std::string& png_path);

// The gnuplot script DrawFppPlot runs.
std::string FppPlotScript(const std::vector<FppSeries>& series, uint64_t keys,
                          const std::string& data_path,
                          const std::string& png_path,
                          const std::string& terminal);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_PLOT_H_
