// Allocation of the cache-aligned word arrays (see cache_aligned_words.h).

#include "inmemory/mutable/cache_aligned_words.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "filter/internal/cpu_features.h"

namespace sstfilter {
namespace mutable_internal {

using filter_internal::kCacheLineBytes;

constexpr uint64_t kWordsPerLine = kCacheLineBytes / sizeof(uint64_t);
// x86-64's huge page: the TLB maps it with one entry.
constexpr size_t kHugePageBytes = size_t{2} << 20;

// An array of a huge page or more is rounded up to whole huge pages when that
// adds at most this share of its size: its last, partial span then gets a
// huge page too, instead of 4 KiB pages that nearly every probe landing there
// would miss the TLB on (a 3.7 MiB filter would lose nearly half its probes
// to them).
constexpr size_t kMostRoundingShare = 4;  // a quarter

size_t HugePageSpanBytes(size_t bytes) {
  const size_t rounded =
      (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  if (rounded - bytes <= bytes / kMostRoundingShare) return rounded;
  return bytes / kHugePageBytes * kHugePageBytes;
}

// Memory for bytes, on a cache line; arrays of a huge page or more start on
// one and ask for huge pages over their whole huge-page spans (the kernel
// keeps to 4 KiB pages where it has none to give, or where
// /sys/kernel/mm/transparent_hugepage/enabled says never).
void* AllocateAligned(size_t bytes) {
  if (bytes < kHugePageBytes) return std::aligned_alloc(kCacheLineBytes, bytes);
  const size_t spans = HugePageSpanBytes(bytes);
  void* memory = nullptr;
  if (posix_memalign(&memory, kHugePageBytes, std::max(bytes, spans)) != 0) {
    return nullptr;
  }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Advice only: an error leaves the memory as it was.
  madvise(memory, spans, MADV_HUGEPAGE);
#endif
  return memory;
}

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
  // Not new: these report failure as nullptr (this library does not use
  // exceptions), and bytes is a multiple of the cache line.
  void* memory = AllocateAligned(bytes);
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
