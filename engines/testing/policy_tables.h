// Real table files whose filters an sstfilter policy built: written by the
// real RocksDB and LevelDB through the adapters (engines/rocksdb/), for tests
// that read them back.

#ifndef SSTFILTER_ENGINES_TESTING_POLICY_TABLES_H_
#define SSTFILTER_ENGINES_TESTING_POLICY_TABLES_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "filter/filter_policy.h"

namespace sstfilter {
namespace test {

// Writes keys (sorted, distinct) to a RocksDB table at path with
// rocksdb::SstFileWriter, its full filter built by policy
// (AsRocksDbFilterPolicy).
absl::Status WriteRocksDbTableWith(std::shared_ptr<const FilterPolicy> policy,
                                   const std::string& path,
                                   const std::vector<std::string>& keys);

// Writes keys (sorted, distinct) to a LevelDB table at path with
// leveldb::TableBuilder, its per-2 KB filters built by policy
// (AsLevelDbFilterPolicy). The index holds the keys as given: read it with
// IndexKeys::kUser.
absl::Status WriteLevelDbTableWith(std::shared_ptr<const FilterPolicy> policy,
                                   const std::string& path,
                                   const std::vector<std::string>& keys);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_TESTING_POLICY_TABLES_H_
