#include "table/table_filter_layout.h"

#include <utility>

#include "table/block.h"
#include "table/format.h"

namespace sstfilter {
namespace {

class FullFilterLayout : public TableFilterLayout {
 public:
  explicit FullFilterLayout(const FilterBlockReader* block) : block_(block) {}

  bool MayMatch(absl::string_view /*locate*/,
                absl::string_view probe) const override {
    return block_->KeyMayMatch(probe, 0);
  }

 private:
  const FilterBlockReader* const block_;
};

class PerDataBlockFilterLayout : public TableFilterLayout {
 public:
  PerDataBlockFilterLayout(const FilterBlockReader* block,
                           std::string index_block, IndexKeys index_keys)
      : block_(block),
        index_block_(std::move(index_block)),
        index_keys_(index_keys) {}

  bool MayMatch(absl::string_view locate,
                absl::string_view probe) const override {
    uint64_t offset = 0;
    switch (FindDataBlock(locate, &offset)) {
      case IndexLookup::kFound:
        return block_->KeyMayMatch(probe, offset);
      case IndexLookup::kPastLastKey:
        return false;  // after the table's last key: in no data block
      case IndexLookup::kUnknown:
        break;
    }
    return true;
  }

 private:
  enum class IndexLookup {
    kFound,        // *offset is that block's offset
    kPastLastKey,  // after the table's last key: certainly absent
    kUnknown,      // an index entry did not parse (CheckIndexBlock passed)
  };

  // Finds the data block that would hold user_key.
  IndexLookup FindDataBlock(absl::string_view user_key,
                            uint64_t* offset) const {
    absl::StatusOr<Block> block = Block::Parse(index_block_);
    if (!block.ok()) return IndexLookup::kUnknown;  // checked at Open
    BlockIterator it(*block);
    it.Seek(user_key, index_keys_ == IndexKeys::kInternal
                          ? CompareInternalToUser
                          : BytewiseCompare);
    if (!it.Valid()) {
      return it.status().ok() ? IndexLookup::kPastLastKey
                              : IndexLookup::kUnknown;
    }
    absl::string_view value = it.value();
    BlockHandle handle;
    if (!DecodeBlockHandle(&value, &handle).ok()) return IndexLookup::kUnknown;
    *offset = handle.offset;
    return IndexLookup::kFound;
  }

  const FilterBlockReader* const block_;
  const std::string index_block_;  // uncompressed
  const IndexKeys index_keys_;
};

}  // namespace

std::unique_ptr<TableFilterLayout> NewFullFilterLayout(
    const FilterBlockReader* block) {
  return std::make_unique<FullFilterLayout>(block);
}

absl::Status CheckIndexBlock(absl::string_view index_block,
                             IndexKeys index_keys) {
  absl::StatusOr<Block> block = Block::Parse(index_block);
  if (!block.ok()) {
    return absl::Status(block.status().code(),
                        absl::StrCat("index: ", block.status().message()));
  }
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
  if (!it.status().ok()) {
    return absl::Status(it.status().code(),
                        absl::StrCat("index: ", it.status().message()));
  }
  return absl::OkStatus();
}

std::unique_ptr<TableFilterLayout> NewPerDataBlockFilterLayout(
    const FilterBlockReader* block, std::string index_block,
    IndexKeys index_keys) {
  return std::make_unique<PerDataBlockFilterLayout>(
      block, std::move(index_block), index_keys);
}

}  // namespace sstfilter
