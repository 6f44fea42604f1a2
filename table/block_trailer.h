// The 5 bytes that follow every block of a LevelDB or RocksDB block-based
// table: how the contents are compressed, and a checksum that covers them.
//
//   [contents: n bytes][type: 1 byte][fixed32 masked CRC32C of contents + type]
//
// Facts: LevelDB's doc/table_format.md and table/format.cc; RocksDB 7.8.3
// table/format.cc (CRC32C is checksum type 1; both mask it the same way).

#ifndef SSTFILTER_TABLE_BLOCK_TRAILER_H_
#define SSTFILTER_TABLE_BLOCK_TRAILER_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

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

// The masked CRC32C that the trailer of contents with this type byte holds.
uint32_t BlockChecksum(absl::string_view contents, uint8_t type);

// Appends the trailer (type byte and checksum) for the contents already in
// *block, making it a block as it sits in a table file.
void AppendBlockTrailer(CompressionType type, std::string* block);

// Checks the trailer that follows contents. Returns DataLossError naming
// what, and both checksums, on a mismatch.
// REQUIRES: trailer.size() == kBlockTrailerBytes.
absl::Status VerifyBlockTrailer(absl::string_view what,
                                absl::string_view contents,
                                absl::string_view trailer);

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

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_BLOCK_TRAILER_H_
