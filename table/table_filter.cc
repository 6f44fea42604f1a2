#include "table/table_filter.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "filter/filter_format.h"
#include "filter/format_registry.h"
#include "table/block.h"
#include "table/block_trailer.h"
#include "table/filter_block.h"

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

}  // namespace

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
  absl::Status LoadIndex(IndexKeys index_keys);

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
    table_->io_.reads++;
    table_->io_.bytes += n;
    raw = *read;
  }
  const absl::string_view contents = raw.substr(0, handle.size);
  const absl::string_view trailer = raw.substr(handle.size);
  const auto checksum_type =
      static_cast<ChecksumType>(table_->info_.footer.checksum_type);
  if (absl::Status s =
          VerifyBlockTrailer(what, contents, trailer, checksum_type);
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
    table_->io_.reads++;
    table_->io_.bytes += tail_bytes;
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

  if (meta->properties.has_value()) {
    std::string scratch;
    absl::StatusOr<absl::string_view> contents =
        ReadBlock("properties", *meta->properties, &scratch);
    if (!contents.ok()) return contents.status();
    absl::StatusOr<TableProperties> props = ParseProperties(*contents);
    if (!props.ok()) return props.status();
    table_->info_.properties = *props;
  }

  table_->info_.filter = meta->filter;
  if (!meta->filter.has_value()) return absl::OkStatus();
  if (absl::Status s = LoadFilter(*meta->filter, options.filter_arena); !s.ok())
    return s;
  if (meta->filter->layout == FilterLayout::kPerDataRange &&
      table_->corruption_.ok()) {
    return LoadIndex(options.index_keys);
  }
  return absl::OkStatus();
}

absl::Status TableFilter::Loader::LoadFilter(const FilterLocation& location,
                                             FilterArena* arena) {
  if (location.layout == FilterLayout::kPartitioned) {
    return absl::UnimplementedError(absl::StrCat(
        "filter '", kPartitionedFilterPrefix, location.policy_name,
        "': RocksDB's partitioned filters are not read (only full filters "
        "and LevelDB's per-2 KB filter blocks are)"));
  }
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
  absl::StatusOr<absl::string_view> contents =
      ReadBlock("filter", location.handle, &scratch);
  if (!contents.ok()) {
    if (!absl::IsDataLoss(contents.status())) return contents.status();
    // A corrupt filter costs reads, never a key: answer "may match".
    table_->corruption_ = contents.status();
    return absl::OkStatus();
  }
  const size_t n = contents->size();
  table_->info_.filter_block_bytes = n;
  if (arena != nullptr) {
    static_assert(FilterArena::kAlignment % kFilterAlignment == 0,
                  "arena copies are aligned for the filter");
    // The arena owns the bytes: nothing to free with the table.
    table_->filter_bytes_ = std::unique_ptr<char, void (*)(void*)>(
        arena->Allocate(n), [](void*) {});
  } else {
    // aligned_alloc needs a size that is a multiple of the alignment.
    const size_t alloc = (std::max<size_t>(n, 1) + kFilterAlignment - 1) /
                         kFilterAlignment * kFilterAlignment;
    table_->filter_bytes_ = std::unique_ptr<char, void (*)(void*)>(
        static_cast<char*>(std::aligned_alloc(kFilterAlignment, alloc)),
        &std::free);
  }
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
  return absl::OkStatus();
}

absl::Status TableFilter::Loader::LoadIndex(IndexKeys index_keys) {
  std::string scratch;
  absl::StatusOr<absl::string_view> contents =
      ReadBlock("index", table_->info_.footer.index, &scratch);
  if (!contents.ok()) {
    if (!absl::IsDataLoss(contents.status())) return contents.status();
    table_->corruption_ = contents.status();
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
  Loader loader(*file, table.get());
  if (absl::Status s = loader.Load(options); !s.ok()) return s;
  return table;
}

TableFilter::~TableFilter() = default;

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
  if (filter_block_ == nullptr) return true;  // no filter, or corrupt
  const std::optional<TableProperties>& props = info_.properties;
  if (props.has_value() && props->whole_key_filtering.has_value() &&
      !*props->whole_key_filtering) {
    return true;  // the filter holds prefixes only
  }
  if (!filter_block_->NeedsDataBlockOffset()) {
    return filter_block_->KeyMayMatch(user_key, 0);
  }
  uint64_t offset = 0;
  switch (FindDataBlock(user_key, &offset)) {
    case IndexLookup::kFound:
      return filter_block_->KeyMayMatch(user_key, offset);
    case IndexLookup::kPastLastKey:
      return false;  // after the table's last key: in no data block
    case IndexLookup::kUnknown:
      break;
  }
  return true;
}

}  // namespace sstfilter
