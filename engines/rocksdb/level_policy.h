// The rocksdb::FilterPolicy that the per-level policies share: each table is
// built by the policy of the level RocksDB writes it to, and every table is
// read by one reader (the levels' filters share a format).
//
// Which policy a table gets, from RocksDB's FilterBuildingContext
// (7.8.3, 9.7.4):
//  - a flush (reason kFlush) writes L0: levels[0];
//  - level_at_creation i under kCompactionStyleLevel: levels[i], or the last
//    level's for i at or past levels.size();
//  - level_at_creation -1 (SstFileWriter, a file not yet placed) and the
//    universal and FIFO styles, whose levels are not a leveled tree's runs:
//    unknown_level.
// A null policy builds no filter (GetBuilderWithContext returns null, which
// RocksDB takes as "no filter" for that table).

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
