// Range filters inside RocksDB (7.8.3, 9.7.4): short scans skip the tables none
// of whose keys fall in the scanned range.
//
// Write side: a table-properties collector builds a range filter
// (filter/range/range_filter.h) from every user key RocksDB writes into each
// table, by flush or compaction or SstFileWriter, and stores it in the table's
// user properties under RangeFilterKey(format name) (table/range_filter_key.h),
// where TableFilter and sst_probe also find it. Read side: a
// ReadOptions::table_filter, which RocksDB consults with a table's properties
// before an iterator reads the table (TableCache::NewIterator, for the tables
// of every level), answers false only when the table's range filter rules out
// the scan's [iterate_lower_bound, iterate_upper_bound).
//
// Where RocksDB does not ask it: Get, MultiGet and compactions read
// every table they would read anyway. It asks after opening the table
// (which reads at least its footer, metaindex and properties blocks), so a
// skipped table saves its data-block reads but not its open, which costs
// reads only when max_open_files keeps the table out of the table cache.
// Tailing iterators ask it as ordinary ones do.
//
// Example:
//
//   absl::StatusOr<std::shared_ptr<rocksdb::TablePropertiesCollectorFactory>>
//       collector = sstfilter::NewRangeFilterCollectorFactory(
//           sstfilter::FilterOptions::BitsPerKey(16));
//   if (!collector.ok()) return collector.status();
//   options.table_properties_collector_factories.push_back(*collector);
//   ...
//   sstfilter::RangeScan scan("user0100", "user0200");  // [lower, upper)
//   std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(scan.options()));
//   for (it->Seek(scan.lower()); it->Valid(); it->Next()) { ... }
//
// Correctness: every entry's user key goes into the filter, tombstones and
// merge operands included, so a skipped table holds nothing in the range; and
// RocksDB still applies a skipped table's range deletions (DeleteRange), so
// skipping never brings back a deleted key. Keys are seen through their first
// 8 bytes (filter/range/range_key.h). A table without a range filter, with one
// of a format this library does not read, or whose filter fails its CRC32C is
// read. An iterator made with these options must stay within its bounds (as
// RocksDB requires of iterate_lower_bound and iterate_upper_bound): a Seek
// outside them may miss tables that were skipped.
//
// Cost: the collector keeps 8 bytes per entry until the table is finished.
// A scan's filter asks each table's range filter once, when the iterator
// first reaches the table, and never again for that scan; half of that
// call is the filter's own query (rocksdb_range_filter_benchmark times it;
// docs/range_filter.md gives the figures). A version-2 filter's CRC is
// verified the first time a process sees each table (db_session_id and
// orig_file_number name it), not on every scan, since a pass over the
// filter's bytes costs more than the query; a table without a db_session_id
// (none that RocksDB writes) is verified on every call.

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
absl::StatusOr<std::shared_ptr<rocksdb::TablePropertiesCollectorFactory>>
NewRangeFilterCollectorFactory(const FilterOptions& options);

// False only if properties hold a range filter that rules out every key k
// with lower <= k < upper.
bool TableMayHoldRange(const rocksdb::TableProperties& properties,
                       absl::string_view lower, absl::string_view upper);

// How many tables a process remembers as verified (see "Cost" above); when
// the memory is full it is cleared, and each table is verified again.
constexpr size_t kMaxVerifiedRangeFilterTables = size_t{1} << 16;

// A table_filter for the scan [lower, upper): TableMayHoldRange over copies
// of the bounds. Set the same bounds as the ReadOptions' iterate bounds.
std::function<bool(const rocksdb::TableProperties&)> RangeTableFilter(
    std::string lower, std::string upper);

// ReadOptions for one scan of [lower, upper): base's settings with the two
// iterate bounds and the table filter set. Owns the bounds the options point
// to, so it must outlive every iterator made with them; not copyable.
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
