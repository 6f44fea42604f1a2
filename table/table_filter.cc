#include "table/table_filter.h"

#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "filter/filter_format.h"
#include "filter/format_registry.h"
#include "table/block.h"
#include "table/block_trailer.h"
#include "table/filter_block.h"
#include "table/filter_bytes.h"
#include "table/partitioned_table_filter.h"
#include "table/range_filter_block.h"
#include "table/table_filter_layout.h"

namespace sstfilter {
namespace {

absl::Status Prefixed(const std::string& where, const absl::Status& status) {
  if (where.empty()) return status;
  return absl::Status(status.code(),
                      absl::StrCat(where, ": ", status.message()));
}

}  // namespace

// What the table's layout reports: reads and damage found after Open.
class TableFilter::Events : public TableFilterEvents {
 public:
  explicit Events(const TableFilter* table) : table_(table) {}
  void CountRead(uint64_t bytes) const override { table_->CountRead(bytes); }
  void RecordCorruption(const absl::Status& status) const override {
    table_->RecordCorruption(status);
  }

 private:
  const TableFilter* const table_;
};

// Everything Open does, with the tail buffer it reads once and drops after.
class TableFilter::Loader {
 public:
  Loader(const RandomAccessFile& file, TableFilter* table)
      : file_(file), table_(table) {}

  absl::Status Load(const TableFilterOptions& options);

 private:
  // The uncompressed contents of the block at handle, checked against its
  // trailer. Views the tail when the block lies inside it, else reads it into
  // *scratch. A checksum mismatch is DataLossError.
  absl::StatusOr<absl::string_view> ReadBlock(absl::string_view what,
                                              const BlockHandle& handle,
                                              std::string* scratch);
  absl::Status CheckInFile(absl::string_view what, const BlockHandle& handle);
  absl::Status LoadFilter(const FilterLocation& location, FilterArena* arena);
  // The range filter: a meta block, else the RocksDB property found in the
  // properties block (range_property, its value in property_filter).
  absl::Status LoadRangeFilter(const MetaIndex& meta,
                               std::optional<RangeFilterInfo> range_property,
                               std::string property_filter);
  absl::Status LoadPartitionIndex(absl::string_view contents,
                                  IndexKeys index_keys, FilterArena* arena);
  absl::Status LoadIndex(const MetaIndex& meta, IndexKeys index_keys);
  void ChoosePrefixExtractor(const TableFilterOptions& options);

