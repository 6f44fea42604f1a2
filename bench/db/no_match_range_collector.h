// db_bench --inject_false_negative for the range section: a table-properties
// collector factory whose collectors are another's shown no keys, so every
// table's range filter is the filter of an empty table and rules out every
// range; the section's check of present keys is seen to stop a run
// (db_bench_test.sh). Never measured.

#ifndef SSTFILTER_BENCH_DB_NO_MATCH_RANGE_COLLECTOR_H_
#define SSTFILTER_BENCH_DB_NO_MATCH_RANGE_COLLECTOR_H_

#include <memory>

#include "rocksdb/table_properties.h"

namespace sstfilter {
namespace bench {

// inner's names and collectors, which see no key. REQUIRES: inner is not
// null.
std::shared_ptr<rocksdb::TablePropertiesCollectorFactory>
NewNoMatchRangeCollectorFactory(
    std::shared_ptr<rocksdb::TablePropertiesCollectorFactory> inner);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_NO_MATCH_RANGE_COLLECTOR_H_
