// A table's filter block: the filters of one table, on top of any
// FilterPolicy, in the two layouts LevelDB and RocksDB write. A full filter
// block (RocksDB's "fullfilter.") is exactly the policy's filter of every key;
// a per-2 KB block (LevelDB's "filter.") holds one filter for the data blocks
// that start in each 2^base_lg-byte range of file offsets, then an array of
// their offsets. table/table_format.md draws both layouts.

#ifndef SSTFILTER_TABLE_FILTER_BLOCK_H_
#define SSTFILTER_TABLE_FILTER_BLOCK_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "filter/filter_format.h"
#include "filter/filter_policy.h"
#include "table/filter_keys.h"

namespace sstfilter {

// LevelDB's base_lg: a new filter every 2^11 = 2,048 bytes of data-block
// offsets.
constexpr int kLevelDbFilterBaseLg = 11;

// Builds a full filter block. The sequence of calls must match the regexp
//   AddKey* Finish
// AddKey is given the table's user keys in order.
// REQUIRES: policy outlives the builder.
class FullFilterBlockBuilder {
 public:
  // A filter of whole keys.
  explicit FullFilterBlockBuilder(const FilterPolicy& policy)
      : FullFilterBlockBuilder(policy, FilterBlockOptions()) {}
  // What options.keys says (table/filter_keys.h). InvalidArgumentError for
  // invalid options.
  static absl::StatusOr<std::unique_ptr<FullFilterBlockBuilder>> New(
      const FilterPolicy& policy, const FilterBlockOptions& options);

  void AddKey(absl::string_view key) { adder_.Add(key, builder_.get()); }
  // Returns the block contents.
  std::string Finish();

 private:
  FullFilterBlockBuilder(const FilterPolicy& policy,
                         const FilterBlockOptions& options)
      : adder_(options), builder_(policy.NewBuilder()) {}

  FilterKeyAdder adder_;
  std::unique_ptr<FilterBuilder> builder_;
};

// Builds a per-2 KB filter block. The sequence of calls must match the regexp
//   (StartBlock AddKey*)* Finish
// StartBlock is given the file offset of each data block as the table
// builder starts it, in increasing order; AddKey the keys of that block.
// To write the bytes LevelDB's TableBuilder writes, end with one more
// StartBlock given the offset where the data blocks end.
// REQUIRES: policy outlives the builder.
class LevelDbFilterBlockBuilder {
 public:
  explicit LevelDbFilterBlockBuilder(const FilterPolicy& policy)
      : builder_(policy.NewBuilder()) {}

  // REQUIRES: data_block_offset >= every offset given before.
  void StartBlock(uint64_t data_block_offset);
  void AddKey(absl::string_view key) { builder_->AddKey(key); }
  // Returns the block contents.
  std::string Finish();

 private:
  // Ends the current filter: the keys added since the last one.
  void GenerateFilter();

  std::unique_ptr<FilterBuilder> builder_;
  std::string result_;                    // the filters so far
  std::vector<uint32_t> filter_offsets_;  // where each filter starts
};

// Answers queries against one filter block. Readers parse the block once and
// never read outside it: any bytes give a safe answer.
// REQUIRES: the block contents and the format outlive the reader.
class FilterBlockReader {
 public:
  virtual ~FilterBlockReader() = default;

  // False only if key is certainly not in the table. data_block_offset: the
  // offset of the data block that would hold key, from the table's index
  // (ignored when NeedsDataBlockOffset() is false).
  virtual bool KeyMayMatch(absl::string_view key,
                           uint64_t data_block_offset) const = 0;
  virtual bool NeedsDataBlockOffset() const = 0;

  // Number of filters in the block (0 for a malformed per-2 KB block).
  virtual size_t NumFilters() const = 0;
  // The bytes of filter i. REQUIRES: i < NumFilters().
  virtual absl::string_view Filter(size_t i) const = 0;
  // The format's ExpectedFpp of each non-empty filter, weighted by its size
  // in bytes (a proxy for its share of the keys); 1 for a malformed block, 0
  // when every filter is empty.
  virtual double ExpectedFpp() const = 0;

  // A DataLossError when the block's structure is inconsistent or a filter in
  // it failed its own checksum (the reader then answers "may match" where the
  // damage could have given a wrong "no"); OkStatus otherwise.
  virtual absl::Status Corruption() const { return absl::OkStatus(); }
};

std::unique_ptr<FilterBlockReader> NewFullFilterBlockReader(
    const FilterFormat& format, absl::string_view contents);

// LevelDB's reader rules: a block under 5 bytes or whose offset array does not
// fit matches everything (LevelDB treats errors as potential matches); a
// data_block_offset past the last filter, or a filter whose bounds are
// inconsistent, matches; an empty filter matches nothing (its range holds no
// keys). Stricter than LevelDB, since a damaged byte of the block's own
// structure can send a key to another range's filter (or to an empty one,
// which LevelDB answers "no" without asking the policy): a base_lg other than
// the 11 LevelDB writes, or offsets that do not start at 0 and never
// decrease, make the whole block match everything, with a Corruption().
std::unique_ptr<FilterBlockReader> NewLevelDbFilterBlockReader(
    const FilterFormat& format, absl::string_view contents);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_FILTER_BLOCK_H_
