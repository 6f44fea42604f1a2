// A table's range filter (filter/range/range_filter.h): the meta block a table
// writer adds, named RangeFilterKey(format name) (table/range_filter_key.h),
// and the filter a reader finds there (or in a RocksDB table's user property
// of that name). One whose format this library does not read, or whose bytes
// fail the format's own check, is never asked: every range may match.
//
//   RangeFilterBlockBuilder builder = ...New(*range_policy);
//   for (each key of the table, in order) builder->AddKey(key);
//   table->AddMetaBlock(builder->block_name(), WriteBlock(builder->Finish()));

#ifndef SSTFILTER_TABLE_RANGE_FILTER_BLOCK_H_
#define SSTFILTER_TABLE_RANGE_FILTER_BLOCK_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "filter/filter_policy.h"
#include "filter/range/range_filter.h"
#include "table/filter_block.h"
#include "table/format.h"
#include "table/meta_blocks.h"

namespace sstfilter {

// Builds a range filter block. The sequence of calls must match the regexp
//   AddKey* Finish
// AddKey is given the table's user keys in order.
// REQUIRES: policy outlives the builder.
class RangeFilterBlockBuilder {
 public:
  // InvalidArgumentError when policy's format is not a range filter's.
  static absl::StatusOr<std::unique_ptr<RangeFilterBlockBuilder>> New(
      const FilterPolicy& policy);

  void AddKey(absl::string_view key) { keys_.AddKey(key); }
  // The metaindex name of the block: RangeFilterKey(policy.Name()).
  const std::string& block_name() const { return name_; }
  // Returns the block contents.
  std::string Finish() { return keys_.Finish(); }

 private:
  explicit RangeFilterBlockBuilder(const FilterPolicy& policy);

  const std::string name_;
  // A full filter block of whole keys is exactly the filter of the keys.
  FullFilterBlockBuilder keys_;
};

enum class RangeFilterSource {
  kMetaBlock,  // a meta block named in the metaindex
  kProperty,   // a RocksDB user-collected property
};
// "meta block" or "property".
const char* RangeFilterSourceName(RangeFilterSource source);

// Where a table keeps its range filter, and what the filter says about itself.
struct RangeFilterInfo {
  std::string format_name;  // the key without kRangeFilterKeyPrefix
  RangeFilterSource source = RangeFilterSource::kMetaBlock;
  BlockHandle handle;       // kMetaBlock only
  size_t filter_bytes = 0;  // the filter, trailer excluded
  // From a filter that was read and verified (0 otherwise): distinct key
  // codes (range_key.h), filter bits per code, and the longest range, in
  // codes, the filter can rule out.
  uint64_t num_codes = 0;
  double bits_per_key = 0;
  uint64_t max_range_length = 0;
  // RangeFppBound(1): a range of l codes matches wrongly with probability at
  // most l times this.
  double fpp_bound_per_code = 0;
  // Why every range may match, when the filter is present but unused (a
  // format not read, or a corruption).
  std::string note;
};

// The first metaindex entry that names a range filter, or nullopt.
std::optional<RangeFilterInfo> FindRangeFilterBlock(const MetaIndex& meta);

// The first user property in uncompressed, verified properties contents that
// holds a range filter: its location (source kProperty) and *filter, the
// property's value. nullopt when there is none or the block does not parse
// (ParseProperties reports that).
std::optional<RangeFilterInfo> FindRangeFilterProperty(
    absl::string_view properties, std::string* filter);

// A table's range filter as read, its bytes kept. Never fails: a format that
// is not a range filter's leaves no reader and a note; bytes that fail the
// format's own check (the CRC32C of format version 2) leave no reader
// and a Corruption(). Without a reader every range may match. Immutable and
// thread-safe.
class RangeFilterBlock {
 public:
  // info: where filter was found; its other fields are filled here.
  RangeFilterBlock(RangeFilterInfo info, std::string filter);

  // False only if no key k of the table has lo <= k <= hi (bytewise).
  bool RangeMayMatch(absl::string_view lo, absl::string_view hi) const {
    return reader_ == nullptr || reader_->RangeMayMatch(lo, hi);
  }
  // False only if no key k has lo <= k < hi_exclusive.
  bool RangeMayMatchBefore(absl::string_view lo,
                           absl::string_view hi_exclusive) const {
    return reader_ == nullptr || reader_->RangeMayMatchBefore(lo, hi_exclusive);
  }

  const RangeFilterInfo& info() const { return info_; }
  // The reader, or nullptr when every range may match.
  const RangeFilterReader* reader() const { return reader_.get(); }
  // OK, or the DataLossError of a filter that failed its format's check.
  const absl::Status& Corruption() const { return corruption_; }

 private:
  RangeFilterInfo info_;
  const std::string filter_;
  std::unique_ptr<RangeFilterReader> reader_;
  absl::Status corruption_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_RANGE_FILTER_BLOCK_H_
