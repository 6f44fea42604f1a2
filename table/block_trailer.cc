#include "table/block_trailer.h"

#include <snappy.h>
// The state structs, so the streaming hashes need no allocation.
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace sstfilter {
namespace {

// Snappy's densest element copies 64 bytes for a 3-byte tag (its
// format_description.txt), so n compressed bytes expand to less than
// 22 n. Anything claiming more is corrupt.
constexpr uint64_t kMaxSnappyExpansion = 22;

// RocksDB mixes the compression type into an XXH3 checksum with this
// multiplier instead of hashing one more byte (table/format.cc,
// ModifyChecksumForLastByte).
constexpr uint32_t kXxh3LastByteMultiplier = 0x6b9083d9;

}  // namespace

const char* CompressionTypeName(uint8_t type) {
  switch (static_cast<CompressionType>(type)) {
    case CompressionType::kNone:
      return "none";
    case CompressionType::kSnappy:
      return "Snappy";
    case CompressionType::kZlib:
      return "zlib";
    case CompressionType::kBzip2:
      return "bzip2";
    case CompressionType::kLz4:
      return "LZ4";
    case CompressionType::kLz4hc:
      return "LZ4HC";
    case CompressionType::kXpress:
      return "Xpress";
    case CompressionType::kZstd:
      return "ZSTD";
  }
  return "unknown";
}

bool IsVerifiableChecksum(uint8_t checksum_type) {
  switch (static_cast<ChecksumType>(checksum_type)) {
    case ChecksumType::kCrc32c:
    case ChecksumType::kXxHash:
    case ChecksumType::kXxHash64:
    case ChecksumType::kXxh3:
      return true;
    case ChecksumType::kNone:
      break;
  }
  return false;
}

uint32_t BlockChecksum(absl::string_view contents, uint8_t type,
                       ChecksumType checksum_type) {
  const char type_byte = static_cast<char>(type);
  switch (checksum_type) {
    case ChecksumType::kCrc32c: {
      const uint32_t crc = crc32c::Value(contents.data(), contents.size());
      return crc32c::Mask(crc32c::Extend(crc, &type_byte, 1));
    }
    case ChecksumType::kXxHash: {
      XXH32_state_t state;
      XXH32_reset(&state, 0);
      XXH32_update(&state, contents.data(), contents.size());
      XXH32_update(&state, &type_byte, 1);
      return XXH32_digest(&state);
    }
    case ChecksumType::kXxHash64: {
      XXH64_state_t state;
      XXH64_reset(&state, 0);
      XXH64_update(&state, contents.data(), contents.size());
      XXH64_update(&state, &type_byte, 1);
      return static_cast<uint32_t>(XXH64_digest(&state));
    }
    case ChecksumType::kXxh3:
      return static_cast<uint32_t>(
                 XXH3_64bits(contents.data(), contents.size())) ^
             (uint32_t{type} * kXxh3LastByteMultiplier);
    case ChecksumType::kNone:
      break;
  }
  return 0;
}

uint32_t ChecksumModifierForContext(uint32_t base, uint64_t offset) {
  if (base == 0) return 0;
  return base ^
         (static_cast<uint32_t>(offset) + static_cast<uint32_t>(offset >> 32));
}

uint32_t StoredBlockChecksum(absl::string_view contents, uint8_t type,
                             ChecksumType checksum_type,
                             const BlockChecksumContext& context) {
  return BlockChecksum(contents, type, checksum_type) +
         ChecksumModifierForContext(context.base, context.offset);
}

BlockChecksumContext ContextOf(const Footer& footer,
                               const BlockHandle& handle) {
  return {footer.base_context_checksum, handle.offset};
}

void AppendBlockTrailer(CompressionType type, ChecksumType checksum_type,
                        std::string* block,
                        const BlockChecksumContext& context) {
  const uint8_t type_byte = static_cast<uint8_t>(type);
  const uint32_t checksum =
      StoredBlockChecksum(*block, type_byte, checksum_type, context);
  block->push_back(static_cast<char>(type_byte));
  PutFixed32(block, checksum);
}

absl::Status VerifyBlockTrailer(absl::string_view what,
                                absl::string_view contents,
                                absl::string_view trailer,
                                ChecksumType checksum_type,
                                const BlockChecksumContext& context) {
  const uint8_t type = static_cast<uint8_t>(trailer[0]);
  const uint32_t stored = DecodeFixed32(trailer.data() + 1);
  const uint32_t builtin = BlockChecksum(contents, type, checksum_type);
  const uint32_t actual =
      builtin + ChecksumModifierForContext(context.base, context.offset);
  if (stored == actual) return absl::OkStatus();
  const char* const name =
      ChecksumTypeName(static_cast<uint8_t>(checksum_type));
  if (context.base != 0 && stored == builtin) {
    return absl::DataLossError(absl::StrFormat(
        "%s block at offset %d: %s checksum 0x%08x leaves out the "
        "format_version 6 context (base 0x%08x, expected 0x%08x), as "
        "format_versions before 6 checksum blocks",
        what, context.offset, name, stored, context.base, actual));
  }
  return absl::DataLossError(absl::StrFormat(
      "%s block: %s checksum mismatch (stored 0x%08x, computed 0x%08x over "
      "%d bytes%s)",
      what, name, stored, actual, contents.size(),
      context.base == 0 ? ""
                        : absl::StrFormat(" at offset %d, context base 0x%08x",
                                          context.offset, context.base)));
}

absl::StatusOr<absl::string_view> UncompressBlock(absl::string_view what,
                                                  uint8_t type,
                                                  absl::string_view contents,
                                                  std::string* scratch) {
  switch (static_cast<CompressionType>(type)) {
    case CompressionType::kNone:
      return contents;
    case CompressionType::kSnappy: {
      size_t length = 0;
      if (!snappy::GetUncompressedLength(contents.data(), contents.size(),
                                         &length) ||
          length > kMaxSnappyExpansion * contents.size()) {
        return absl::DataLossError(
            absl::StrFormat("%s block: corrupt Snappy length header", what));
      }
      scratch->resize(length);
      if (!snappy::RawUncompress(contents.data(), contents.size(),
                                 scratch->data())) {
        return absl::DataLossError(
            absl::StrFormat("%s block: corrupt Snappy data", what));
      }
      return absl::string_view(*scratch);
    }
    default:
      return absl::UnimplementedError(absl::StrFormat(
          "%s block: compression type %d (%s) is not supported: only none "
          "and Snappy are",
          what, type, CompressionTypeName(type)));
  }
}

absl::StatusOr<absl::string_view> VerifiedBlockContents(
    absl::string_view what, absl::string_view raw, ChecksumType checksum_type,
    std::string* scratch, const BlockChecksumContext& context) {
  if (raw.size() < kBlockTrailerBytes) {
    return absl::DataLossError(
        absl::StrCat(what, ": ", raw.size(), " bytes, shorter than a trailer"));
  }
  const absl::string_view contents =
      raw.substr(0, raw.size() - kBlockTrailerBytes);
  const absl::string_view trailer = raw.substr(raw.size() - kBlockTrailerBytes);
  if (absl::Status s =
          VerifyBlockTrailer(what, contents, trailer, checksum_type, context);
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

}  // namespace sstfilter
