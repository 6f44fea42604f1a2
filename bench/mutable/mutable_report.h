// mutable_bench's output: a text table with the ratios the README quotes, or
// one JSON object per key count.

#ifndef SSTFILTER_BENCH_MUTABLE_MUTABLE_REPORT_H_
#define SSTFILTER_BENCH_MUTABLE_MUTABLE_REPORT_H_

#include <ostream>
#include <vector>

#include "bench/mutable/mutable_bench.h"

namespace sstfilter {
namespace bench {

// Targets the ratios are reported against (never asserted: timing on a shared
// machine is not a test).
constexpr double kQueryRatioTarget = 1.2;  // mutable / immutable query
constexpr double kAddRatioTarget = 1.5;    // mutable add / immutable build

void PrintMutableTable(const std::vector<SizeResult>& results,
                       std::ostream& out);
void PrintMutableJson(const std::vector<SizeResult>& results,
                      std::ostream& out);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_MUTABLE_MUTABLE_REPORT_H_
