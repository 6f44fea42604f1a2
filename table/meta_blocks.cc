#include "table/meta_blocks.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "table/block.h"
#include "util/coding.h"

namespace sstfilter {
namespace {

// Property names (RocksDB 7.8.3 table/table_properties.cc and
// block_based_table_factory.cc).
constexpr char kNumEntries[] = "rocksdb.num.entries";
constexpr char kNumFilterEntries[] = "rocksdb.num.filter_entries";
constexpr char kFilterPolicy[] = "rocksdb.filter.policy";
constexpr char kComparator[] = "rocksdb.comparator";
constexpr char kIndexKeyIsUserKey[] = "rocksdb.index.key.is.user.key";
constexpr char kIndexValueIsDeltaEncoded[] =
    "rocksdb.index.value.is.delta.encoded";
constexpr char kPropertyTrue[] = "1";

std::optional<FilterLocation> FilterFromName(absl::string_view name,
                                             const BlockHandle& handle) {
  struct Prefix {
    const char* text;
    FilterLayout layout;
  };
  static constexpr Prefix kPrefixes[] = {
      {kLevelDbFilterPrefix, FilterLayout::kPerDataRange},
      {kFullFilterPrefix, FilterLayout::kFull},
      {kPartitionedFilterPrefix, FilterLayout::kPartitioned},
  };
  for (const Prefix& prefix : kPrefixes) {
    if (absl::StartsWith(name, prefix.text)) {
      FilterLocation location;
      location.layout = prefix.layout;
      location.policy_name = std::string(name.substr(strlen(prefix.text)));
      location.handle = handle;
      return location;
    }
  }
  return std::nullopt;
}

absl::Status DecodeVarintProperty(absl::string_view name,
                                  absl::string_view value,
                                  std::optional<uint64_t>* out) {
  uint64_t decoded = 0;
  if (!GetVarint64(&value, &decoded) || !value.empty()) {
    return absl::DataLossError(
        absl::StrCat("properties block: malformed value of ", name));
  }
  *out = decoded;
  return absl::OkStatus();
}

}  // namespace

const char* FilterLayoutName(FilterLayout layout) {
  switch (layout) {
    case FilterLayout::kPerDataRange:
      return "per-data-range";
    case FilterLayout::kFull:
      return "full";
    case FilterLayout::kPartitioned:
      return "partitioned";
  }
  return "?";
}

absl::StatusOr<MetaIndex> ParseMetaIndex(absl::string_view contents) {
  absl::StatusOr<Block> block = Block::Parse(contents);
  if (!block.ok()) {
    return absl::DataLossError(
        absl::StrCat("metaindex: ", block.status().message()));
  }
  MetaIndex meta;
  BlockIterator it(*block);
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    absl::string_view value = it.value();
    BlockHandle handle;
    if (!DecodeBlockHandle(&value, &handle).ok()) {
      return absl::DataLossError(absl::StrCat(
          "metaindex: malformed handle of entry '", it.key(), "'"));
    }
    const std::string name(it.key());
    meta.blocks[name] = handle;
    if (!meta.filter.has_value()) meta.filter = FilterFromName(name, handle);
    if (name == kPropertiesBlockName) meta.properties = handle;
    if (name == kIndexBlockName) meta.index = handle;
  }
  if (!it.status().ok()) {
    return absl::DataLossError(
        absl::StrCat("metaindex: ", it.status().message()));
  }
  return meta;
}

absl::StatusOr<BlockHandle> IndexHandle(const Footer& footer,
                                        const MetaIndex& meta) {
  if (FooterHoldsIndexHandle(footer)) return footer.index;
  if (meta.index.has_value()) return *meta.index;
  return absl::DataLossError(absl::StrCat("metaindex: no '", kIndexBlockName,
                                          "' entry, which holds the index "
                                          "handle at format_version ",
                                          footer.format_version));
}

absl::StatusOr<TableProperties> ParseProperties(absl::string_view contents) {
  absl::StatusOr<Block> block = Block::Parse(contents);
  if (!block.ok()) {
    return absl::DataLossError(
        absl::StrCat("properties: ", block.status().message()));
  }
  TableProperties props;
  BlockIterator it(*block);
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    const absl::string_view name = it.key();
    const absl::string_view value = it.value();
    absl::Status status;
    if (name == kNumEntries) {
      status = DecodeVarintProperty(name, value, &props.num_entries);
    } else if (name == kNumFilterEntries) {
      status = DecodeVarintProperty(name, value, &props.num_filter_entries);
    } else if (name == kFilterPolicy) {
      props.filter_policy = std::string(value);
    } else if (name == kComparator) {
      props.comparator = std::string(value);
    } else if (name == kPrefixExtractorNameProperty) {
      props.prefix_extractor = std::string(value);
    } else if (name == kWholeKeyFilteringProperty) {
      props.whole_key_filtering = value == kPropertyTrue;
    } else if (name == kIndexKeyIsUserKey) {
      status = DecodeVarintProperty(name, value, &props.index_key_is_user_key);
    } else if (name == kIndexValueIsDeltaEncoded) {
      status = DecodeVarintProperty(name, value,
                                    &props.index_value_is_delta_encoded);
    }
    if (!status.ok()) return status;
  }
  if (!it.status().ok()) {
    return absl::DataLossError(
        absl::StrCat("properties: ", it.status().message()));
  }
  return props;
}

}  // namespace sstfilter
