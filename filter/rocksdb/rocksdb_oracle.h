// RocksDB itself (7.8.3, or 9.7.4 under --config=rocksdb9), in the same
// process, as the oracle for the tests of filter/rocksdb/: filters built by
// RocksDB's own builders and queried by its own readers, driven as its
// block-based table builder drives them
// (FilterPolicy::GetBuilderWithContext(FilterBuildingContext(table_options)),
// FilterBitsBuilder::AddKey/Finish, GetFilterBitsReader, MayMatch single and
// batched), through the declarations of rocksdb_filter_bits.h.

#ifndef SSTFILTER_FILTER_ROCKSDB_ROCKSDB_ORACLE_H_
#define SSTFILTER_FILTER_ROCKSDB_ROCKSDB_ORACLE_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "filter/rocksdb/rocksdb_filter_bits.h"

namespace ROCKSDB_NAMESPACE {
struct BlockBasedTableOptions;
}  // namespace ROCKSDB_NAMESPACE

namespace sstfilter {
namespace test {

// Which of RocksDB's builders to drive.
enum class RocksDbBuilderKind {
  kFastLocalBloom,  // NewBloomFilterPolicy, format_version 5
  kLegacyBloom,     // NewBloomFilterPolicy, format_version 4
  kRibbon,          // NewRibbonFilterPolicy(bits, -1): Ribbon at every level
};

// RocksDB 9's builders return no bytes for no keys (FinishAlwaysFalse in
// table/block_based/filter_policy.cc at v9.7.4); RocksDB 7.8.3's return the
// 5-byte trailer of an empty filter, as sstfilter's do (RocksDB writes no
// filter block for a table without keys either way). Both match nothing.
constexpr bool kRocksDbBuildsNothingForNoKeys = ROCKSDB_MAJOR >= 9;

// How RocksDB sizes a filter: exactly from bits/key, or rounded to what the
// allocator hands out (BlockBasedTableOptions::optimize_filters_for_memory,
// the default since RocksDB 9.2), where a policy keeps a balance of rates
// above and below its target across the filters it builds, so sizes depend
// on malloc_usable_size and on the filters built before.
enum class RocksDbFilterSizing { kExact, kOptimizeForMemory };

// One RocksDB filter policy building filter after filter, as the table
// builders of one column family do.
class RocksDbFilterSeries {
 public:
  RocksDbFilterSeries(RocksDbBuilderKind kind, double bits_per_key,
                      RocksDbFilterSizing sizing);
  ~RocksDbFilterSeries();

  // The filter RocksDB builds for keys.
  std::string Build(const std::vector<std::string>& keys);

 private:
  std::unique_ptr<rocksdb::BlockBasedTableOptions> options_;
};

// The filter RocksDB builds for keys, from a policy of its own (sized
// exactly).
std::string RocksDbBuildFilter(RocksDbBuilderKind kind, double bits_per_key,
                               const std::vector<std::string>& keys);

// RocksDB's reader of one filter (BuiltinFilterPolicy::GetFilterBitsReader).
// REQUIRES: filter outlives the reader.
class RocksDbOracleReader {
 public:
  explicit RocksDbOracleReader(absl::string_view filter);

  bool MayMatch(absl::string_view key) const;
  // RocksDB's batched MayMatch, in batches of at most 32 keys (MultiGet's).
  // REQUIRES: results points to keys.size() writable bools.
  void MayMatch(const std::vector<absl::string_view>& keys,
                bool* results) const;

 private:
  std::unique_ptr<rocksdb::FilterBitsReader> reader_;
};

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ROCKSDB_ROCKSDB_ORACLE_H_
