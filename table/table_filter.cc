#include "table/table_filter.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "filter/filter_format.h"
#include "filter/format_registry.h"
#include "table/block.h"
#include "table/block_trailer.h"
#include "table/filter_block.h"
#include "table/range_filter_block.h"

namespace sstfilter {
namespace {

constexpr size_t kInternalKeyTagBytes = 8;  // sequence << 8 | type, fixed64
constexpr uint8_t kMaxValueType = 1;        // LevelDB: deletion 0, value 1
constexpr size_t kFilterAlignment = 64;     // bytes: one cache line

// Index keys of a LevelDB database are internal keys ordered by user key
// first, so the first index entry whose user-key part is >= the user key
// names the data block that would hold it (LevelDB's Table::InternalGet
// seeks the same entry with the largest sequence number).
int CompareInternalToUser(absl::string_view index_key,
                          absl::string_view user_key) {
  return index_key.substr(0, index_key.size() - kInternalKeyTagBytes)
      .compare(user_key);
}

bool IsInternalKey(absl::string_view key) {
  return key.size() >= kInternalKeyTagBytes &&
         static_cast<uint8_t>(key[key.size() - kInternalKeyTagBytes]) <=
             kMaxValueType;
}

absl::Status Prefixed(const std::string& where, const absl::Status& status) {
  if (where.empty()) return status;
  return absl::Status(status.code(),
                      absl::StrCat(where, ": ", status.message()));
}

using AlignedBytes = std::unique_ptr<char, void (*)(void*)>;

// n bytes at a cache line: in arena when given (which owns them), else on the
// heap. Null when the heap refuses.
AlignedBytes AllocateAligned(size_t n, FilterArena* arena) {
  if (arena != nullptr) {
    static_assert(FilterArena::kAlignment % kFilterAlignment == 0,
                  "arena copies are aligned for the filter");
    return AlignedBytes(arena->Allocate(n), [](void*) {});
  }
  // aligned_alloc needs a size that is a multiple of the alignment.
  const size_t alloc = (std::max<size_t>(n, 1) + kFilterAlignment - 1) /
                       kFilterAlignment * kFilterAlignment;
  return AlignedBytes(
      static_cast<char*>(std::aligned_alloc(kFilterAlignment, alloc)),
      &std::free);
}

// The contents of a block as read from the file (contents + trailer),
// verified against the trailer and uncompressed (into *scratch if needed).
absl::StatusOr<absl::string_view> VerifiedContents(absl::string_view what,
                                                   absl::string_view raw,
                                                   uint8_t checksum_type,
                                                   std::string* scratch) {
  const absl::string_view contents =
      raw.substr(0, raw.size() - kBlockTrailerBytes);
  const absl::string_view trailer = raw.substr(raw.size() - kBlockTrailerBytes);
  if (absl::Status s = VerifyBlockTrailer(
          what, contents, trailer, static_cast<ChecksumType>(checksum_type));
      !s.ok()) {
    return s;
  }
  const uint8_t type = static_cast<uint8_t>(trailer[0]);
  if (type == static_cast<uint8_t>(CompressionType::kNone)) return contents;
  std::string uncompressed;
  absl::StatusOr<absl::string_view> out =
      UncompressBlock(what, type, contents, &uncompressed);
  if (!out.ok()) return out.status();
  *scratch = std::move(uncompressed);
  return absl::string_view(*scratch);
}

// Whether a separator in the partition index is at or after key: the
// partition whose separator is the first such holds key.
bool SeparatorAtOrAfter(absl::string_view separator, absl::string_view key,
                        bool internal_keys) {
  return (internal_keys ? CompareInternalToUser(separator, key)
                        : separator.compare(key)) >= 0;
}

}  // namespace

// A partition of a partitioned filter, read at its first use.
struct TableFilter::Partition {
  std::once_flag once;
  std::atomic<bool> loaded{false};
  AlignedBytes bytes{nullptr, nullptr};
  size_t size = 0;
  std::unique_ptr<FilterReader> reader;  // null once loaded: unreadable
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
                                  IndexKeys index_keys);
  absl::Status LoadIndex(IndexKeys index_keys);
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
  return VerifiedContents(what, raw, table_->info_.footer.checksum_type,
                          scratch);
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
    return LoadIndex(options.index_keys);
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
  table_->filter_arena_ = arena;

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
  if (partitioned) return LoadPartitionIndex(*contents, table_->index_keys_);

