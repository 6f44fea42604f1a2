#include "table/format.h"

#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "table/block_trailer.h"
#include "util/coding.h"

namespace sstfilter {
namespace {

constexpr size_t kMagicBytes = 8;          // fixed64 at the very end
constexpr size_t kFormatVersionBytes = 4;  // fixed32 before RocksDB's magic
constexpr size_t kChecksumTypeBytes = 1;   // first byte of RocksDB's footer

// Where format_version 6 keeps its fields, from the footer's first byte
// (format.h draws them).
constexpr size_t kExtendedMagicAt = kChecksumTypeBytes;
constexpr size_t kFooterChecksumAt =
    kExtendedMagicAt + kFooterExtendedMagicBytes;
constexpr size_t kBaseContextChecksumAt = kFooterChecksumAt + 4;
constexpr size_t kMetaIndexSizeAt = kBaseContextChecksumAt + 4;
constexpr size_t kZeroReservedAt =
    kMetaIndexSizeAt + 4 + kFooterIgnoredReservedBytes;
static_assert(kZeroReservedAt + kFooterZeroReservedBytes ==
                  kChecksumTypeBytes + kFooterHandlesBytes,
              "format_version 6 fills exactly the 40 bytes of the handles");

absl::Status CheckHandle(const char* what, const BlockHandle& handle,
                         uint64_t limit) {
  if (BlockFits(handle, limit)) return absl::OkStatus();
  return absl::DataLossError(absl::StrFormat(
      "%s handle (offset %d, size %d) points outside the file's %d bytes of "
      "blocks",
      what, handle.offset, handle.size, limit));
}

// The footer checksum format_version 6 stores for footer_bytes (the 53 bytes,
// its own field ignored) at footer_offset: the builtin checksum of the bytes
// with the field zeroed, plus the context modifier of the footer's offset
// (RocksDB 9.7.4 table/format.cc, FooterBuilder::Build). The builtin
// checksum of a buffer is BlockChecksum of all but its last byte, with that
// byte as the "type" (block_trailer.h).
uint32_t FooterChecksum(absl::string_view footer_bytes, ChecksumType type,
                        uint32_t base, uint64_t footer_offset) {
  std::string zeroed(footer_bytes);
  EncodeFixed32(&zeroed[kFooterChecksumAt], 0);
  const absl::string_view all = zeroed;
  return StoredBlockChecksum(all.substr(0, all.size() - 1),
                             static_cast<uint8_t>(all.back()), type,
                             {base, footer_offset});
}

std::string Hex(absl::string_view bytes) {
  std::string out;
  for (char c : bytes) {
    absl::StrAppendFormat(&out, "%s%02x", out.empty() ? "" : " ",
                          static_cast<uint8_t>(c));
  }
  return out;
}

// Decodes the middle 40 bytes of a format_version 6 footer (footer_bytes:
// all 53, at footer_offset) into *footer, whose checksum type is set.
absl::Status DecodeContextFooter(absl::string_view footer_bytes,
                                 uint64_t footer_offset, Footer* footer) {
  const char* const p = footer_bytes.data();
  const absl::string_view magic =
      footer_bytes.substr(kExtendedMagicAt, kFooterExtendedMagicBytes);
  if (magic !=
      absl::string_view(kFooterExtendedMagic, kFooterExtendedMagicBytes)) {
    return absl::DataLossError(absl::StrFormat(
        "footer at offset %d: format_version 6 extended magic is %s, not %s",
        footer_offset, Hex(magic),
        Hex(absl::string_view(kFooterExtendedMagic,
                              kFooterExtendedMagicBytes))));
  }
  footer->base_context_checksum = DecodeFixed32(p + kBaseContextChecksumAt);
  if (footer->base_context_checksum == 0) {
    return absl::DataLossError(absl::StrFormat(
        "footer at offset %d: base context checksum is 0, which "
        "format_version 6 never writes for a table with block checksums",
        footer_offset));
  }
  const ChecksumType type = static_cast<ChecksumType>(footer->checksum_type);
  const uint32_t stored = DecodeFixed32(p + kFooterChecksumAt);
  const uint32_t computed = FooterChecksum(
      footer_bytes, type, footer->base_context_checksum, footer_offset);
  if (stored != computed) {
    return absl::DataLossError(absl::StrFormat(
        "footer at offset %d: %s checksum mismatch (stored 0x%08x, computed "
        "0x%08x)",
        footer_offset, ChecksumTypeName(footer->checksum_type), stored,
        computed));
  }
  // Checked after the checksum, as RocksDB does: nonzero bytes here with a
  // good checksum were written on purpose, by a later RocksDB.
  const uint64_t reserved = DecodeFixed64(p + kZeroReservedAt);
  if (reserved != 0) {
    return absl::UnimplementedError(absl::StrFormat(
        "footer at offset %d: reserved bytes %d..%d are 0x%016x, not zero: a "
        "feature of a RocksDB later than 9.7.4, unknown to this reader",
        footer_offset, kZeroReservedAt,
        kZeroReservedAt + kFooterZeroReservedBytes - 1, reserved));
  }
  const uint32_t metaindex_size = DecodeFixed32(p + kMetaIndexSizeAt);
  if (footer_offset < uint64_t{metaindex_size} + kBlockTrailerBytes) {
    return absl::DataLossError(absl::StrFormat(
        "footer at offset %d: metaindex of %d bytes (and its trailer) does not "
        "fit before it",
        footer_offset, metaindex_size));
  }
  footer->metaindex = {footer_offset - kBlockTrailerBytes - metaindex_size,
                       metaindex_size};
  return absl::OkStatus();
}

}  // namespace

bool FooterHoldsIndexHandle(const Footer& footer) {
  return footer.format == TableFormat::kLevelDb ||
         footer.format_version < kContextChecksumFormatVersion;
}

bool BlockFits(const BlockHandle& handle, uint64_t limit) {
  if (handle.offset > limit) return false;
  const uint64_t room = limit - handle.offset;
  return handle.size <= room && room - handle.size >= kBlockTrailerBytes;
}

absl::Status DecodeBlockHandle(absl::string_view* input, BlockHandle* handle) {
  absl::string_view rest = *input;
  BlockHandle decoded;
  if (!GetVarint64(&rest, &decoded.offset) ||
      !GetVarint64(&rest, &decoded.size)) {
    return absl::DataLossError("malformed block handle");
  }
  *handle = decoded;
  *input = rest;
  return absl::OkStatus();
}

void EncodeBlockHandle(const BlockHandle& handle, std::string* dst) {
  PutVarint64(dst, handle.offset);
  PutVarint64(dst, handle.size);
}

const char* ChecksumTypeName(uint8_t type) {
  switch (static_cast<ChecksumType>(type)) {
    case ChecksumType::kNone:
      return "none";
    case ChecksumType::kCrc32c:
      return "CRC32C";
    case ChecksumType::kXxHash:
      return "xxHash";
    case ChecksumType::kXxHash64:
      return "xxHash64";
    case ChecksumType::kXxh3:
      return "XXH3";
  }
  return "unknown";
}

absl::StatusOr<Footer> DecodeFooter(absl::string_view tail,
                                    uint64_t file_size) {
  if (file_size < kLevelDbFooterBytes || tail.size() < kLevelDbFooterBytes) {
    return absl::DataLossError(absl::StrFormat(
        "file of %d bytes is too short to be a table (a footer takes %d)",
        file_size, kLevelDbFooterBytes));
  }
  const uint64_t magic = DecodeFixed64(tail.data() + tail.size() - kMagicBytes);
  Footer footer;
  absl::string_view handles;
  absl::string_view rocksdb_footer;  // all 53 bytes, RocksDB's footer only
  switch (magic) {
    case kLevelDbTableMagic:
      footer.format = TableFormat::kLevelDb;
      handles = tail.substr(tail.size() - kLevelDbFooterBytes);
      break;
    case kRocksDbBlockBasedTableMagic: {
      if (file_size < kRocksDbFooterBytes ||
          tail.size() < kRocksDbFooterBytes) {
        return absl::DataLossError(absl::StrFormat(
            "file of %d bytes is too short for a RocksDB footer (%d bytes)",
            file_size, kRocksDbFooterBytes));
      }
      footer.format = TableFormat::kRocksDb;
      const char* end = tail.data() + tail.size();
      footer.format_version =
          DecodeFixed32(end - kMagicBytes - kFormatVersionBytes);
      if (footer.format_version == 0 ||
          footer.format_version > kMaxRocksDbFormatVersion) {
        return absl::UnimplementedError(absl::StrFormat(
            "RocksDB table format_version %d is not supported (1..%d are; 0 "
            "uses LevelDB's footer)",
            footer.format_version, kMaxRocksDbFormatVersion));
      }
      rocksdb_footer = tail.substr(tail.size() - kRocksDbFooterBytes);
      footer.checksum_type = static_cast<uint8_t>(rocksdb_footer[0]);
      handles = rocksdb_footer.substr(kChecksumTypeBytes);
      break;
    }
    case kRocksDbPlainTableMagic:
    case kRocksDbLegacyPlainTableMagic:
      return absl::UnimplementedError(
          "a RocksDB PlainTable file: it has no block-based filter to read");
    case kRocksDbCuckooTableMagic:
      return absl::UnimplementedError(
          "a RocksDB CuckooTable file: it has no block-based filter to read");
    default:
      return absl::DataLossError(absl::StrFormat(
          "not a table: the last 8 bytes (magic 0x%016x) are neither "
          "LevelDB's 0x%016x nor RocksDB's 0x%016x",
          magic, kLevelDbTableMagic, kRocksDbBlockBasedTableMagic));
  }
  if (!IsVerifiableChecksum(footer.checksum_type)) {
    return absl::UnimplementedError(absl::StrFormat(
        "block checksum type %d (%s) is not supported: only CRC32C (1), "
        "xxHash (2), xxHash64 (3) and XXH3 (4) are",
        footer.checksum_type, ChecksumTypeName(footer.checksum_type)));
  }
  const uint64_t footer_bytes = footer.format == TableFormat::kLevelDb
                                    ? kLevelDbFooterBytes
                                    : kRocksDbFooterBytes;
  const uint64_t blocks_end = file_size - footer_bytes;
  if (!FooterHoldsIndexHandle(footer)) {
    if (absl::Status s =
            DecodeContextFooter(rocksdb_footer, blocks_end, &footer);
        !s.ok()) {
      return s;
    }
    return footer;
  }
  if (footer.format == TableFormat::kRocksDb &&
      absl::StartsWith(handles, absl::string_view(kFooterExtendedMagic,
                                                  kFooterExtendedMagicBytes))) {
    // Handles of empty blocks at offsets 62 and 122: format_version 6's
    // extended magic under a damaged format_version (RocksDB 9.7.4
    // table/format.cc chose the magic for this).
    return absl::DataLossError(absl::StrFormat(
        "footer: format_version %d, but the handles hold format_version 6's "
        "extended magic: a damaged format_version",
        footer.format_version));
  }
  if (absl::Status s = DecodeBlockHandle(&handles, &footer.metaindex);
      !s.ok()) {
    return absl::DataLossError("footer: malformed metaindex handle");
  }
  if (absl::Status s = DecodeBlockHandle(&handles, &footer.index); !s.ok()) {
    return absl::DataLossError("footer: malformed index handle");
  }
  if (absl::Status s = CheckHandle("metaindex", footer.metaindex, blocks_end);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckHandle("index", footer.index, blocks_end);
      !s.ok()) {
    return s;
  }
  return footer;
}

namespace {

// The 53 bytes of a format_version 6 footer (format.h).
std::string EncodeContextFooter(const Footer& footer) {
  const uint64_t footer_offset =
      footer.metaindex.offset + footer.metaindex.size + kBlockTrailerBytes;
  std::string out(1, static_cast<char>(footer.checksum_type));
  out.append(kFooterExtendedMagic, kFooterExtendedMagicBytes);
  PutFixed32(&out, 0);  // the checksum, once the rest is in place
  PutFixed32(&out, footer.base_context_checksum);
  PutFixed32(&out, static_cast<uint32_t>(footer.metaindex.size));
  out.append(kFooterIgnoredReservedBytes + kFooterZeroReservedBytes, '\0');
  PutFixed32(&out, footer.format_version);
  PutFixed64(&out, kRocksDbBlockBasedTableMagic);
  EncodeFixed32(
      &out[kFooterChecksumAt],
      FooterChecksum(out, static_cast<ChecksumType>(footer.checksum_type),
                     footer.base_context_checksum, footer_offset));
  return out;
}

}  // namespace

std::string EncodeFooter(const Footer& footer) {
  if (!FooterHoldsIndexHandle(footer)) return EncodeContextFooter(footer);
  std::string out;
  if (footer.format == TableFormat::kRocksDb) {
    out.push_back(static_cast<char>(footer.checksum_type));
  }
  const size_t handles_start = out.size();
  EncodeBlockHandle(footer.metaindex, &out);
  EncodeBlockHandle(footer.index, &out);
  out.resize(handles_start + kFooterHandlesBytes, '\0');  // padding
  if (footer.format == TableFormat::kRocksDb) {
    PutFixed32(&out, footer.format_version);
    PutFixed64(&out, kRocksDbBlockBasedTableMagic);
  } else {
    PutFixed64(&out, kLevelDbTableMagic);
  }
  return out;
}

}  // namespace sstfilter
