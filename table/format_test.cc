// Tests of the footer, block handle, block trailer and block parsers.

#include "table/format.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "table/block.h"
#include "table/block_trailer.h"
#include "table/meta_blocks.h"
#include "util/coding.h"

namespace sstfilter {
namespace {

// A block as LevelDB's BlockBuilder lays it out, every entry a restart point
// (restart interval 1, as metaindex and index blocks use) unless interval > 1.
std::string MakeBlock(
    const std::vector<std::pair<std::string, std::string>>& kv,
    int interval = 1) {
  std::string out;
  std::vector<uint32_t> restarts;
  std::string last;
  for (size_t i = 0; i < kv.size(); ++i) {
    const std::string& key = kv[i].first;
    size_t shared = 0;
    if (i % interval == 0) {
      restarts.push_back(static_cast<uint32_t>(out.size()));
    } else {
      while (shared < last.size() && shared < key.size() &&
             last[shared] == key[shared]) {
        ++shared;
      }
    }
    PutVarint32(&out, static_cast<uint32_t>(shared));
    PutVarint32(&out, static_cast<uint32_t>(key.size() - shared));
    PutVarint32(&out, static_cast<uint32_t>(kv[i].second.size()));
    out += key.substr(shared) + kv[i].second;
    last = key;
  }
  for (uint32_t r : restarts) PutFixed32(&out, r);
  PutFixed32(&out, static_cast<uint32_t>(restarts.size()));
  return out;
}

TEST(BlockHandleTest, RoundTrip) {
  for (uint64_t offset : {0ull, 1ull, 300ull, 1ull << 40, ~0ull}) {
    std::string encoded;
    EncodeBlockHandle({offset, offset / 3}, &encoded);
    absl::string_view input = encoded;
    BlockHandle decoded;
    ASSERT_TRUE(DecodeBlockHandle(&input, &decoded).ok());
    EXPECT_EQ(decoded.offset, offset);
    EXPECT_EQ(decoded.size, offset / 3);
    EXPECT_TRUE(input.empty());
  }
}

TEST(BlockHandleTest, TruncatedIsDataLoss) {
  std::string encoded;
  EncodeBlockHandle({1ull << 40, 1ull << 35}, &encoded);
  for (size_t n = 0; n < encoded.size(); ++n) {
    absl::string_view input(encoded.data(), n);
    BlockHandle decoded;
    EXPECT_TRUE(absl::IsDataLoss(DecodeBlockHandle(&input, &decoded))) << n;
    EXPECT_EQ(input.size(), n) << "input must be left unchanged";
  }
}

TEST(FooterTest, LevelDbRoundTrip) {
  Footer footer;
  footer.metaindex = {1000, 50};
  footer.index = {1055, 70};
  const std::string bytes = std::string(2000, 'x') + EncodeFooter(footer);
  ASSERT_EQ(EncodeFooter(footer).size(), kLevelDbFooterBytes);
  absl::StatusOr<Footer> decoded = DecodeFooter(bytes, bytes.size());
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(decoded->format, TableFormat::kLevelDb);
  EXPECT_EQ(decoded->metaindex.offset, 1000u);
  EXPECT_EQ(decoded->index.size, 70u);
}

TEST(FooterTest, RocksDbRoundTripEveryFormatVersion) {
  for (uint32_t version = 1; version <= kMaxRocksDbFormatVersion; ++version) {
    SCOPED_TRACE(version);
    Footer footer;
    footer.format = TableFormat::kRocksDb;
    footer.format_version = version;
    const bool context = version >= kContextChecksumFormatVersion;
    // Format_version 6 keeps only the metaindex, ending at the footer.
    footer.metaindex = context ? BlockHandle{10, 85} : BlockHandle{10, 20};
    if (!context) footer.index = {35, 5};
    if (context) footer.base_context_checksum = 0xfeedf00d;
    const std::string bytes = std::string(100, 'x') + EncodeFooter(footer);
    ASSERT_EQ(EncodeFooter(footer).size(), kRocksDbFooterBytes);
    absl::StatusOr<Footer> decoded = DecodeFooter(bytes, bytes.size());
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    EXPECT_EQ(decoded->format, TableFormat::kRocksDb);
    EXPECT_EQ(decoded->format_version, version);
    EXPECT_EQ(decoded->metaindex.offset, footer.metaindex.offset);
    EXPECT_EQ(decoded->metaindex.size, footer.metaindex.size);
    EXPECT_EQ(decoded->index.offset, footer.index.offset);
    EXPECT_EQ(decoded->index.size, footer.index.size);
    EXPECT_EQ(decoded->base_context_checksum, footer.base_context_checksum);
    EXPECT_EQ(FooterHoldsIndexHandle(*decoded), !context);
  }
}

// Each bad footer must be refused with the stated code and a message naming
// what was wrong.
TEST(FooterTest, RefusesWhatItCannotRead) {
  Footer good;
  good.format = TableFormat::kRocksDb;
  good.format_version = 5;
  good.metaindex = {10, 20};
  good.index = {35, 5};
  const std::string prefix(100, 'x');
  struct Case {
    const char* name;
    std::string bytes;
    absl::StatusCode code;
    const char* message;
  };
  std::string wrong_magic = prefix + EncodeFooter(good);
  wrong_magic.back() ^= 1;
  std::string version7 = prefix + EncodeFooter(good);
  EncodeFixed32(&version7[version7.size() - 12], 7);
  Footer no_checksum = good;
  no_checksum.checksum_type = static_cast<uint8_t>(ChecksumType::kNone);
  Footer checksum9 = good;
  checksum9.checksum_type = 9;
  Footer outside = good;
  outside.index = {90, 20};  // ends past the 100 bytes before the footer
  std::string plain = prefix;
  PutFixed64(&plain, kRocksDbPlainTableMagic);
  plain = std::string(100, 'y') + plain;
  std::string bad_handle = prefix + EncodeFooter(good);
  for (size_t i = bad_handle.size() - kRocksDbFooterBytes + 1;
       i < bad_handle.size() - 12; ++i) {
    bad_handle[i] = '\xff';  // varints that never end
  }
  const Case cases[] = {
      {"too short", "abc", absl::StatusCode::kDataLoss, "too short"},
      {"wrong magic", wrong_magic, absl::StatusCode::kDataLoss, "not a table"},
      {"format_version 7", version7, absl::StatusCode::kUnimplemented,
       "format_version 7"},
      {"no checksums", prefix + EncodeFooter(no_checksum),
       absl::StatusCode::kUnimplemented, "checksum type 0 (none)"},
      {"unknown checksum", prefix + EncodeFooter(checksum9),
       absl::StatusCode::kUnimplemented, "checksum type 9 (unknown)"},
      {"index past the blocks", prefix + EncodeFooter(outside),
       absl::StatusCode::kDataLoss, "index handle"},
      {"PlainTable", plain, absl::StatusCode::kUnimplemented, "PlainTable"},
      {"malformed handle", bad_handle, absl::StatusCode::kDataLoss,
       "malformed"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<Footer> decoded = DecodeFooter(c.bytes, c.bytes.size());
    ASSERT_FALSE(decoded.ok()) << c.name;
    EXPECT_EQ(decoded.status().code(), c.code)
        << c.name << ": " << decoded.status();
    EXPECT_NE(decoded.status().message().find(c.message), std::string::npos)
        << c.name << ": " << decoded.status();
  }
}

TEST(BlockTrailerTest, DetectsEveryBitFlip) {
  for (ChecksumType checksum : {ChecksumType::kCrc32c, ChecksumType::kXxHash,
                                ChecksumType::kXxHash64, ChecksumType::kXxh3}) {
    std::string block = "some block contents";
    const size_t n = block.size();
    AppendBlockTrailer(CompressionType::kNone, checksum, &block);
    ASSERT_EQ(block.size(), n + kBlockTrailerBytes);
    absl::string_view view = block;
    EXPECT_TRUE(
        VerifyBlockTrailer("test", view.substr(0, n), view.substr(n), checksum)
            .ok());
    for (size_t bit = 0; bit < 8 * block.size(); ++bit) {
      std::string flipped = block;
      flipped[bit / 8] ^= static_cast<char>(1 << (bit % 8));
      absl::string_view f = flipped;
      EXPECT_TRUE(absl::IsDataLoss(
          VerifyBlockTrailer("test", f.substr(0, n), f.substr(n), checksum)))
          << ChecksumTypeName(static_cast<uint8_t>(checksum)) << " bit " << bit;
    }
  }
}

TEST(BlockTrailerTest, SnappyBombIsRefused) {
  // A Snappy header claiming 2^32 - 1 bytes from 5 bytes of input.
  const std::string bomb = "\xff\xff\xff\xff\x0f";
  std::string scratch;
  absl::StatusOr<absl::string_view> out = UncompressBlock(
      "test", static_cast<uint8_t>(CompressionType::kSnappy), bomb, &scratch);
  EXPECT_TRUE(absl::IsDataLoss(out.status())) << out.status();
  EXPECT_LT(scratch.capacity(), size_t{1} << 20);
}

TEST(BlockTrailerTest, UnsupportedCompressionIsNamed) {
  std::string scratch;
  absl::StatusOr<absl::string_view> out = UncompressBlock(
      "index", static_cast<uint8_t>(CompressionType::kZstd), "x", &scratch);
  EXPECT_EQ(out.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_NE(out.status().message().find("ZSTD"), std::string::npos);
}

TEST(BlockTest, IteratesAndSeeks) {
  std::vector<std::pair<std::string, std::string>> kv;
  for (int i = 0; i < 100; ++i) {
    kv.emplace_back(absl::StrFormat("key%04d", 1000 + 2 * i),
                    absl::StrCat("v", i));
  }
  for (int interval : {1, 3, 16, 1000}) {
    const std::string contents = MakeBlock(kv, interval);
    absl::StatusOr<Block> block = Block::Parse(contents);
    ASSERT_TRUE(block.ok());
    BlockIterator it(*block);
    size_t i = 0;
    for (it.SeekToFirst(); it.Valid(); it.Next(), ++i) {
      ASSERT_LT(i, kv.size());
      EXPECT_EQ(it.key(), kv[i].first);
      EXPECT_EQ(it.value(), kv[i].second);
    }
    EXPECT_EQ(i, kv.size());
    EXPECT_TRUE(it.status().ok());
    for (int probe = 990; probe < 1210; ++probe) {
      const std::string target = absl::StrFormat("key%04d", probe);
      it.Seek(target, BytewiseCompare);
      const int want = probe < 1000 ? 1000 : probe + (probe % 2);
      if (want > 1198) {
        EXPECT_FALSE(it.Valid()) << target;
      } else {
        ASSERT_TRUE(it.Valid()) << target;
        EXPECT_EQ(it.key(), absl::StrFormat("key%04d", want)) << interval;
      }
    }
  }
}

TEST(BlockTest, AnyTruncationOrFlipIsSafe) {
  std::vector<std::pair<std::string, std::string>> kv;
  for (int i = 0; i < 20; ++i) kv.emplace_back(absl::StrCat("k", i * 7), "v");
  const std::string contents = MakeBlock(kv, 4);
  for (size_t n = 0; n <= contents.size(); ++n) {
    // Copy to a buffer of exactly n bytes so ASan catches any overread.
    std::string cut = contents.substr(0, n);
    cut.shrink_to_fit();
    absl::StatusOr<Block> block = Block::Parse(cut);
    if (!block.ok()) continue;
    BlockIterator it(*block);
    for (it.SeekToFirst(); it.Valid(); it.Next()) {
    }
    it.Seek("k50", BytewiseCompare);
  }
  for (size_t bit = 0; bit < 8 * contents.size(); ++bit) {
    std::string flipped = contents;
    flipped[bit / 8] ^= static_cast<char>(1 << (bit % 8));
    absl::StatusOr<Block> block = Block::Parse(flipped);
    if (!block.ok()) continue;
    BlockIterator it(*block);
    int steps = 0;
    for (it.SeekToFirst(); it.Valid() && steps < 1000; it.Next()) ++steps;
    EXPECT_LT(steps, 1000) << "iteration must end";
    it.Seek("k50", BytewiseCompare);
  }
}

TEST(MetaIndexTest, FindsFilterAndProperties) {
  std::string filter_handle, props_handle;
  EncodeBlockHandle({100, 40}, &filter_handle);
  EncodeBlockHandle({145, 30}, &props_handle);
  const std::string contents =
      MakeBlock({{"fullfilter.rocksdb.BuiltinBloomFilter", filter_handle},
                 {"rocksdb.properties", props_handle}});
  absl::StatusOr<MetaIndex> meta = ParseMetaIndex(contents);
  ASSERT_TRUE(meta.ok()) << meta.status();
  ASSERT_TRUE(meta->filter.has_value());
  EXPECT_EQ(meta->filter->layout, FilterLayout::kFull);
  EXPECT_EQ(meta->filter->policy_name, "rocksdb.BuiltinBloomFilter");
  EXPECT_EQ(meta->filter->handle.offset, 100u);
  ASSERT_TRUE(meta->properties.has_value());
  EXPECT_EQ(meta->properties->offset, 145u);
}

TEST(MetaIndexTest, MalformedHandleIsDataLoss) {
  const std::string contents =
      MakeBlock({{"filter.leveldb.BuiltinBloomFilter2", "\xff\xff"}});
  EXPECT_TRUE(absl::IsDataLoss(ParseMetaIndex(contents).status()));
}

TEST(PropertiesTest, ReadsNumbersAndFlags) {
  std::string entries, filter_entries;
  PutVarint64(&entries, 12345);
  PutVarint64(&filter_entries, 12000);
  const std::string contents = MakeBlock({
      {"rocksdb.block.based.table.whole.key.filtering", "0"},
      {"rocksdb.comparator", "leveldb.BytewiseComparator"},
      {"rocksdb.num.entries", entries},
      {"rocksdb.num.filter_entries", filter_entries},
  });
  absl::StatusOr<TableProperties> props = ParseProperties(contents);
  ASSERT_TRUE(props.ok()) << props.status();
  EXPECT_EQ(props->num_entries, 12345u);
  EXPECT_EQ(props->num_filter_entries, 12000u);
  EXPECT_EQ(props->whole_key_filtering, false);
  EXPECT_EQ(props->comparator, "leveldb.BytewiseComparator");
}

}  // namespace
}  // namespace sstfilter
