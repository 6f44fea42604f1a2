// RocksDB format_version 6 (RocksDB 9.7.4 table/format.cc, "Footer format,
// in three parts"; table/format.h, ChecksumModifierForContext): the footer's
// own checksum, its fields and reserved bytes, and block trailers whose
// checksums depend on the block's offset. The expected checksums are computed
// here from the hash functions themselves, not through BlockChecksum, and
// checked against the tails of tables RocksDB 9.7.4 wrote.

#include <xxhash.h>

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "table/block_trailer.h"
#include "table/format.h"
#include "table/meta_blocks.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace sstfilter {
namespace {

constexpr ChecksumType kAllTypes[] = {
    ChecksumType::kCrc32c, ChecksumType::kXxHash, ChecksumType::kXxHash64,
    ChecksumType::kXxh3};

// Byte positions in the 53-byte footer (RocksDB 9.7.4 table/format.cc).
constexpr size_t kChecksumTypeAt = 0;
constexpr size_t kChecksumAt = 5;
constexpr size_t kBaseAt = 9;
constexpr size_t kMetaIndexSizeAt = 13;
constexpr size_t kIgnoredReservedAt = 17;
constexpr size_t kZeroReservedAt = 33;
constexpr size_t kFormatVersionAt = 41;
constexpr size_t kMagicAt = 45;

// RocksDB 9.7.4 table/format.cc, ComputeBuiltinChecksum over a whole buffer.
uint32_t BuiltinChecksum(ChecksumType type, absl::string_view data) {
  switch (type) {
    case ChecksumType::kCrc32c:
      return crc32c::Mask(crc32c::Value(data.data(), data.size()));
    case ChecksumType::kXxHash:
      return XXH32(data.data(), data.size(), 0);
    case ChecksumType::kXxHash64:
      return static_cast<uint32_t>(XXH64(data.data(), data.size(), 0));
    case ChecksumType::kXxh3:
      return static_cast<uint32_t>(XXH3_64bits(data.data(), data.size() - 1)) ^
             (static_cast<uint8_t>(data.back()) * uint32_t{0x6b9083d9});
    case ChecksumType::kNone:
      break;
  }
  return 0;
}

uint32_t Modifier(uint32_t base, uint64_t offset) {
  return base == 0 ? 0
                   : base ^ (static_cast<uint32_t>(offset) +
                             static_cast<uint32_t>(offset >> 32));
}

// Stores the checksum the footer's bytes (whatever they are) call for at
// footer_offset.
void Reseal(std::string* footer, uint64_t footer_offset) {
  const ChecksumType type = static_cast<ChecksumType>((*footer)[0]);
  EncodeFixed32(&(*footer)[kChecksumAt], 0);
  const uint32_t base = DecodeFixed32(footer->data() + kBaseAt);
  EncodeFixed32(&(*footer)[kChecksumAt],
                BuiltinChecksum(type, *footer) + Modifier(base, footer_offset));
}

// A format_version 6 footer and the file offset it is written at. The offset
// is past 4 GiB, so that the modifier's high half counts; only the tail is
// held, as DecodeFooter reads it.
struct Fv6 {
  Footer footer;
  uint64_t footer_offset = (uint64_t{1} << 32) + 12345;
  std::string bytes;  // the 53 footer bytes

