// Prints filter_bench's results: a table for people (grouped by case, ratios
// against RocksDB's FastLocalBloom in their own columns) or one JSON object per
// row for scripts.

#ifndef SSTFILTER_BENCH_REPORT_H_
#define SSTFILTER_BENCH_REPORT_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "bench/harness.h"
#include "bench/machine.h"

namespace sstfilter {
namespace bench {

// 10^k or m*10^k for round numbers from 1000, else the number.
std::string CountText(uint64_t n);

// "peers: LevelDB 1.23, RocksDB 7.8.3", from the headers compiled against.
std::string PeerVersions();

void PrintTable(const std::vector<Row>& rows, std::ostream& out);

// One object per line; NaN (not measured, e.g. no batch API) is null.
void PrintJson(const std::vector<Row>& rows, std::ostream& out);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_REPORT_H_
