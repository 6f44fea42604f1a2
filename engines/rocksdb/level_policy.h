// The rocksdb::FilterPolicy that the per-level policies share: each table is
// built by the policy of the level RocksDB writes it to (a flush: levels[0];
// level i under kCompactionStyleLevel: levels[i], the last for i past the
// end; level -1, universal and FIFO: unknown_level), and every table is read
// by one reader (the levels' filters share a format). A null policy builds
// no filter for that table. Where the level comes from: README.md.

#ifndef SSTFILTER_ENGINES_ROCKSDB_LEVEL_POLICY_H_
#define SSTFILTER_ENGINES_ROCKSDB_LEVEL_POLICY_H_

#include <memory>
#include <vector>

#include "rocksdb/filter_policy.h"

namespace sstfilter {

// REQUIRES: levels is not empty; reader is not null and reads the filters
// of every policy given.
std::shared_ptr<const rocksdb::FilterPolicy> NewLevelPolicy(
    std::vector<std::shared_ptr<const rocksdb::FilterPolicy>> levels,
    std::shared_ptr<const rocksdb::FilterPolicy> unknown_level,
    std::shared_ptr<const rocksdb::FilterPolicy> reader);

}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_LEVEL_POLICY_H_
