#include "bench/db/db_configs.h"

#include <memory>

#include "absl/strings/str_format.h"
#include "leveldb/filter_policy.h"
#include "rocksdb/filter_policy.h"

namespace sstfilter {
namespace bench {
namespace {

// RocksDB's Ribbon is sized by the Bloom bits/key whose rate it should match,
// and stores about 30% less. This setting gives it about kDbBitsPerKey of
// memory (the table's bits/key column shows what it took).
constexpr double kRibbonBloomEquivalentBitsPerKey = 14;
// Ribbon at every level, flushes included (RocksDB's default, 0, writes Bloom
// filters in flushes).
constexpr int kRibbonAtEveryLevel = -1;

}  // namespace

absl::StatusOr<DbConfigs> MakeDbConfigs() {
  DbConfigs configs;
  configs.rocksdb.push_back(
      {"rocksdb.bloom",
       absl::StrFormat("rocksdb::NewBloomFilterPolicy(%g): FastLocalBloom",
                       kDbBitsPerKey),
       std::shared_ptr<const rocksdb::FilterPolicy>(
           rocksdb::NewBloomFilterPolicy(kDbBitsPerKey))});
  configs.rocksdb.push_back(
      {"rocksdb.ribbon",
       absl::StrFormat(
           "rocksdb::NewRibbonFilterPolicy(%g, %d): Standard128Ribbon",
           kRibbonBloomEquivalentBitsPerKey, kRibbonAtEveryLevel),
       std::shared_ptr<const rocksdb::FilterPolicy>(
           rocksdb::NewRibbonFilterPolicy(kRibbonBloomEquivalentBitsPerKey,
                                          kRibbonAtEveryLevel))});
  configs.leveldb.push_back(
      {"leveldb.bloom",
       absl::StrFormat("leveldb::NewBloomFilterPolicy(%g)", kDbBitsPerKey),
       std::unique_ptr<const leveldb::FilterPolicy>(
           leveldb::NewBloomFilterPolicy(static_cast<int>(kDbBitsPerKey)))});
  return configs;
}

}  // namespace bench
}  // namespace sstfilter
