// Which blocks of a filter changed since they were last taken: one bit per
// block, for saving only what changed (MutableBloomFilter::TrackChanges).

#ifndef SSTFILTER_INMEMORY_MUTABLE_CHANGED_BLOCKS_H_
#define SSTFILTER_INMEMORY_MUTABLE_CHANGED_BLOCKS_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"

namespace sstfilter {
namespace mutable_internal {

class ChangedBlocks {
 public:
  // Marks for blocks 0 .. blocks - 1, none set; ResourceExhaustedError when
  // they cannot be allocated.
  static absl::StatusOr<std::unique_ptr<ChangedBlocks>> Create(uint64_t blocks);

  // Any thread. A mark already set is only read, so that writers adding to
  // one region do not take its cache line from each other on every key.
  void Mark(uint64_t block) {
    std::atomic<uint64_t>& word = words_[block / 64];
    const uint64_t bit = uint64_t{1} << (block % 64);
    if ((word.load(std::memory_order_relaxed) & bit) == 0) {
      word.fetch_or(bit, std::memory_order_relaxed);
    }
  }

  // The marked blocks, ascending, with their marks cleared.
  std::vector<uint64_t> Take();

  uint64_t blocks() const { return blocks_; }

 private:
  ChangedBlocks(uint64_t blocks, std::unique_ptr<std::atomic<uint64_t>[]> words)
      : blocks_(blocks), words_(std::move(words)) {}

  const uint64_t blocks_;
  std::unique_ptr<std::atomic<uint64_t>[]> words_;
};

}  // namespace mutable_internal
}  // namespace sstfilter

#endif  // SSTFILTER_INMEMORY_MUTABLE_CHANGED_BLOCKS_H_
