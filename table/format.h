// The fixed parts of a table file that lead to its filter: block handles and
// the footer, in the encodings LevelDB and RocksDB (format_version 1..6)
// write. The footer points at the metaindex and, up to format_version 5, at
// the index; table/table_format.md draws every byte and names its sources.
//
// Decoders here are total: any bytes in, either a value or a DataLossError
// saying what is wrong (UnimplementedError, naming it, for a valid file of a
// kind this library does not read).

#ifndef SSTFILTER_TABLE_FORMAT_H_
#define SSTFILTER_TABLE_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sstfilter {

// Where a block lies in the file: its contents, not counting the 5-byte block
// trailer that follows them.
struct BlockHandle {
  uint64_t offset = 0;  // bytes from the start of the file
  uint64_t size = 0;    // bytes of contents, trailer excluded
};

// Whether the block at handle, with its 5-byte trailer, lies within the first
// limit bytes of the file (computed without overflow).
bool BlockFits(const BlockHandle& handle, uint64_t limit);

// Encoded as varint64 offset, varint64 size: at most 20 bytes.
constexpr size_t kMaxBlockHandleBytes = 20;

// Decodes a handle from the front of *input and advances past it. Returns
// DataLossError (input unchanged) when the varints are malformed or truncated.
absl::Status DecodeBlockHandle(absl::string_view* input, BlockHandle* handle);
void EncodeBlockHandle(const BlockHandle& handle, std::string* dst);

// Magic numbers, the last 8 bytes of every table (fixed64, little-endian).
// LevelDB's is also RocksDB's "legacy block-based" magic: RocksDB
// format_version 0 writes LevelDB's footer.
constexpr uint64_t kLevelDbTableMagic = 0xdb4775248b80fb57;
constexpr uint64_t kRocksDbBlockBasedTableMagic = 0x88e241b785f4cff7;
// RocksDB table kinds that hold no block-based filter: recognised only to
// name them in an error.
constexpr uint64_t kRocksDbPlainTableMagic = 0x8242229663bf9564;
constexpr uint64_t kRocksDbLegacyPlainTableMagic = 0x4f3418eb7a8f13b8;
constexpr uint64_t kRocksDbCuckooTableMagic = 0x926789d0c5f17873;

// Footer sizes, in bytes. LevelDB (and RocksDB format_version 0): two handles
// padded to 40 bytes, then the magic. RocksDB format_version >= 1: a checksum
// type byte, 40 bytes (format_version 1..5: the two padded handles; 6: see
// below), a fixed32 format_version, the magic.
constexpr size_t kFooterHandlesBytes = 2 * kMaxBlockHandleBytes;         // 40
constexpr size_t kLevelDbFooterBytes = kFooterHandlesBytes + 8;          // 48
constexpr size_t kRocksDbFooterBytes = 1 + kFooterHandlesBytes + 4 + 8;  // 53

// RocksDB format_version 6 (RocksDB 9.7.4 table/format.cc, "Footer format, in
// three parts") fills the footer's 40 middle bytes with:
//   extended magic 3e 00 7a 00 | fixed32 footer checksum |
//   fixed32 base context checksum | fixed32 metaindex size |
//   16 reserved bytes (ignored) | 8 reserved bytes (must be zero)
// The footer checksum is the builtin checksum of the footer's checksum type
// over all 53 footer bytes with its own field zeroed, plus (mod 2^32)
// ChecksumModifierForContext(base, offset of the footer's first byte). The
// metaindex ends right before the footer: its handle is
// {footer offset - 5 - size, size}. Every block's trailer checksum also adds
// ChecksumModifierForContext(base, the block's offset) (block_trailer.h),
// so a block read from the wrong place fails its check.
constexpr char kFooterExtendedMagic[] = {0x3e, 0x00, 0x7a, 0x00};
constexpr size_t kFooterExtendedMagicBytes = sizeof(kFooterExtendedMagic);
constexpr size_t kFooterIgnoredReservedBytes = 16;
constexpr size_t kFooterZeroReservedBytes = 8;

// The first format_version whose blocks' checksums depend on their offset
// and whose footer holds the metaindex size instead of the two handles
// (RocksDB 9.7.4 table/format.h, FormatVersionUsesContextChecksum and
// FormatVersionUsesIndexHandleInFooter).
constexpr uint32_t kContextChecksumFormatVersion = 6;

// RocksDB's block checksum types (include/rocksdb/table.h, ChecksumType).
// LevelDB always uses CRC32C.
enum class ChecksumType : uint8_t {
  kNone = 0,
  kCrc32c = 1,
  kXxHash = 2,
  kXxHash64 = 3,
  kXxh3 = 4,
};
// "CRC32C", "xxHash", ..., or "unknown" for a byte no RocksDB writes.
const char* ChecksumTypeName(uint8_t type);

// The newest block-based format_version RocksDB writes (RocksDB 9.7.4
// table/format.h, kLatestFormatVersion; its default).
constexpr uint32_t kMaxRocksDbFormatVersion = 6;

enum class TableFormat {
  kLevelDb,  // LevelDB's footer; also RocksDB format_version 0
  kRocksDb,  // RocksDB's block-based footer, format_version 1..6
};

struct Footer {
  TableFormat format = TableFormat::kLevelDb;
  uint32_t format_version = 0;  // 0 for LevelDB's footer
  uint8_t checksum_type = static_cast<uint8_t>(ChecksumType::kCrc32c);
  BlockHandle metaindex;
  // The index block, when the footer holds its handle (format_version < 6);
  // from format_version 6 it is the metaindex's "rocksdb.index" entry
  // (IndexHandle in meta_blocks.h) and this stays {0, 0}.
  BlockHandle index;
  // Mixed into every checksum at format_version >= 6 (nonzero there); 0
  // below, where checksums do not depend on offsets.
  uint32_t base_context_checksum = 0;
};

// Whether the footer holds the index handle (format_version < 6).
bool FooterHoldsIndexHandle(const Footer& footer);

// Decodes the footer at the end of tail, the last bytes of a file of
// file_size bytes (tail may be the whole file). Checks that the handles lie
// inside the file before the footer, and at format_version 6 the footer's own
// checksum. Errors, each naming what it saw:
//   file shorter than the footer, unknown magic        -> DataLossError
//   PlainTable / Cuckoo magic, format_version > 6,
//   checksum type "none" or unknown (nothing to verify
//   the filter block with)                             -> UnimplementedError
//   malformed handle, handle outside the file          -> DataLossError
//   format_version 6: wrong extended magic, base
//   context checksum 0, footer checksum mismatch        -> DataLossError
//   format_version 6: nonzero last 8 reserved bytes
//   (a feature of a later RocksDB), with a good checksum -> UnimplementedError
//   format_version < 6 whose handles start with the
//   extended magic (a damaged format_version 6)         -> DataLossError
absl::StatusOr<Footer> DecodeFooter(absl::string_view tail, uint64_t file_size);

// Encodes footer as its format writes it (for tests and corpora). At
// format_version 6 the footer must follow the metaindex block's trailer
// directly, as RocksDB writes it: its offset, which its checksum covers, is
// metaindex.offset + metaindex.size + 5; footer.index is not written.
std::string EncodeFooter(const Footer& footer);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_FORMAT_H_
