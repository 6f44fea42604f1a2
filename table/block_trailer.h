// The 5 bytes that follow every block of a LevelDB or RocksDB block-based
// table: how the contents are compressed, and a checksum that covers them.
//
//   [contents: n bytes][type: 1 byte][fixed32 checksum of contents + type]
//
// LevelDB's checksum is always the masked CRC32C; a RocksDB footer names its
// checksum type (RocksDB 7.8.3 writes XXH3 by default). Facts: LevelDB's
// doc/table_format.md and table/format.cc; RocksDB 7.8.3 table/format.cc
// (ComputeBuiltinChecksumWithLastByte).

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

// The checksum that the trailer of contents with this compression type byte
// holds:
//   CRC32C    crc32c::Mask(CRC32C(contents + type))
//   xxHash    XXH32(contents + type, seed 0)
//   xxHash64  low 32 bits of XXH64(contents + type, seed 0)
//   XXH3      low 32 bits of XXH3_64(contents) ^ type * 0x6b9083d9
// REQUIRES: IsVerifiableChecksum(checksum_type).
uint32_t BlockChecksum(absl::string_view contents, uint8_t type,
                       ChecksumType checksum_type);

// Appends the trailer (type byte and checksum) for the contents already in
// *block, making it a block as it sits in a table file.
void AppendBlockTrailer(CompressionType type, ChecksumType checksum_type,
                        std::string* block);

// Checks the trailer that follows contents. Returns DataLossError naming
// what, and both checksums, on a mismatch.
// REQUIRES: trailer.size() == kBlockTrailerBytes and
// IsVerifiableChecksum(checksum_type).
absl::Status VerifyBlockTrailer(absl::string_view what,
                                absl::string_view contents,
                                absl::string_view trailer,
                                ChecksumType checksum_type);

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
    std::string* scratch);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_BLOCK_TRAILER_H_