  table_->filter_bytes_ = AllocateAligned(n, arena);
  if (table_->filter_bytes_ == nullptr) {
    return absl::ResourceExhaustedError(
        absl::StrFormat("cannot allocate %d bytes for the filter block", n));
  }
  std::memcpy(table_->filter_bytes_.get(), contents->data(), n);
  const absl::string_view held(table_->filter_bytes_.get(), n);
  if (location.layout == FilterLayout::kFull) {
    table_->filter_block_ = NewFullFilterBlockReader(*format, held);
  } else {
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
                                                     IndexKeys index_keys) {
  const std::optional<TableProperties>& props = table_->info_.properties;
  bool internal_keys = index_keys == IndexKeys::kInternal;
  IndexValues values = IndexValues::kFull;
  if (props.has_value() && props->index_key_is_user_key.has_value()) {
    internal_keys = *props->index_key_is_user_key == 0;
  }
  if (props.has_value() && props->index_value_is_delta_encoded.value_or(0)) {
    values = IndexValues::kDeltaEncoded;
  }
  table_->index_keys_ = internal_keys ? IndexKeys::kInternal : IndexKeys::kUser;
  absl::StatusOr<std::vector<FilterPartition>> partitions =
      ParsePartitionIndex(contents, values);
  absl::Status problem = partitions.status();
  const uint64_t file_size = file_.Size();
  for (size_t i = 0; problem.ok() && i < partitions->size(); ++i) {
    const FilterPartition& p = (*partitions)[i];
    if (!BlockFits(p.handle, file_size)) {
      problem = absl::DataLossError(absl::StrFormat(
          "partition index: partition %d (offset %d, size %d) points outside "
          "the file (%d bytes)",
          i, p.handle.offset, p.handle.size, file_size));
    } else if (internal_keys && p.index_key.size() < kInternalKeyTagBytes) {
      // RocksDB's tags use types LevelDB's do not (IsInternalKey): only the
      // length can be checked.
      problem = absl::DataLossError(absl::StrFormat(
          "partition index: separator %d is not an internal key", i));
    } else if (i > 0 &&
               !SeparatorAtOrAfter(
                   p.index_key,
                   internal_keys
                       ? absl::string_view((*partitions)[i - 1].index_key)
                             .substr(0, (*partitions)[i - 1].index_key.size() -
                                            kInternalKeyTagBytes)
                       : absl::string_view((*partitions)[i - 1].index_key),
                   internal_keys)) {
      problem = absl::DataLossError(absl::StrFormat(
          "partition index: separator %d is before separator %d: partitions "
          "out of order",
          i, i - 1));
    }
  }
  if (!problem.ok()) {
    // Probing by an index that cannot be trusted could pick the wrong
    // partition and lose a key: answer "may match".
    table_->RecordCorruption(problem);
    return absl::OkStatus();
  }
  table_->info_.partitions = std::move(*partitions);
  table_->info_.num_filters = table_->info_.partitions.size();
  for (size_t i = 0; i < table_->info_.num_filters; ++i) {
    table_->partitions_.push_back(std::make_unique<Partition>());
    // A partition the tail read already holds costs no read: keep it now.
    // The others are read when a key first needs them.
    const BlockHandle& handle = table_->info_.partitions[i].handle;
    if (handle.offset >= tail_offset_) {
      std::call_once(table_->partitions_[i]->once, [&] {
        table_->KeepPartition(i, absl::string_view(tail_).substr(
                                     handle.offset - tail_offset_,
                                     handle.size + kBlockTrailerBytes));
      });
    }
  }
  return absl::OkStatus();
}

absl::Status TableFilter::Loader::LoadIndex(IndexKeys index_keys) {
  std::string scratch;
  absl::StatusOr<absl::string_view> contents =
      ReadBlock("index", table_->info_.footer.index, &scratch);
  if (!contents.ok()) {
    if (!absl::IsDataLoss(contents.status())) return contents.status();
    table_->RecordCorruption(contents.status());
    table_->filter_block_.reset();
    return absl::OkStatus();
  }
  table_->index_block_ = std::string(*contents);
  absl::StatusOr<Block> block = Block::Parse(table_->index_block_);
  if (!block.ok()) return Prefixed("index", block.status());
  // Checks every entry once, so that queries can trust the index.
  BlockIterator it(*block);
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    absl::string_view value = it.value();
    BlockHandle handle;
    if (!DecodeBlockHandle(&value, &handle).ok()) {
      return absl::DataLossError("index: malformed data block handle");
    }
    if (index_keys == IndexKeys::kInternal && !IsInternalKey(it.key())) {
      return absl::InvalidArgumentError(
          "index keys are not a LevelDB database's internal keys (user key + "
          "8-byte tag): a table written directly by leveldb::TableBuilder? "
          "Read it with IndexKeys::kUser (sst_probe --index_keys=user)");
    }
  }
  if (!it.status().ok()) return Prefixed("index", it.status());
  table_->index_keys_ = index_keys;
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
  if (!table->partitions_.empty()) table->file_ = std::move(file);
  return table;
}

TableFilter::TableFilter() = default;
TableFilter::~TableFilter() = default;

void TableFilter::CountRead(uint64_t bytes) const {
  io_reads_.fetch_add(1, std::memory_order_relaxed);
  io_bytes_.fetch_add(bytes, std::memory_order_relaxed);
}

