// Reads the key/value blocks of a table: the metaindex, the index and the
// properties block (entries with shared key prefixes, then restart points;
// LevelDB's table/block_builder.cc, drawn in table/table_format.md). Data
// blocks have the same layout, but this library never needs to read them.
//
// Parsing is total: malformed bytes end the iteration with a DataLossError
// and never read outside the block.

#ifndef SSTFILTER_TABLE_BLOCK_H_
#define SSTFILTER_TABLE_BLOCK_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sstfilter {

// Three-way key comparison: < 0, 0 or > 0 as a is before, equal to or after
// b.
using KeyCompare = int (*)(absl::string_view a, absl::string_view b);

// Bytewise order, the comparator of LevelDB's and RocksDB's tables by
// default.
int BytewiseCompare(absl::string_view a, absl::string_view b);

// The parsed restart array of one block. Holds a view of the contents.
// REQUIRES: the contents outlive the Block and its iterators.
class Block {
 public:
  // Checks that the restart array fits. DataLossError otherwise.
  static absl::StatusOr<Block> Parse(absl::string_view contents);

  absl::string_view entries() const { return entries_; }
  uint32_t num_restarts() const { return num_restarts_; }
  // Offset of restart i within entries(). REQUIRES: i < num_restarts().
  uint32_t RestartOffset(uint32_t i) const;

 private:
  Block(absl::string_view entries, const char* restarts, uint32_t n)
      : entries_(entries), restarts_(restarts), num_restarts_(n) {}

  absl::string_view entries_;  // the entries, restart array excluded
  const char* restarts_;       // num_restarts_ fixed32 offsets
  uint32_t num_restarts_;
};

// Walks the entries of a Block in order. The protocol:
//   (SeekToFirst | Seek) (Next while Valid)*
// Every call leaves the iterator either Valid or at the end; status() says
// whether the end came from corruption.
class BlockIterator {
 public:
  explicit BlockIterator(const Block& block) : block_(block) {}

  void SeekToFirst();
  // Positions at the first entry whose key is >= target under compare
  // (binary search over restarts, then a scan). REQUIRES: the block's keys
  // are sorted under compare.
  void Seek(absl::string_view target, KeyCompare compare);
  void Next();

  bool Valid() const { return valid_; }
  absl::string_view key() const { return key_; }
  absl::string_view value() const { return value_; }
  // DataLossError when an entry was malformed.
  const absl::Status& status() const { return status_; }

 private:
  // Decodes the entry at offset, given the key before it in key_. Returns
  // false (invalid, status set) when it is malformed.
  bool ParseEntryAt(uint32_t offset);
  // The key stored whole at restart i, or false when malformed.
  bool RestartKey(uint32_t i, absl::string_view* key);
  void Corrupt(absl::string_view why);

  const Block& block_;
  bool valid_ = false;
  uint32_t next_offset_ = 0;  // where the entry after the current one begins
  std::string key_;
  absl::string_view value_;
  absl::Status status_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_BLOCK_H_
