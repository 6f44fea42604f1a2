#include "engines/testing/policy_tables.h"

#include <utility>

#include "engines/leveldb/leveldb_adapter.h"
#include "engines/rocksdb/rocksdb_adapter.h"
#include "leveldb/filter_policy.h"
#include "rocksdb/filter_policy.h"
#include "table/testing/real_tables.h"

namespace sstfilter {
namespace test {

absl::Status WriteRocksDbTableWith(std::shared_ptr<const FilterPolicy> policy,
                                   const std::string& path,
                                   const std::vector<std::string>& keys) {
  RocksDbTableOptions options;
  options.filter_policy = AsRocksDbFilterPolicy(std::move(policy));
  return WriteRocksDbTable(path, keys, options);
}

absl::Status WriteLevelDbTableWith(std::shared_ptr<const FilterPolicy> policy,
                                   const std::string& path,
                                   const std::vector<std::string>& keys) {
  const std::unique_ptr<leveldb::FilterPolicy> leveldb_policy =
      AsLevelDbFilterPolicy(std::move(policy));
  LevelDbTableOptions options;
  options.filter_policy = leveldb_policy.get();
  return WriteLevelDbTable(path, keys, options);
}

}  // namespace test
}  // namespace sstfilter
