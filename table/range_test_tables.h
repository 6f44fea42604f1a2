// Tables that carry a range filter, for the tests of TableFilter's and
// sst_probe's range questions: one laid out by our table layer (a meta block,
// table/range_filter_block.h) and one written by the real RocksDB 7.8.3 with
// the filter in a user property, as a properties collector stores it.

#ifndef SSTFILTER_TABLE_RANGE_TEST_TABLES_H_
#define SSTFILTER_TABLE_RANGE_TEST_TABLES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "filter/filter_policy.h"

namespace sstfilter {
namespace test {

// The order-preserving code of a key (filter/range/range_key.h), written out
// independently as the tests' oracle: the big-endian value of its first 8
// bytes, zero-padded.
uint64_t CodeOf(absl::string_view key);

// Ranges of codes [first, last] that hold no code of keys (sorted): n of
// them, each of 1 to max_codes codes, half starting just after a key's code
// (the correlated ranges a scan asks; each key's at most once, then
// anywhere), half anywhere.
struct EmptyRange {
  uint64_t first;
  uint64_t last;
};
std::vector<EmptyRange> EmptyCodeRanges(const std::vector<std::string>& keys,
                                        size_t n, uint64_t max_codes,
                                        uint64_t seed);

// Keys of every shape a range filter must handle, sorted and distinct: short
// keys (1 to 7 bytes, so zero-padded codes), keys of 8 to 24 random bytes
// (zero and 0xff bytes included), and groups of keys longer than 8 bytes that
// share their first 8 (one code each group).
std::vector<std::string> MixedRangeKeys(size_t n, uint64_t seed);

// A table of keys (sorted, distinct) as our table layer writes it: data
// blocks stand in as filler, then a full point filter by point_policy (none
// when null), the range filter block by range_policy (none when null), the
// properties, metaindex, index and footer (TableAssembler).
std::string AssembleRangeTable(const std::vector<std::string>& keys,
                               const FilterPolicy* point_policy,
                               const FilterPolicy* range_policy);

// Writes keys (sorted, distinct) with rocksdb::SstFileWriter to path, with
// RocksDB's Bloom filter as the point filter and a properties collector that
// stores range_policy's filter of the keys in the user property
// RangeFilterKey(range_policy.Name()) (table/range_filter_key.h).
// filter_edit, when set, is applied to the filter bytes before they are
// stored (tests of damaged filters).
absl::Status WriteRocksDbRangeTable(
    const std::string& path, const std::vector<std::string>& keys,
    const FilterPolicy& range_policy,
    void (*filter_edit)(std::string* filter) = nullptr);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_RANGE_TEST_TABLES_H_
