// db_bench's output for the point section: a text table (and the comparisons
// the README quotes), or one JSON object per configuration and tree for
// scripts. Neither prints anything for no results.

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
