// db_bench --inject_false_negative: a rocksdb::FilterPolicy that builds
// filters as another does and whose readers answer "no" for every key, so
// that the sections' checks of present keys and prefixes are seen to stop a
// run (db_bench_test.sh). Never measured.

#ifndef SSTFILTER_BENCH_DB_NO_MATCH_POLICY_H_
#define SSTFILTER_BENCH_DB_NO_MATCH_POLICY_H_

#include <memory>

#include "rocksdb/filter_policy.h"

namespace sstfilter {
namespace bench {

// inner's names and builders; a reader that matches nothing. REQUIRES: inner
// is not null.
std::shared_ptr<const rocksdb::FilterPolicy> NewNoMatchFilterPolicy(
    std::shared_ptr<const rocksdb::FilterPolicy> inner);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_NO_MATCH_POLICY_H_
