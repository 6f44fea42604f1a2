// Allocation of the cache-aligned word arrays (see cache_aligned_words.h).

#include "inmemory/mutable/cache_aligned_words.h"

#include <cstdlib>
#include <limits>
#include <new>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "filter/internal/cpu_features.h"

namespace sstfilter {
namespace mutable_internal {

using filter_internal::kCacheLineBytes;

constexpr uint64_t kWordsPerLine = kCacheLineBytes / sizeof(uint64_t);

absl::StatusOr<CacheAlignedWords> CacheAlignedWords::Allocate(
    uint64_t num_words) {
  if (num_words == 0 || num_words % kWordsPerLine != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("CacheAlignedWords: ", num_words,
                     " words is not a positive number of cache lines"));
  }
  if (num_words > std::numeric_limits<size_t>::max() / sizeof(uint64_t)) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "CacheAlignedWords: ", num_words, " words exceed the address space"));
  }
  const size_t bytes = static_cast<size_t>(num_words) * sizeof(uint64_t);
  // aligned_alloc, not new: it reports failure as nullptr (this library does
  // not use exceptions), and its size is a multiple of the alignment.
  void* memory = std::aligned_alloc(kCacheLineBytes, bytes);
  if (memory == nullptr) {
    return absl::ResourceExhaustedError(
        absl::StrCat("CacheAlignedWords: cannot allocate ", bytes, " bytes"));
  }
  auto* words = static_cast<std::atomic<uint64_t>*>(memory);
  // Each word begins its life as an atomic holding 0 (the compiler turns the
  // loop into a memset).
  for (uint64_t i = 0; i < num_words; ++i) {
    new (&words[i]) std::atomic<uint64_t>(0);
  }
  return CacheAlignedWords(words, num_words);
}

void CacheAlignedWords::Free::operator()(std::atomic<uint64_t>* words) const {
  // std::atomic<uint64_t> is trivially destructible: nothing to end but the
  // storage.
  std::free(words);
}

}  // namespace mutable_internal
}  // namespace sstfilter
