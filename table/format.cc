#include "table/format.h"

#include "absl/strings/str_format.h"
#include "table/block_trailer.h"
#include "util/coding.h"

namespace sstfilter {
namespace {

constexpr size_t kMagicBytes = 8;          // fixed64 at the very end
constexpr size_t kFormatVersionBytes = 4;  // fixed32 before RocksDB's magic
constexpr size_t kChecksumTypeBytes = 1;   // first byte of RocksDB's footer

absl::Status CheckHandle(const char* what, const BlockHandle& handle,
                         uint64_t limit) {
  if (BlockFits(handle, limit)) return absl::OkStatus();
  return absl::DataLossError(absl::StrFormat(
      "%s handle (offset %d, size %d) points outside the file's %d bytes of "
      "blocks",
      what, handle.offset, handle.size, limit));
}

}  // namespace

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
      const absl::string_view footer_bytes =
          tail.substr(tail.size() - kRocksDbFooterBytes);
      footer.checksum_type = static_cast<uint8_t>(footer_bytes[0]);
      handles = footer_bytes.substr(kChecksumTypeBytes);
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
  if (absl::Status s = DecodeBlockHandle(&handles, &footer.metaindex);
      !s.ok()) {
    return absl::DataLossError("footer: malformed metaindex handle");
  }
  if (absl::Status s = DecodeBlockHandle(&handles, &footer.index); !s.ok()) {
    return absl::DataLossError("footer: malformed index handle");
  }
  const uint64_t footer_bytes = footer.format == TableFormat::kLevelDb
                                    ? kLevelDbFooterBytes
                                    : kRocksDbFooterBytes;
  const uint64_t blocks_end = file_size - footer_bytes;
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

std::string EncodeFooter(const Footer& footer) {
  std::string out;
  if (footer.format == TableFormat::kRocksDb) {
    out.push_back(static_cast<char>(footer.checksum_type));
  }
  const size_t handles_start = out.size();
  EncodeBlockHandle(footer.metaindex, &out);
  EncodeBlockHandle(footer.index, &out);
  out.resize(handles_start + 2 * kMaxBlockHandleBytes, '\0');  // padding
  if (footer.format == TableFormat::kRocksDb) {
    PutFixed32(&out, footer.format_version);
    PutFixed64(&out, kRocksDbBlockBasedTableMagic);
  } else {
    PutFixed64(&out, kLevelDbTableMagic);
  }
  return out;
}

}  // namespace sstfilter