void TableFilter::RecordCorruption(const absl::Status& status) const {
  absl::MutexLock lock(&corruption_mu_);
  if (corruption_.ok()) corruption_ = status;
}

absl::Status TableFilter::corruption() const {
  absl::MutexLock lock(&corruption_mu_);
  return corruption_;
}

void TableFilter::KeepPartition(size_t i, absl::string_view raw) const {
  Partition& partition = *partitions_[i];
  std::string scratch;
  absl::StatusOr<absl::string_view> contents =
      VerifiedContents(absl::StrCat("filter partition ", i), raw,
                       info_.footer.checksum_type, &scratch);
  if (!contents.ok()) {
    RecordCorruption(absl::DataLossError(contents.status().message()));
  } else if ((partition.bytes = AllocateAligned(contents->size(),
                                                filter_arena_)) != nullptr) {
    std::memcpy(partition.bytes.get(), contents->data(), contents->size());
    partition.size = contents->size();
    partition.reader = format_->NewReader(
        absl::string_view(partition.bytes.get(), partition.size));
    if (absl::Status damage = partition.reader->Corruption(); !damage.ok()) {
      RecordCorruption(absl::DataLossError(
          absl::StrCat("filter partition ", i, ": ", damage.message())));
    }
  }
  partition.loaded.store(true, std::memory_order_release);
}

const FilterReader* TableFilter::LoadPartition(size_t i) const {
  Partition& partition = *partitions_[i];
  std::call_once(partition.once, [&] {
    const BlockHandle& handle = info_.partitions[i].handle;
    const uint64_t n = handle.size + kBlockTrailerBytes;  // fits: checked
    std::string raw(n, '\0');
    absl::StatusOr<absl::string_view> read =
        file_->Read(handle.offset, n, raw.data());
    if (!read.ok()) {
      RecordCorruption(absl::DataLossError(
          absl::StrCat("filter partition ", i, ": ", read.status().message())));
      partition.loaded.store(true, std::memory_order_release);
      return;
    }
    CountRead(n);
    KeepPartition(i, *read);
  });
  return partition.reader.get();
}

absl::Status TableFilter::LoadAllPartitions() const {
  for (size_t i = 0; i < partitions_.size(); ++i) LoadPartition(i);
  return corruption();
}

absl::string_view TableFilter::partition_contents(size_t i) const {
  if (i >= partitions_.size() ||
      !partitions_[i]->loaded.load(std::memory_order_acquire) ||
      partitions_[i]->reader == nullptr) {
    return absl::string_view();
  }
  return absl::string_view(partitions_[i]->bytes.get(), partitions_[i]->size);
}

std::optional<size_t> TableFilter::PartitionOf(absl::string_view key) const {
  const std::vector<FilterPartition>& partitions = info_.partitions;
  if (partitions_.empty()) return std::nullopt;
  const bool internal_keys = index_keys_ == IndexKeys::kInternal;
  // Separators are in order (checked at Open): binary search for the first
  // at or after key.
  const auto it = std::partition_point(
      partitions.begin(), partitions.end(), [&](const FilterPartition& p) {
        return !SeparatorAtOrAfter(p.index_key, key, internal_keys);
      });
  if (it == partitions.end()) return std::nullopt;
  return static_cast<size_t>(it - partitions.begin());
}

TableFilter::IndexLookup TableFilter::FindDataBlock(absl::string_view user_key,
                                                    uint64_t* offset) const {
  absl::StatusOr<Block> block = Block::Parse(index_block_);
  if (!block.ok()) return IndexLookup::kUnknown;  // checked at Open
  BlockIterator it(*block);
  it.Seek(user_key, index_keys_ == IndexKeys::kInternal ? CompareInternalToUser
                                                        : BytewiseCompare);
  if (!it.Valid()) {
    return it.status().ok() ? IndexLookup::kPastLastKey : IndexLookup::kUnknown;
  }
  absl::string_view value = it.value();
  BlockHandle handle;
  if (!DecodeBlockHandle(&value, &handle).ok()) return IndexLookup::kUnknown;
  *offset = handle.offset;
  return IndexLookup::kFound;
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
  if (!partitions_.empty()) {
    const std::optional<size_t> partition = PartitionOf(locate);
    if (!partition.has_value()) return false;  // after the table's last key
    const FilterReader* reader = LoadPartition(*partition);
    return reader == nullptr || reader->MayMatch(probe);
  }
  if (filter_block_ == nullptr) return true;  // no filter, or corrupt
  if (!filter_block_->NeedsDataBlockOffset()) {
    return filter_block_->KeyMayMatch(probe, 0);
  }
  uint64_t offset = 0;
  switch (FindDataBlock(locate, &offset)) {
    case IndexLookup::kFound:
      return filter_block_->KeyMayMatch(probe, offset);
    case IndexLookup::kPastLastKey:
      return false;  // after the table's last key: in no data block
    case IndexLookup::kUnknown:
      break;
  }
  return true;
}

}  // namespace sstfilter
