// The 5 bytes that follow every block of a LevelDB or RocksDB block-based
// table: how the contents are compressed, and a checksum that covers them.
//
//   [contents: n bytes][type: 1 byte][fixed32 checksum of contents + type]
//
// LevelDB's checksum is always the masked CRC32C; a RocksDB footer names its
// checksum type, and from format_version 6 the stored checksum also depends
// on the block's offset (BlockChecksumContext). table/table_format.md has
// each type's formula and the host source it comes from.

#ifndef SSTFILTER_TABLE_BLOCK_TRAILER_H_
#define SSTFILTER_TABLE_BLOCK_TRAILER_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "table/format.h"

namespace sstfilter {

constexpr size_t kBlockTrailerBytes = 5;  // type byte + fixed32 checksum

// The compression type byte (LevelDB: 0 and 1; RocksDB's CompressionType
// adds the rest). Filter blocks are never compressed by either.
enum class CompressionType : uint8_t {
  kNone = 0,
  kSnappy = 1,
  kZlib = 2,
  kBzip2 = 3,
  kLz4 = 4,
  kLz4hc = 5,
  kXpress = 6,
  kZstd = 7,
};
// "none", "Snappy", ..., or "unknown".
const char* CompressionTypeName(uint8_t type);

// Whether blocks checksummed this way can be verified: CRC32C, xxHash,
// xxHash64 and XXH3 (not "none", which leaves nothing to verify).
bool IsVerifiableChecksum(uint8_t checksum_type);

// The builtin checksum of contents followed by this compression type byte:
//   CRC32C    crc32c::Mask(CRC32C(contents + type))
//   xxHash    XXH32(contents + type, seed 0)
//   xxHash64  low 32 bits of XXH64(contents + type, seed 0)
//   XXH3      low 32 bits of XXH3_64(contents) ^ type * 0x6b9083d9
// It is the checksum of contents + type as one buffer for every type (for
// XXH3, RocksDB defines the checksum of a buffer that way: all but its last
// byte hashed, the last byte mixed in), so RocksDB's footer checksum uses it
// too. REQUIRES: IsVerifiableChecksum(checksum_type).
uint32_t BlockChecksum(absl::string_view contents, uint8_t type,
                       ChecksumType checksum_type);

// Where a block is, for RocksDB format_version 6's checksums: the file's base
// context checksum (Footer::base_context_checksum) and the block's offset.
// The default, base 0, is every other format: checksums ignore offsets.
struct BlockChecksumContext {
  uint32_t base = 0;
  uint64_t offset = 0;
};

// What a block's stored checksum adds (mod 2^32) to BlockChecksum:
// 0 when base is 0, else base ^ (low 32 bits of offset + high 32 bits).
// RocksDB 9.7.4 table/format.h, ChecksumModifierForContext.
uint32_t ChecksumModifierForContext(uint32_t base, uint64_t offset);

// The checksum a trailer stores: BlockChecksum plus the context's modifier.
uint32_t StoredBlockChecksum(absl::string_view contents, uint8_t type,
                             ChecksumType checksum_type,
                             const BlockChecksumContext& context);

// Appends the trailer (type byte and checksum) for the contents already in
// *block, making it a block as it sits in a table file at context.offset.
void AppendBlockTrailer(CompressionType type, ChecksumType checksum_type,
                        std::string* block,
                        const BlockChecksumContext& context = {});

// Checks the trailer that follows contents, for a block at context.offset
// of a file with context.base. Returns DataLossError naming what, and both
// checksums, on a mismatch (saying so when the checksum would match without
// the context: a block checksummed as format_versions before 6 do).
// REQUIRES: trailer.size() == kBlockTrailerBytes and
// IsVerifiableChecksum(checksum_type).
absl::Status VerifyBlockTrailer(absl::string_view what,
                                absl::string_view contents,
                                absl::string_view trailer,
                                ChecksumType checksum_type,
                                const BlockChecksumContext& context = {});

// The contents of a block whose trailer says `type`: contents itself for
// kNone (*scratch untouched), else the uncompressed bytes, held in *scratch.
// Snappy is read; other types are UnimplementedError naming them; corrupt
// compressed data is DataLossError. An uncompressed length beyond what
// Snappy's encoding can reach from contents.size() bytes is refused as
// corruption rather than allocated.
absl::StatusOr<absl::string_view> UncompressBlock(absl::string_view what,
                                                  uint8_t type,
                                                  absl::string_view contents,
                                                  std::string* scratch);

// A block as it sits in the file (contents, then the trailer) verified
// against its trailer and uncompressed: both steps above, the contents or
// *scratch holding the uncompressed bytes. Errors as above; a block shorter
// than its trailer is DataLossError.
absl::StatusOr<absl::string_view> VerifiedBlockContents(
    absl::string_view what, absl::string_view raw, ChecksumType checksum_type,
    std::string* scratch, const BlockChecksumContext& context = {});

// The context of the block at handle in a file with this footer.
BlockChecksumContext ContextOf(const Footer& footer, const BlockHandle& handle);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_BLOCK_TRAILER_H_
