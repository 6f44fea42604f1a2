// Fuzzes each table parser on its own with the same bytes, so that inputs
// need not carry valid checksums to reach them: the footer, a key/value
// block (iteration and seeks), the metaindex and properties blocks, Snappy
// decompression, LevelDB's per-2 KB filter block reader and the partition
// index of partitioned filters (whole and delta-encoded handles).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/strings/string_view.h"
#include "filter/format_registry.h"
#include "filter/leveldb/leveldb_bloom.h"
#include "table/block.h"
#include "table/block_trailer.h"
#include "table/filter_block.h"
#include "table/format.h"
#include "table/meta_blocks.h"
#include "table/partitioned_filter_block.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view bytes(reinterpret_cast<const char*>(data), size);
  sstfilter::DecodeFooter(bytes, size).IgnoreError();

  if (auto block = sstfilter::Block::Parse(bytes); block.ok()) {
    sstfilter::BlockIterator it(*block);
    int steps = 0;
    for (it.SeekToFirst(); it.Valid(); it.Next()) ++steps;
    for (absl::string_view target : {"", "filter.", "m", "\xff"}) {
      it.Seek(target, sstfilter::BytewiseCompare);
    }
  }
  sstfilter::ParseMetaIndex(bytes).IgnoreError();
  sstfilter::ParseProperties(bytes).IgnoreError();
  for (sstfilter::IndexValues values :
       {sstfilter::IndexValues::kFull, sstfilter::IndexValues::kDeltaEncoded}) {
    sstfilter::ParsePartitionIndex(bytes, values).IgnoreError();
  }

  std::string scratch;
  sstfilter::UncompressBlock("fuzz", 1, bytes, &scratch).IgnoreError();

  static const sstfilter::FilterFormat* const format =
      sstfilter::FindFilterFormat(sstfilter::kLevelDbBloomName);
  const auto reader = sstfilter::NewLevelDbFilterBlockReader(*format, bytes);
  for (uint64_t offset :
       {uint64_t{0}, uint64_t{2048}, uint64_t{5000}, uint64_t{1} << 40}) {
    reader->KeyMayMatch("key", offset);
  }
  for (size_t i = 0; i < reader->NumFilters() && i < 16; ++i) reader->Filter(i);
  return 0;
}
