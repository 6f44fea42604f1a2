// A list of 64-bit key hashes in chunks, so that growing never copies: a
// doubling vector holds its old and new arrays at once, 24 bytes per hash
// allocated while it grows. Here a list of n hashes takes 8n bytes and at
// most one partly filled chunk (kMaxChunkBytes). The builders of sstfilter's
// own formats keep their keys' hashes in it until Finish.
//
// Internal to the filter families.

#ifndef SSTFILTER_FILTER_INTERNAL_CHUNK_LIST_H_
#define SSTFILTER_FILTER_INTERNAL_CHUNK_LIST_H_

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace sstfilter {
namespace filter_internal {

// Chunks grow from 2 KB to max_chunk_hashes, and Clear keeps the first:
// LevelDB-style filters of 20-100 keys then cost no allocation at all.
class ChunkList {
 public:
  static constexpr uint64_t kDefaultMaxChunkHashes = 4096;
  // The largest chunk of a list of the default maximum: 32 KB.
  static constexpr uint64_t kMaxChunkBytes =
      kDefaultMaxChunkHashes * sizeof(uint64_t);

  explicit ChunkList(uint64_t max_chunk_hashes = kDefaultMaxChunkHashes)
      : max_chunk_hashes_(max_chunk_hashes) {}

  void Add(uint64_t hash) {
    if (next_ == chunk_end_) AddChunk();
    *next_++ = hash;
    ++size_;
  }
  uint64_t size() const { return size_; }
  void Clear() {
    if (chunks_.size() > 1) chunks_.resize(1);
    next_ = chunks_.empty() ? nullptr : chunks_[0].hashes.get();
    chunk_end_ = chunks_.empty() ? nullptr : next_ + chunks_[0].capacity;
    size_ = 0;
  }
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    uint64_t left = size_;
    for (const Chunk& chunk : chunks_) {
      const uint64_t count = std::min<uint64_t>(left, chunk.capacity);
      for (uint64_t i = 0; i < count; ++i) fn(chunk.hashes[i]);
      left -= count;
    }
  }
  // ForEach, freeing each chunk once visited; leaves the list empty.
  template <typename Fn>
  void Drain(Fn&& fn) {
    ForEachChunkThenFree(std::forward<Fn>(fn));
    chunks_.clear();
    next_ = chunk_end_ = nullptr;
    size_ = 0;
  }

 private:
  static constexpr uint64_t kFirstChunkHashes = 256;  // 2 KB
  struct Chunk {
    std::unique_ptr<uint64_t[]> hashes;
    uint64_t capacity;
  };

  template <typename Fn>
  void ForEachChunkThenFree(Fn&& fn) {
    uint64_t left = size_;
    for (Chunk& chunk : chunks_) {
      const uint64_t count = std::min<uint64_t>(left, chunk.capacity);
      for (uint64_t i = 0; i < count; ++i) fn(chunk.hashes[i]);
      left -= count;
      chunk.hashes.reset();
    }
  }

  void AddChunk() {
    const uint64_t capacity =
        chunks_.empty()
            ? kFirstChunkHashes
            : std::min(2 * chunks_.back().capacity, max_chunk_hashes_);
    // Not value-initialised: every slot is written before it is read.
    chunks_.push_back(
        Chunk{std::unique_ptr<uint64_t[]>(new uint64_t[capacity]), capacity});
    next_ = chunks_.back().hashes.get();
    chunk_end_ = next_ + capacity;
  }

  uint64_t max_chunk_hashes_;
  std::vector<Chunk> chunks_;
  uint64_t* next_ = nullptr;       // where the next hash goes
  uint64_t* chunk_end_ = nullptr;  // end of the last chunk
  uint64_t size_ = 0;
};

}  // namespace filter_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_INTERNAL_CHUNK_LIST_H_
