// The keys a builder of sstfilter's own formats holds until Finish, as their
// KeyHash: every key is counted (FilterBuilder::NumAdded), and a key added
// again right away (the versions of one user key, which a table holds side by
// side) is kept once. Both families hash with KeyHash, so the hashes kept
// serve either (the hybrid builder picks its family at Finish).
//
// Internal to the filter families.

#ifndef SSTFILTER_FILTER_INTERNAL_ADDED_HASHES_H_
#define SSTFILTER_FILTER_INTERNAL_ADDED_HASHES_H_

#include <cstddef>
#include <cstdint>
#include <utility>

#include "absl/strings/string_view.h"
#include "filter/internal/chunk_list.h"
#include "filter/internal/key_hash.h"

namespace sstfilter {
namespace filter_internal {

// List holds the hashes: Add(uint64_t), size() and Clear(), as ChunkList.
template <typename List = ChunkList>
class AddedHashes {
 public:
  template <typename... ListArgs>
  explicit AddedHashes(ListArgs&&... list_args)
      : hashes_(std::forward<ListArgs>(list_args)...) {}

  void Add(absl::string_view key) {
    ++num_added_;
    const uint64_t hash = KeyHash(key);
    // Other duplicates are kept: a Bloom filter sets the same bits again, a
    // Ribbon filter's band already implies their equations.
    if (hash == last_hash_ && hashes_.size() > 0) return;
    last_hash_ = hash;
    hashes_.Add(hash);
  }

  // Keys added since construction or the last Clear, duplicates included.
  size_t num_added() const { return num_added_; }

  // Each distinct from the one before. Finish reads or drains them, then
  // calls Clear.
  List& hashes() { return hashes_; }
  const List& hashes() const { return hashes_; }

  // No key added: for the next filter.
  void Clear() {
    hashes_.Clear();
    num_added_ = 0;
  }

 private:
  List hashes_;
  uint64_t last_hash_ = 0;  // the last hash kept, when hashes_ is not empty
  size_t num_added_ = 0;
};

}  // namespace filter_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_INTERNAL_ADDED_HASHES_H_
