// Range filters inside RocksDB: a table-properties collector stores a range
// filter of each table's user keys in its properties, and a
// ReadOptions::table_filter skips, for short scans, the tables none of whose
// keys fall in [iterate_lower_bound, iterate_upper_bound). Where RocksDB asks
// it, correctness and cost: README.md ("rocksdb_range_filter.h").
//
//   auto collector = sstfilter::NewRangeFilterCollectorFactory(
//       sstfilter::FilterOptions::BitsPerKey(16));  // for the DB options
//   sstfilter::RangeScan scan("user0100", "user0200");  // [lower, upper)
//   std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(scan.options()));

#ifndef SSTFILTER_ENGINES_ROCKSDB_ROCKSDB_RANGE_FILTER_H_
#define SSTFILTER_ENGINES_ROCKSDB_ROCKSDB_RANGE_FILTER_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "filter/range/range_filter.h"
#include "rocksdb/options.h"
#include "rocksdb/slice.h"
#include "rocksdb/table_properties.h"

namespace sstfilter {

// The collector factory for DB options' table_properties_collector_factories.
// InvalidArgumentError naming the value for invalid options (see
// NewGrafiteFilterPolicy).
// coding: how the filter sees keys (NewGrafiteFilterPolicy); kPerTable for
// keys that share a prefix or vary past their first 8 bytes.
absl::StatusOr<std::shared_ptr<rocksdb::TablePropertiesCollectorFactory>>
NewRangeFilterCollectorFactory(const FilterOptions& options,
                               RangeKeyCoding coding);
absl::StatusOr<std::shared_ptr<rocksdb::TablePropertiesCollectorFactory>>
NewRangeFilterCollectorFactory(const FilterOptions& options);  // kFirst8Bytes

// False only if properties hold a range filter that rules out every key k
// with lower <= k < upper.
bool TableMayHoldRange(const rocksdb::TableProperties& properties,
                       absl::string_view lower, absl::string_view upper);

// How many tables a process remembers as verified (a filter's CRC32C is
// checked the first time a process sees its table, README.md); when the
// memory is full it is cleared, and each table is verified again.
constexpr size_t kMaxVerifiedRangeFilterTables = size_t{1} << 16;
// How many tables' parsed filter readers a process keeps, so that a scan
// parses each table's filter (a keyed one's coders) once rather than per scan;
// when full they are dropped, and each is parsed again.
constexpr size_t kMaxCachedRangeFilterReaders = size_t{1} << 12;

// A table_filter for the scan [lower, upper): TableMayHoldRange over copies
// of the bounds. Set the same bounds as the ReadOptions' iterate bounds.
std::function<bool(const rocksdb::TableProperties&)> RangeTableFilter(
    std::string lower, std::string upper);

// ReadOptions for one scan of [lower, upper): base's settings with the two
// iterate bounds and the table filter set. Owns the bounds the options point
// to, so it must outlive every iterator made with them; not copyable. An
// iterator made with them must stay within the bounds: a Seek outside them
// may miss tables that were skipped.
class RangeScan {
 public:
  RangeScan(std::string lower, std::string upper,
            const rocksdb::ReadOptions& base = rocksdb::ReadOptions());
  RangeScan(const RangeScan&) = delete;
  RangeScan& operator=(const RangeScan&) = delete;

  const rocksdb::ReadOptions& options() const { return options_; }
  const std::string& lower() const { return lower_; }
  const std::string& upper() const { return upper_; }

 private:
  const std::string lower_;
  const std::string upper_;
  const rocksdb::Slice lower_slice_;
  const rocksdb::Slice upper_slice_;
  rocksdb::ReadOptions options_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_ROCKSDB_RANGE_FILTER_H_
