#include "table/range_filter_block.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "filter/filter_format.h"
#include "filter/format_registry.h"
#include "table/block.h"
#include "table/range_filter_key.h"

namespace sstfilter {

absl::StatusOr<std::unique_ptr<RangeFilterBlockBuilder>>
RangeFilterBlockBuilder::New(const FilterPolicy& policy) {
  if (!IsRangeFilterFormat(policy.Name())) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", policy.Name(), "' is not a range filter's format"));
  }
  return std::unique_ptr<RangeFilterBlockBuilder>(
      new RangeFilterBlockBuilder(policy));
}

RangeFilterBlockBuilder::RangeFilterBlockBuilder(const FilterPolicy& policy)
    : name_(RangeFilterKey(policy.Name())), keys_(policy) {}

const char* RangeFilterSourceName(RangeFilterSource source) {
  switch (source) {
    case RangeFilterSource::kMetaBlock:
      return "meta block";
    case RangeFilterSource::kProperty:
      return "property";
  }
  return "?";
}

namespace {

// The range filter a metaindex entry or property of this name holds, if any.
std::optional<RangeFilterInfo> InfoFromKey(absl::string_view key,
                                           RangeFilterSource source) {
  const absl::string_view format = RangeFilterFormatName(key);
  if (format.empty()) return std::nullopt;
  RangeFilterInfo info;
  info.format_name = std::string(format);
  info.source = source;
  return info;
}

}  // namespace

// In both blocks names are sorted, and those with the prefix sort first at
// the first name not before the prefix itself.
std::optional<RangeFilterInfo> FindRangeFilterBlock(const MetaIndex& meta) {
  const auto it = meta.blocks.lower_bound(std::string(kRangeFilterKeyPrefix));
  if (it == meta.blocks.end()) return std::nullopt;
  std::optional<RangeFilterInfo> info =
      InfoFromKey(it->first, RangeFilterSource::kMetaBlock);
  if (info.has_value()) info->handle = it->second;
  return info;
}

std::optional<RangeFilterInfo> FindRangeFilterProperty(
    absl::string_view properties, std::string* filter) {
  absl::StatusOr<Block> block = Block::Parse(properties);
  if (!block.ok()) return std::nullopt;
  BlockIterator it(*block);
  it.Seek(kRangeFilterKeyPrefix, BytewiseCompare);
  if (!it.Valid()) return std::nullopt;
  std::optional<RangeFilterInfo> info =
      InfoFromKey(it.key(), RangeFilterSource::kProperty);
  if (info.has_value()) *filter = std::string(it.value());
  return info;
}

RangeFilterBlock::RangeFilterBlock(RangeFilterInfo info, std::string filter)
    : info_(std::move(info)), filter_(std::move(filter)) {
  info_.filter_bytes = filter_.size();
  const FilterFormat* format = FindFilterFormat(info_.format_name);
  if (format == nullptr || !IsRangeFilterFormat(info_.format_name)) {
    info_.note = absl::StrCat("range filter '", info_.format_name,
                              "' is not one sstfilter reads: every range "
                              "may match");
    return;
  }
  // The name says which check the bytes must pass (a version-2 filter's
  // CRC32C); the reader alone would read unchecked bytes as version 1.
  corruption_ = format->Verify(filter_);
  std::unique_ptr<RangeFilterReader> reader = NewRangeFilterReader(filter_);
  if (corruption_.ok()) corruption_ = reader->Corruption();
  if (!corruption_.ok()) {
    corruption_ = absl::DataLossError(
        absl::StrCat("range filter: ", corruption_.message()));
    info_.note = std::string(corruption_.message());
    return;
  }
  reader_ = std::move(reader);
  info_.num_codes = reader_->num_codes();
  info_.max_range_length = reader_->max_range_length();
  info_.fpp_bound_per_code = reader_->RangeFppBound(1);
  if (info_.num_codes > 0) {
    info_.bits_per_key = 8.0 * static_cast<double>(filter_.size()) /
                         static_cast<double>(info_.num_codes);
  }
}

}  // namespace sstfilter
