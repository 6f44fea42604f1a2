// RocksDB 7.8.3 itself, in the same process, as the oracle for the tests of
// filter/rocksdb/: filters built by RocksDB's own builders and queried by its
// own readers, driven as its block-based table builder drives them
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

namespace sstfilter {
namespace test {

// Which of RocksDB's builders to drive.
enum class RocksDbBuilderKind {
  kFastLocalBloom,  // NewBloomFilterPolicy, format_version 5
  kLegacyBloom,     // NewBloomFilterPolicy, format_version 4
  kRibbon,          // NewRibbonFilterPolicy(bits, -1): Ribbon at every level
};

// The filter RocksDB builds for keys, with optimize_filters_for_memory = false.
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
