#include "tests/testing/table_assembler.h"

#include "table/block_builder.h"
#include "table/block_trailer.h"
#include "table/meta_blocks.h"
#include "util/coding.h"

namespace sstfilter {
namespace test {

BlockHandle TableAssembler::AddBlock(absl::string_view contents) {
  const BlockHandle handle{file_.size(), contents.size()};
  std::string block(contents);
  AppendBlockTrailer(CompressionType::kNone, checksum_, &block);
  file_ += block;
  return handle;
}

void TableAssembler::AddMetaBlock(const std::string& name,
                                  const BlockHandle& handle) {
  std::string encoded;
  EncodeBlockHandle(handle, &encoded);
  meta_blocks_[name] = encoded;
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
  BlockBuilder metaindex;
  for (const auto& [name, handle] : meta_blocks_) metaindex.Add(name, handle);
  Footer footer;
  footer.format = TableFormat::kRocksDb;
  footer.format_version = 5;
  footer.checksum_type = static_cast<uint8_t>(checksum_);
  footer.metaindex = AddBlock(metaindex.Finish());
  footer.index = AddBlock(BlockBuilder().Finish());
  file_ += EncodeFooter(footer);
  return std::move(file_);
}

}  // namespace test
}  // namespace sstfilter