  const RandomAccessFile& file_;
  TableFilter* const table_;
  std::string tail_;
  uint64_t tail_offset_ = 0;
};

absl::Status TableFilter::Loader::CheckInFile(absl::string_view what,
                                              const BlockHandle& handle) {
  const uint64_t size = file_.Size();
  if (BlockFits(handle, size)) return absl::OkStatus();
  return absl::DataLossError(absl::StrFormat(
      "%s handle (offset %d, size %d) points outside the file (%d bytes)", what,
      handle.offset, handle.size, size));
}

absl::StatusOr<absl::string_view> TableFilter::Loader::ReadBlock(
    absl::string_view what, const BlockHandle& handle, std::string* scratch) {
  if (absl::Status s = CheckInFile(what, handle); !s.ok()) return s;
  const uint64_t n = handle.size + kBlockTrailerBytes;
  absl::string_view raw;
  if (handle.offset >= tail_offset_) {
    raw = absl::string_view(tail_).substr(handle.offset - tail_offset_, n);
  } else {
    scratch->resize(n);
    absl::StatusOr<absl::string_view> read =
        file_.Read(handle.offset, n, scratch->data());
    if (!read.ok()) return read.status();
    table_->CountRead(n);
    raw = *read;
  }
  const Footer& footer = table_->info_.footer;
  return VerifiedBlockContents(what, raw,
                               static_cast<ChecksumType>(footer.checksum_type),
                               scratch, ContextOf(footer, handle));
}

absl::Status TableFilter::Loader::Load(const TableFilterOptions& options) {
  const uint64_t size = file_.Size();
  table_->info_.file_bytes = size;
  const uint64_t tail_bytes = std::min<uint64_t>(
      size, std::max(options.tail_prefetch_bytes, kRocksDbFooterBytes));
  tail_offset_ = size - tail_bytes;
  tail_.resize(tail_bytes);
  if (tail_bytes > 0) {
    absl::StatusOr<absl::string_view> read =
        file_.Read(tail_offset_, tail_bytes, tail_.data());
    if (!read.ok()) return read.status();
    table_->CountRead(tail_bytes);
  }

  absl::StatusOr<Footer> footer = DecodeFooter(tail_, size);
  if (!footer.ok()) return footer.status();
  table_->info_.footer = *footer;

  std::string meta_scratch;
  absl::StatusOr<absl::string_view> meta_contents =
      ReadBlock("metaindex", footer->metaindex, &meta_scratch);
  if (!meta_contents.ok()) return meta_contents.status();
  absl::StatusOr<MetaIndex> meta = ParseMetaIndex(*meta_contents);
  if (!meta.ok()) return meta.status();

  std::optional<RangeFilterInfo> range_property;
  std::string property_filter;
  if (meta->properties.has_value()) {
    std::string scratch;
    absl::StatusOr<absl::string_view> contents =
        ReadBlock("properties", *meta->properties, &scratch);
    if (!contents.ok()) return contents.status();
    absl::StatusOr<TableProperties> props = ParseProperties(*contents);
    if (!props.ok()) return props.status();
    table_->info_.properties = *props;
    range_property = FindRangeFilterProperty(*contents, &property_filter);
  }
  ChoosePrefixExtractor(options);
  if (absl::Status s = LoadRangeFilter(*meta, std::move(range_property),
                                       std::move(property_filter));
      !s.ok()) {
    return s;
  }

  table_->info_.filter = meta->filter;
  if (!meta->filter.has_value()) return absl::OkStatus();
  if (absl::Status s = LoadFilter(*meta->filter, options.filter_arena); !s.ok())
    return s;
  if (meta->filter->layout == FilterLayout::kPerDataRange &&
      table_->filter_block_ != nullptr) {
    return LoadIndex(*meta, options.index_keys);
  }
  return absl::OkStatus();
}

void TableFilter::Loader::ChoosePrefixExtractor(
    const TableFilterOptions& options) {
  TableFilterInfo& info = table_->info_;
  const std::optional<TableProperties>& props = info.properties;
  if (!props.has_value()) return;  // LevelDB: whole keys, no prefixes
  info.whole_keys = props->whole_key_filtering.value_or(true);
  if (!props->prefix_extractor.has_value() ||
      *props->prefix_extractor == kNoPrefixExtractorName) {
    return;
  }
  const std::string& name = *props->prefix_extractor;
  info.prefix_extractor = name;
  const std::shared_ptr<const PrefixExtractor>& reader =
      options.prefix_extractor;
  if (reader != nullptr && reader->Name() == name) {
    table_->table_extractor_ = reader;
  } else {
    absl::StatusOr<std::unique_ptr<const PrefixExtractor>> rebuilt =
        PrefixExtractorFromName(name);
    if (rebuilt.ok()) {
      table_->table_extractor_ = std::move(*rebuilt);
    } else {
      info.prefix_note = std::string(rebuilt.status().message());
    }
  }
  if (reader != nullptr && reader->Name() != name) {
    info.prefix_note = absl::StrCat("the filter's prefixes were cut by '", name,
                                    "', the reader's by '", reader->Name(),
                                    "': every prefix may match");
    return;
  }
  table_->prefix_extractor_ = table_->table_extractor_;
}

absl::Status TableFilter::Loader::LoadFilter(const FilterLocation& location,
                                             FilterArena* arena) {
  const FilterFormat* format = FindFilterFormat(location.policy_name);
  if (format == nullptr) {
    return absl::UnimplementedError(
        absl::StrCat("filter '", location.policy_name, "' (",
                     FilterLayoutName(location.layout),
                     " layout) is not one sstfilter reads; it reads ",
                     RegisteredFormatNames()));
  }
  table_->format_ = format;

  std::string scratch;
  const bool partitioned = location.layout == FilterLayout::kPartitioned;
  absl::StatusOr<absl::string_view> contents = ReadBlock(
      partitioned ? "partition index" : "filter", location.handle, &scratch);
  if (!contents.ok()) {
    if (!absl::IsDataLoss(contents.status())) return contents.status();
    // A corrupt filter costs reads, never a key: answer "may match".
    table_->RecordCorruption(contents.status());
    return absl::OkStatus();
  }
  const size_t n = contents->size();
  table_->info_.filter_block_bytes = n;
  if (partitioned) {
    return LoadPartitionIndex(*contents, table_->index_keys_, arena);
  }

  table_->filter_bytes_ = AllocateFilterBytes(n, arena);
  if (table_->filter_bytes_ == nullptr) {
    return absl::ResourceExhaustedError(
        absl::StrFormat("cannot allocate %d bytes for the filter block", n));
  }
  std::memcpy(table_->filter_bytes_.get(), contents->data(), n);
  const absl::string_view held(table_->filter_bytes_.get(), n);
  if (location.layout == FilterLayout::kFull) {
    table_->filter_block_ = NewFullFilterBlockReader(*format, held);
    table_->layout_ = NewFullFilterLayout(table_->filter_block_.get());
  } else {
    // The layout comes with the index block (LoadIndex).
    table_->filter_block_ = NewLevelDbFilterBlockReader(*format, held);
  }
  table_->info_.num_filters = table_->filter_block_->NumFilters();
  if (absl::Status damage = table_->filter_block_->Corruption(); !damage.ok())
    table_->RecordCorruption(damage);
  return absl::OkStatus();
}

absl::Status TableFilter::Loader::LoadRangeFilter(
    const MetaIndex& meta, std::optional<RangeFilterInfo> range_property,
    std::string property_filter) {
  std::optional<RangeFilterInfo> location = FindRangeFilterBlock(meta);
  std::string filter;
  if (location.has_value()) {
    std::string scratch;
    absl::StatusOr<absl::string_view> contents =
        ReadBlock("range filter", location->handle, &scratch);
    if (!contents.ok()) {
      if (!absl::IsDataLoss(contents.status())) return contents.status();
      // As for the point filter: every range may match.
      table_->RecordCorruption(contents.status());
      location->filter_bytes = location->handle.size;
      location->note = std::string(contents.status().message());
      table_->info_.range_filter = std::move(location);
      return absl::OkStatus();
    }
    filter = std::string(*contents);
  } else if (range_property.has_value()) {
    location = std::move(range_property);
    filter = std::move(property_filter);
  } else {
    return absl::OkStatus();
  }
  table_->range_filter_ = std::make_unique<RangeFilterBlock>(
      *std::move(location), std::move(filter));
  if (!table_->range_filter_->Corruption().ok()) {
    table_->RecordCorruption(table_->range_filter_->Corruption());
  }
  table_->info_.range_filter = table_->range_filter_->info();
  return absl::OkStatus();
}

absl::Status TableFilter::Loader::LoadPartitionIndex(absl::string_view contents,
                                                     IndexKeys index_keys,
                                                     FilterArena* arena) {
  const std::optional<TableProperties>& props = table_->info_.properties;
  IndexValues values = IndexValues::kFull;
  if (props.has_value() && props->index_key_is_user_key.has_value()) {
    index_keys = *props->index_key_is_user_key == 0 ? IndexKeys::kInternal
                                                    : IndexKeys::kUser;
  }
  if (props.has_value() && props->index_value_is_delta_encoded.value_or(0)) {
    values = IndexValues::kDeltaEncoded;
  }
  table_->index_keys_ = index_keys;
  absl::StatusOr<std::vector<FilterPartition>> partitions =
      ParsePartitionIndex(contents, values);
  absl::Status problem = partitions.status();
  if (problem.ok()) {
    problem = CheckPartitionIndex(*partitions, file_.Size(), index_keys);
  }
  if (!problem.ok()) {
    // Probing by an index that cannot be trusted could pick the wrong
    // partition and lose a key: answer "may match".
    table_->RecordCorruption(problem);
    return absl::OkStatus();
  }
  TableFilterInfo& info = table_->info_;
  info.partitions = std::move(*partitions);
  info.num_filters = info.partitions.size();
  // No partitions: nothing to route a key to, so every key may match.
  if (info.num_filters == 0) return absl::OkStatus();
  PartitionedFilterLayout::Source source;
  source.partitions = &info.partitions;
  source.index_keys = index_keys;
  source.file = &file_;
  source.checksum_type = static_cast<ChecksumType>(info.footer.checksum_type);
  source.base_context_checksum = info.footer.base_context_checksum;
  source.format = table_->format_;
  source.arena = arena;
  source.events = table_->events_.get();
  auto layout = std::make_unique<PartitionedFilterLayout>(source);
  // A partition the tail read already holds costs no read: keep it now.
  // The others are read when a key first needs them.
  for (size_t i = 0; i < info.num_filters; ++i) {
    const BlockHandle& handle = info.partitions[i].handle;
    if (handle.offset >= tail_offset_) {
      layout->KeepRead(
          i, absl::string_view(tail_).substr(handle.offset - tail_offset_,
                                             handle.size + kBlockTrailerBytes));
    }
  }
  table_->partitioned_ = layout.get();
  table_->layout_ = std::move(layout);
  return absl::OkStatus();
}

absl::Status TableFilter::Loader::LoadIndex(const MetaIndex& meta,
                                            IndexKeys index_keys) {
  std::string scratch;
  absl::StatusOr<BlockHandle> handle = IndexHandle(table_->info_.footer, meta);
  absl::StatusOr<absl::string_view> contents =
      handle.ok() ? ReadBlock("index", *handle, &scratch)
                  : absl::StatusOr<absl::string_view>(handle.status());
  if (!contents.ok()) {
    if (!absl::IsDataLoss(contents.status())) return contents.status();
    // Without the index no key finds its filter: every key may match.
    table_->RecordCorruption(contents.status());
    table_->filter_block_.reset();
    return absl::OkStatus();
  }
  if (absl::Status s = CheckIndexBlock(*contents, index_keys); !s.ok()) {
    return s;
  }
  table_->index_keys_ = index_keys;
  table_->layout_ = NewPerDataBlockFilterLayout(
      table_->filter_block_.get(), std::string(*contents), index_keys);
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<TableFilter>> TableFilter::OpenFile(
    const std::string& path, const TableFilterOptions& options) {
  absl::StatusOr<std::unique_ptr<RandomAccessFile>> file =
      OpenRandomAccessFile(path);
  if (!file.ok()) return file.status();
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      Open(std::move(*file), options);
  if (!table.ok()) return Prefixed(path, table.status());
  return table;
}

absl::StatusOr<std::unique_ptr<TableFilter>> TableFilter::Open(
    std::unique_ptr<RandomAccessFile> file, const TableFilterOptions& options) {
  std::unique_ptr<TableFilter> table(new TableFilter());
  table->index_keys_ = options.index_keys;
  Loader loader(*file, table.get());
  if (absl::Status s = loader.Load(options); !s.ok()) return s;
  // A partitioned filter reads its partitions from the file later.
  if (table->partitioned_ != nullptr) table->file_ = std::move(file);
  return table;
}

TableFilter::TableFilter() : events_(std::make_unique<Events>(this)) {}
TableFilter::~TableFilter() = default;

void TableFilter::CountRead(uint64_t bytes) const {
  io_reads_.fetch_add(1, std::memory_order_relaxed);
  io_bytes_.fetch_add(bytes, std::memory_order_relaxed);
}

void TableFilter::RecordCorruption(const absl::Status& status) const {
  MutexLock lock(&corruption_mu_);
  if (corruption_.ok()) corruption_ = status;
}

absl::Status TableFilter::corruption() const {
  MutexLock lock(&corruption_mu_);
  return corruption_;
}

absl::Status TableFilter::LoadAllPartitions() const {
  if (partitioned_ != nullptr) partitioned_->LoadAll();
  return corruption();
}

absl::string_view TableFilter::partition_contents(size_t i) const {
  return partitioned_ == nullptr ? absl::string_view()
                                 : partitioned_->Contents(i);
}

std::optional<size_t> TableFilter::PartitionOf(absl::string_view key) const {
  if (partitioned_ == nullptr) return std::nullopt;
  return partitioned_->PartitionOf(key);
}

bool TableFilter::KeyMayMatch(absl::string_view user_key) const {
  if (info_.whole_keys) return FilterMayMatch(user_key, user_key);
  // The filter holds prefixes only: a key is there if its prefix is.
  if (table_extractor_ == nullptr || !table_extractor_->InDomain(user_key)) {
    return true;
  }
  return FilterMayMatch(user_key, table_extractor_->Transform(user_key));
}

bool TableFilter::PrefixMayMatch(absl::string_view prefix) const {
  if (prefix_extractor_ == nullptr || !prefix_extractor_->InDomain(prefix) ||
      prefix_extractor_->Transform(prefix) != prefix) {
    return true;
  }
  // The least key with this prefix is the prefix itself: its partition holds
  // the prefix whenever any key has it (partitioned_filter_block.h).
  return FilterMayMatch(prefix, prefix);
}

bool TableFilter::RangeMayMatch(absl::string_view lo,
                                absl::string_view hi) const {
  return range_filter_ == nullptr || range_filter_->RangeMayMatch(lo, hi);
}

bool TableFilter::RangeMayMatchBefore(absl::string_view lo,
                                      absl::string_view hi_exclusive) const {
  return range_filter_ == nullptr ||
         range_filter_->RangeMayMatchBefore(lo, hi_exclusive);
}

bool TableFilter::FilterMayMatch(absl::string_view locate,
                                 absl::string_view probe) const {
  // No layout: no filter, or one too damaged to route a key.
  return layout_ == nullptr || layout_->MayMatch(locate, probe);
}

}  // namespace sstfilter
