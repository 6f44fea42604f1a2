// Tests of the RocksDB policies: builds a filter of keys as RocksDB 7.8.3
// does for a table with a given FilterBuildingContext.

#ifndef SSTFILTER_ENGINES_ROCKSDB_BUILD_IN_CONTEXT_H_
#define SSTFILTER_ENGINES_ROCKSDB_BUILD_IN_CONTEXT_H_

#include <string>
#include <vector>

#include "rocksdb/advanced_options.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/table_properties.h"

namespace sstfilter {
namespace test {

struct Built {
  bool has_filter = false;  // false: the policy gave no builder
  std::string filter;
};

// The filter policy builds for keys in a table written at level (-1:
// unknown) under style, for reason.
Built BuildAt(const rocksdb::FilterPolicy& policy, int level,
              const std::vector<std::string>& keys,
              rocksdb::CompactionStyle style = rocksdb::kCompactionStyleLevel,
              rocksdb::TableFileCreationReason reason =
                  rocksdb::TableFileCreationReason::kCompaction);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_BUILD_IN_CONTEXT_H_
