// Writes a key/value block in the layout table/block.h reads (LevelDB's
// table/block_builder.cc; RocksDB 7.8.3 writes the same when it does not
// delta-encode values): entries with shared key prefixes, a restart point
// every restart_interval entries, then the restart array and its length.

#ifndef SSTFILTER_TABLE_BLOCK_BUILDER_H_
#define SSTFILTER_TABLE_BLOCK_BUILDER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace sstfilter {

class BlockBuilder {
 public:
  // Index and metaindex blocks restart at every entry (interval 1), as both
  // stores write them. REQUIRES: restart_interval >= 1.
  explicit BlockBuilder(int restart_interval = 1)
      : restart_interval_(restart_interval) {}

  // REQUIRES: key is after every key added before (in the order the block's
  // readers use), and Finish has not been called.
  void Add(absl::string_view key, absl::string_view value);
  // Returns the block contents (without the 5-byte block trailer).
  std::string Finish();

  bool empty() const { return entries_ == 0; }

 private:
  const int restart_interval_;
  std::string buffer_;
  std::vector<uint32_t> restarts_;
  std::string last_key_;
  int entries_ = 0;
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_BLOCK_BUILDER_H_
