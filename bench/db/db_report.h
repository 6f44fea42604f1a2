// db_bench's output: a text table (and the comparisons the README quotes), or
// one JSON object per configuration for scripts.

#ifndef SSTFILTER_BENCH_DB_DB_REPORT_H_
#define SSTFILTER_BENCH_DB_DB_REPORT_H_

#include <ostream>
#include <vector>

#include "bench/db/db_store.h"

namespace sstfilter {
namespace bench {

void PrintTable(const DbShape& shape, const std::vector<DbResult>& results,
                std::ostream& out);
void PrintJson(const DbShape& shape, const std::vector<DbResult>& results,
               std::ostream& out);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_DB_REPORT_H_
