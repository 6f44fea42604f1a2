#include "table/testing/table_assembler.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <optional>

#include "absl/strings/str_cat.h"
#include "table/block_builder.h"
#include "table/block_trailer.h"
#include "table/meta_blocks.h"
#include "table/range_filter_block.h"
#include "util/coding.h"

namespace sstfilter {
namespace test {
namespace {

// Test inputs are the caller's to get right: a refused one ends the test.
template <typename T>
T OrDie(absl::StatusOr<T> value) {
  if (!value.ok()) {
    std::cerr << "TableAssembler: " << value.status() << "\n";
    std::abort();
  }
  return *std::move(value);
}

}  // namespace

TableAssembler::TableAssembler(const TableFileOptions& options)
    : checksum_(options.checksum),
      format_version_(options.format_version),
      base_context_checksum_(options.format_version >=
                                     kContextChecksumFormatVersion
                                 ? options.base_context_checksum
                                 : 0) {}

BlockHandle TableAssembler::AddBlock(absl::string_view contents) {
  const BlockHandle handle{file_.size(), contents.size()};
  std::string block(contents);
  AppendBlockTrailer(CompressionType::kNone, checksum_, &block,
                     {base_context_checksum_, handle.offset});
  file_ += block;
  return handle;
}

void TableAssembler::AddMetaBlock(const std::string& name,
                                  const BlockHandle& handle) {
  std::string encoded;
  EncodeBlockHandle(handle, &encoded);
  meta_blocks_[name] = encoded;
}

BlockHandle TableAssembler::AddRangeFilterBlock(
    const FilterPolicy& policy, const std::vector<std::string>& keys) {
  std::unique_ptr<RangeFilterBlockBuilder> builder =
      OrDie(RangeFilterBlockBuilder::New(policy));
  for (const std::string& key : keys) builder->AddKey(key);
  const BlockHandle handle = AddBlock(builder->Finish());
  AddMetaBlock(builder->block_name(), handle);
  return handle;
}

void TableAssembler::AddProperty(const std::string& name,
                                 const std::string& value) {
  properties_[name] = value;
}

void TableAssembler::AddVarintProperty(const std::string& name,
                                       uint64_t value) {
  std::string encoded;
  PutVarint64(&encoded, value);
  properties_[name] = encoded;
}

std::string TableAssembler::Finish() {
  BlockBuilder properties;
  for (const auto& [name, value] : properties_) properties.Add(name, value);
  AddMetaBlock(kPropertiesBlockName, AddBlock(properties.Finish()));
  Footer footer;
  footer.format = TableFormat::kRocksDb;
  footer.format_version = format_version_;
  footer.checksum_type = static_cast<uint8_t>(checksum_);
  footer.base_context_checksum = base_context_checksum_;
  const bool index_in_footer = FooterHoldsIndexHandle(footer);
  if (!index_in_footer) {
    AddMetaBlock(kIndexBlockName, AddBlock(BlockBuilder().Finish()));
  }
  BlockBuilder metaindex;
  for (const auto& [name, handle] : meta_blocks_) metaindex.Add(name, handle);
  footer.metaindex = AddBlock(metaindex.Finish());
  if (index_in_footer) footer.index = AddBlock(BlockBuilder().Finish());
  file_ += EncodeFooter(footer);
  return std::move(file_);
}

namespace {

constexpr uint64_t kSeparatorTag = 1;  // sequence 0, type "value"
constexpr char kIndexKeyIsUserKey[] = "rocksdb.index.key.is.user.key";

}  // namespace

AssembledTable AssemblePartitionedTable(const FilterPolicy& policy,
                                        const PartitionedFilterOptions& options,
                                        const std::vector<std::string>& keys,
                                        size_t keys_per_data_block,
                                        bool user_keys,
                                        const TableFileOptions& file) {
  AssembledTable built;
  TableAssembler table(file);
  table.AddFiller(1000);  // data blocks stand here
  std::unique_ptr<PartitionedFilterBlockBuilder> builder =
      OrDie(PartitionedFilterBlockBuilder::New(policy, options));
  for (size_t start = 0; start < keys.size(); start += keys_per_data_block) {
    const size_t end = std::min(keys.size(), start + keys_per_data_block);
    for (size_t i = start; i < end; ++i) builder->AddKey(keys[i]);
    std::string separator = keys[end - 1];
    if (!user_keys) PutFixed64(&separator, kSeparatorTag);
    std::optional<absl::string_view> next;
    if (end < keys.size()) next = keys[end];
    builder->EndDataBlock(separator, next);
  }
  const std::string index =
      OrDie(builder->Finish([&](absl::string_view partition) {
        built.partition_bytes.push_back(partition.size());
        return table.AddBlock(partition);
      }));
  table.AddMetaBlock(absl::StrCat(kPartitionedFilterPrefix, policy.Name()),
                     table.AddBlock(index));
  for (const auto& [name, value] : FilterKeysProperties(options.keys)) {
    table.AddProperty(name, value);
  }
  table.AddVarintProperty(kIndexKeyIsUserKey, user_keys ? 1 : 0);
  built.file = table.Finish();
  return built;
}

}  // namespace test
}  // namespace sstfilter