  explicit Fv6(ChecksumType type, uint32_t metaindex_size = 777) {
    footer.format = TableFormat::kRocksDb;
    footer.format_version = 6;
    footer.checksum_type = static_cast<uint8_t>(type);
    footer.base_context_checksum = 0x8badf00d;
    footer.metaindex = {footer_offset - kBlockTrailerBytes - metaindex_size,
                        metaindex_size};
    bytes = EncodeFooter(footer);
  }
  uint64_t file_size() const { return footer_offset + kRocksDbFooterBytes; }
  absl::StatusOr<Footer> Decode(const std::string& footer_bytes) const {
    return DecodeFooter(std::string(100, 'x') + footer_bytes, file_size());
  }
};

TEST(ContextFooterTest, BytesAreRocksDbsLayout) {
  for (ChecksumType type : kAllTypes) {
    SCOPED_TRACE(ChecksumTypeName(static_cast<uint8_t>(type)));
    const Fv6 fv6(type);
    const std::string& b = fv6.bytes;
    ASSERT_EQ(b.size(), kRocksDbFooterBytes);
    EXPECT_EQ(static_cast<uint8_t>(b[kChecksumTypeAt]),
              static_cast<uint8_t>(type));
    EXPECT_EQ(b.substr(1, 4), std::string("\x3e\x00\x7a\x00", 4));
    EXPECT_EQ(DecodeFixed32(b.data() + kBaseAt), 0x8badf00du);
    EXPECT_EQ(DecodeFixed32(b.data() + kMetaIndexSizeAt), 777u);
    EXPECT_EQ(b.substr(kIgnoredReservedAt, 24), std::string(24, '\0'));
    EXPECT_EQ(DecodeFixed32(b.data() + kFormatVersionAt), 6u);
    EXPECT_EQ(DecodeFixed64(b.data() + kMagicAt), kRocksDbBlockBasedTableMagic);
    std::string zeroed = b;
    EncodeFixed32(&zeroed[kChecksumAt], 0);
    EXPECT_EQ(DecodeFixed32(b.data() + kChecksumAt),
              BuiltinChecksum(type, zeroed) +
                  Modifier(0x8badf00d, fv6.footer_offset));
  }
}

TEST(ContextFooterTest, RoundTrip) {
  for (ChecksumType type : kAllTypes) {
    SCOPED_TRACE(ChecksumTypeName(static_cast<uint8_t>(type)));
    const Fv6 fv6(type);
    absl::StatusOr<Footer> decoded = fv6.Decode(fv6.bytes);
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    EXPECT_EQ(decoded->format_version, 6u);
    EXPECT_EQ(decoded->checksum_type, static_cast<uint8_t>(type));
    EXPECT_EQ(decoded->base_context_checksum, 0x8badf00du);
    EXPECT_EQ(decoded->metaindex.offset, fv6.footer.metaindex.offset);
    EXPECT_EQ(decoded->metaindex.size, 777u);
    EXPECT_FALSE(FooterHoldsIndexHandle(*decoded));
  }
}

// Every changed byte is refused: as DataLoss, or, where it makes the footer
// name a format_version, checksum type or magic this library does not read,
// as Unimplemented (a damaged file is never read as a table).
TEST(ContextFooterTest, EveryChangedByteIsRefused) {
  for (ChecksumType type : kAllTypes) {
    SCOPED_TRACE(ChecksumTypeName(static_cast<uint8_t>(type)));
    const Fv6 fv6(type);
    for (size_t at = 0; at < kRocksDbFooterBytes; ++at) {
      for (int bit = 0; bit < 8; ++bit) {
        std::string damaged = fv6.bytes;
        damaged[at] ^= static_cast<char>(1 << bit);
        const absl::Status status = fv6.Decode(damaged).status();
        const bool names_a_kind =
            at == kChecksumTypeAt || at >= kFormatVersionAt;
        if (names_a_kind && absl::IsUnimplemented(status)) continue;
        EXPECT_TRUE(absl::IsDataLoss(status))
            << "byte " << at << " bit " << bit << ": " << status;
      }
    }
  }
}

TEST(ContextFooterTest, FooterAtAnotherOffsetIsDataLoss) {
  const Fv6 fv6(ChecksumType::kXxh3);
  for (uint64_t shift : {uint64_t{1}, uint64_t{1} << 32}) {
    const absl::Status status =
        DecodeFooter(fv6.bytes, fv6.file_size() + shift).status();
    EXPECT_TRUE(absl::IsDataLoss(status)) << status;
    EXPECT_NE(status.message().find("checksum mismatch"), std::string::npos)
        << status;
  }
}

// Footers whose checksum is right but whose fields are not: each refused as
// RocksDB 9.7.4's Footer::DecodeFrom refuses it.
TEST(ContextFooterTest, SealedButWrongFields) {
  const Fv6 fv6(ChecksumType::kCrc32c);
  struct Case {
    const char* name;
    size_t at;
    char value;
    absl::StatusCode code;
    const char* message;
  };
  const Case cases[] = {
      {"extended magic", 2, '\x01', absl::StatusCode::kDataLoss,
       "extended magic"},
      {"last reserved byte", kZeroReservedAt + 7, '\x01',
       absl::StatusCode::kUnimplemented, "reserved bytes 33..40"},
      {"first checked reserved byte", kZeroReservedAt, '\x80',
       absl::StatusCode::kUnimplemented, "reserved"},
      {"metaindex size past the file's start", kMetaIndexSizeAt + 3, '\xff',
       absl::StatusCode::kDataLoss, "does not fit"},
  };
  for (const Case& c : cases) {
    // A small file for the metaindex size, so that it cannot fit.
    const uint64_t file_size =
        c.at == kMetaIndexSizeAt + 3 ? 1000 : fv6.file_size();
    std::string bytes = fv6.bytes;
    bytes[c.at] = c.value;
    Reseal(&bytes, file_size - kRocksDbFooterBytes);
    const absl::Status status =
        DecodeFooter(std::string(100, 'x') + bytes, file_size).status();
    EXPECT_EQ(status.code(), c.code) << c.name << ": " << status;
    EXPECT_NE(status.message().find(c.message), std::string::npos)
        << c.name << ": " << status;
  }

  std::string zero_base = fv6.bytes;
  EncodeFixed32(&zero_base[kBaseAt], 0);
  Reseal(&zero_base, fv6.footer_offset);
  const absl::Status status = fv6.Decode(zero_base).status();
  EXPECT_TRUE(absl::IsDataLoss(status)) << status;
  EXPECT_NE(status.message().find("base context checksum is 0"),
            std::string::npos)
      << status;

  // RocksDB ignores the first 16 reserved bytes: so does this library.
  std::string ignored = fv6.bytes;
  ignored[kIgnoredReservedAt] = 'r';
  ignored[kIgnoredReservedAt + 15] = 'r';
  Reseal(&ignored, fv6.footer_offset);
  EXPECT_TRUE(fv6.Decode(ignored).ok()) << fv6.Decode(ignored).status();
}

// A format_version 6 footer whose format_version lost a bit reads as an
// older footer whose handles are the extended magic: refused by name.
TEST(ContextFooterTest, DamagedFormatVersionIsNamed) {
  const Fv6 fv6(ChecksumType::kXxh3);
  for (uint32_t version : {2u, 4u}) {
    std::string bytes = fv6.bytes;
    EncodeFixed32(&bytes[kFormatVersionAt], version);
    const absl::Status status = fv6.Decode(bytes).status();
    EXPECT_TRUE(absl::IsDataLoss(status)) << status;
    EXPECT_NE(status.message().find("damaged format_version"),
              std::string::npos)
        << status;
  }
}

TEST(ContextChecksumTest, ModifierIsRocksDbs) {
  EXPECT_EQ(ChecksumModifierForContext(0, 12345), 0u);
  EXPECT_EQ(ChecksumModifierForContext(0x12345678, 0), 0x12345678u);
  EXPECT_EQ(ChecksumModifierForContext(0x12345678, 0x100000002),
            0x12345678u ^ 3u);
  EXPECT_EQ(ChecksumModifierForContext(1, 0xffffffffffffffff),
            1u ^ 0xfffffffeu);
}

TEST(ContextChecksumTest, TrailerAddsTheModifier) {
  for (ChecksumType type : kAllTypes) {
    SCOPED_TRACE(ChecksumTypeName(static_cast<uint8_t>(type)));
    const BlockChecksumContext context{0xabcdef01, 4096};
    std::string block = "block contents";
    const std::string contents = block;
    AppendBlockTrailer(CompressionType::kNone, type, &block, context);
    const std::string with_type = contents + std::string(1, '\0');
    EXPECT_EQ(DecodeFixed32(block.data() + contents.size() + 1),
              BuiltinChecksum(type, with_type) + Modifier(0xabcdef01, 4096));
  }
}

// A block checksummed without its context (as before format_version 6), or
// for another offset, fails in a format_version 6 file; and a block
// checksummed with a context fails where there is none.
TEST(ContextChecksumTest, BlockOutOfContextIsDataLoss) {
  for (ChecksumType type : kAllTypes) {
    SCOPED_TRACE(ChecksumTypeName(static_cast<uint8_t>(type)));
    const BlockChecksumContext context{0x5eed1e55, 70000};
    std::string block = "a filter, say";
    const size_t n = block.size();
    std::string without = block;
    AppendBlockTrailer(CompressionType::kNone, type, &block, context);
    AppendBlockTrailer(CompressionType::kNone, type, &without);
    auto verify = [&](const std::string& raw, const BlockChecksumContext& c) {
      const absl::string_view view = raw;
      return VerifyBlockTrailer("filter", view.substr(0, n), view.substr(n),
                                type, c);
    };
    EXPECT_TRUE(verify(block, context).ok());
    EXPECT_TRUE(verify(without, {}).ok());
    const absl::Status stale = verify(without, context);
    EXPECT_TRUE(absl::IsDataLoss(stale)) << stale;
    EXPECT_NE(stale.message().find("leaves out the format_version 6 context"),
              std::string::npos)
        << stale;
    EXPECT_TRUE(absl::IsDataLoss(verify(block, {})));
    for (uint64_t moved : {context.offset + 1, context.offset - 4096,
                           context.offset + (uint64_t{1} << 32)}) {
      const absl::Status status = verify(block, {context.base, moved});
      EXPECT_TRUE(absl::IsDataLoss(status)) << moved << ": " << status;
    }
    EXPECT_TRUE(absl::IsDataLoss(verify(block, {context.base + 1, 70000})));
  }
}

// The last 166 bytes (metaindex, its trailer, footer) of 84,583-byte tables
// RocksDB 9.7.4's SstFileWriter wrote at format_version 6 (3,000 keys, its
// Bloom filter at 10 bits/key, 1 KiB blocks, no compression), one per
// checksum type: a reader and encoder checked against RocksDB's own bytes.
struct RocksDbTail {
  ChecksumType checksum;
  const char* hex;
};
constexpr uint64_t kRocksDbFileBytes = 84583;
constexpr uint64_t kRocksDbMetaIndexBytes = 108;
const RocksDbTail kRocksDbTails[] = {
    {ChecksumType::kCrc32c,
     "00250566756c6c66696c7465722e726f636b7364622e4275696c74696e426c6f"
     "6f6d46696c746572fee104c51d000d05726f636b7364622e696e646578c8ff04"
     "d30c001205726f636b7364622e70726f70657274696573a08c059c0700000000"
     "2d0000004200000003000000002b8a2d0d013e007a001eb94e9e314e58216c00"
     "000000000000000000000000000000000000000000000000000006000000f7cf"
     "f485b741e288"},
    {ChecksumType::kXxHash,
     "00250566756c6c66696c7465722e726f636b7364622e4275696c74696e426c6f"
     "6f6d46696c746572fee104c51d000d05726f636b7364622e696e646578c8ff04"
     "d30c001205726f636b7364622e70726f70657274696573a08c059c0700000000"
     "2d0000004200000003000000000b12b2c0023e007a0067bd9c3a1184752c6c00"
     "000000000000000000000000000000000000000000000000000006000000f7cf"
     "f485b741e288"},
    {ChecksumType::kXxHash64,
     "00250566756c6c66696c7465722e726f636b7364622e4275696c74696e426c6f"
     "6f6d46696c746572fee104c51d000d05726f636b7364622e696e646578c8ff04"
     "d30c001205726f636b7364622e70726f70657274696573a08c059c0700000000"
     "2d0000004200000003000000008ca2ccb6033e007a0051dcaef9e48e31576c00"
     "000000000000000000000000000000000000000000000000000006000000f7cf"
     "f485b741e288"},
    {ChecksumType::kXxh3,
     "00250566756c6c66696c7465722e726f636b7364622e4275696c74696e426c6f"
     "6f6d46696c746572fee104c51d000d05726f636b7364622e696e646578c8ff04"
     "d30c001205726f636b7364622e70726f70657274696573a08c059c0700000000"
     "2d000000420000000300000000f804577f043e007a00e13f3a3b74479c766c00"
     "000000000000000000000000000000000000000000000000000006000000f7cf"
     "f485b741e288"},
};

TEST(RocksDb974TableTest, FooterAndMetaIndexVerify) {
  for (const RocksDbTail& golden : kRocksDbTails) {
    SCOPED_TRACE(ChecksumTypeName(static_cast<uint8_t>(golden.checksum)));
    const std::string tail = absl::HexStringToBytes(golden.hex);
    absl::StatusOr<Footer> footer = DecodeFooter(tail, kRocksDbFileBytes);
    ASSERT_TRUE(footer.ok()) << footer.status();
    EXPECT_EQ(footer->format_version, 6u);
    EXPECT_EQ(footer->checksum_type, static_cast<uint8_t>(golden.checksum));
    EXPECT_NE(footer->base_context_checksum, 0u);
    const uint64_t tail_offset = kRocksDbFileBytes - tail.size();
    EXPECT_EQ(footer->metaindex.offset, tail_offset);
    EXPECT_EQ(footer->metaindex.size, kRocksDbMetaIndexBytes);
    // Our encoder writes RocksDB's footer byte for byte.
    EXPECT_EQ(EncodeFooter(*footer),
              tail.substr(tail.size() - kRocksDbFooterBytes));

    const absl::string_view raw = absl::string_view(tail).substr(
        0, kRocksDbMetaIndexBytes + kBlockTrailerBytes);
    std::string scratch;
    absl::StatusOr<absl::string_view> contents =
        VerifiedBlockContents("metaindex", raw, golden.checksum, &scratch,
                              ContextOf(*footer, footer->metaindex));
    ASSERT_TRUE(contents.ok()) << contents.status();
    absl::StatusOr<MetaIndex> meta = ParseMetaIndex(*contents);
    ASSERT_TRUE(meta.ok()) << meta.status();
    EXPECT_TRUE(meta->index.has_value());
    EXPECT_TRUE(meta->properties.has_value());
    ASSERT_TRUE(meta->filter.has_value());
    EXPECT_EQ(meta->filter->policy_name, "rocksdb.BuiltinBloomFilter");
    absl::StatusOr<BlockHandle> index = IndexHandle(*footer, *meta);
    ASSERT_TRUE(index.ok()) << index.status();
    // Without its context the metaindex's checksum fails.
    EXPECT_TRUE(absl::IsDataLoss(
        VerifiedBlockContents("metaindex", raw, golden.checksum, &scratch)
            .status()));
  }
}

}  // namespace
}  // namespace sstfilter
