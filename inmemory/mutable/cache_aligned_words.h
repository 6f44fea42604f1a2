// A zeroed array of 64-bit atomic words that starts on a 64-byte boundary, so
// that each 64-byte block of a Bloom filter is exactly one cache line. An
// array of 2 MiB or more starts on a 2 MiB boundary and asks Linux for
// transparent huge pages over its whole 2 MiB spans, and over a last partial
// span when rounding up to it costs at most a quarter more memory, so that
// random probes do not also miss the TLB (filter/README.md, "filter_arena.h").
//
// Internal header of inmemory/mutable.

#ifndef SSTFILTER_INMEMORY_MUTABLE_CACHE_ALIGNED_WORDS_H_
#define SSTFILTER_INMEMORY_MUTABLE_CACHE_ALIGNED_WORDS_H_

#include <atomic>
#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"

namespace sstfilter {
namespace mutable_internal {

// Every operation on the words is a lock-free atomic; a lock would defeat the
// point of a filter that many threads add to.
static_assert(std::atomic<uint64_t>::is_always_lock_free,
              "64-bit atomics must be lock-free");
static_assert(sizeof(std::atomic<uint64_t>) == 8,
              "an atomic word must have the layout of the word");

class CacheAlignedWords {
 public:
  // num_words zeroed words. ResourceExhaustedError when the memory cannot be
  // had; InvalidArgumentError for 0 words or a count that is not a whole
  // number of cache lines.
  static absl::StatusOr<CacheAlignedWords> Allocate(uint64_t num_words);

  CacheAlignedWords(CacheAlignedWords&&) = default;
  CacheAlignedWords& operator=(CacheAlignedWords&&) = default;

  std::atomic<uint64_t>* data() { return words_.get(); }
  const std::atomic<uint64_t>* data() const { return words_.get(); }
  uint64_t size() const { return size_; }

 private:
  struct Free {
    void operator()(std::atomic<uint64_t>* words) const;
  };

  CacheAlignedWords(std::atomic<uint64_t>* words, uint64_t size)
      : words_(words), size_(size) {}

  std::unique_ptr<std::atomic<uint64_t>[], Free> words_;
  uint64_t size_;
};

}  // namespace mutable_internal
}  // namespace sstfilter

#endif  // SSTFILTER_INMEMORY_MUTABLE_CACHE_ALIGNED_WORDS_H_
