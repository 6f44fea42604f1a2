// db_bench's output for the partitioned-filter and prefix-seek sections: a
// text table per section with the comparisons the README quotes, or one JSON
// object per configuration (with "section" naming the section).

#ifndef SSTFILTER_BENCH_DB_SECTION_REPORT_H_
#define SSTFILTER_BENCH_DB_SECTION_REPORT_H_

#include <ostream>
#include <vector>

#include "bench/db/db_store.h"
#include "bench/db/partitioned_section.h"
#include "bench/db/prefix_section.h"
#include "bench/db/range_section.h"

namespace sstfilter {
namespace bench {

// shape: the section's keys, lookups per repetition and repetitions.
void PrintPartitionedTable(const DbShape& shape,
                           const std::vector<PartitionedResult>& results,
                           std::ostream& out);
void PrintPartitionedJson(const DbShape& shape,
                          const std::vector<PartitionedResult>& results,
                          std::ostream& out);
void PrintPrefixTable(const DbShape& shape,
                      const std::vector<PrefixResult>& results,
                      std::ostream& out);
void PrintPrefixJson(const DbShape& shape,
                     const std::vector<PrefixResult>& results,
                     std::ostream& out);
void PrintRangeTable(const DbShape& shape,
                     const std::vector<RangeResult>& results,
                     std::ostream& out);
void PrintRangeJson(const DbShape& shape,
                    const std::vector<RangeResult>& results, std::ostream& out);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_SECTION_REPORT_H_
