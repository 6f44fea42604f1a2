#include "table/filter_bytes.h"

#include <algorithm>
#include <cstdlib>

namespace sstfilter {
namespace {

constexpr size_t kFilterAlignment = 64;  // bytes: one cache line

}  // namespace

FilterBytes AllocateFilterBytes(size_t n, FilterArena* arena) {
  if (arena != nullptr) {
    static_assert(FilterArena::kAlignment % kFilterAlignment == 0,
                  "arena copies are aligned for the filter");
    return FilterBytes(arena->Allocate(n), [](void*) {});
  }
  // aligned_alloc needs a size that is a multiple of the alignment.
  const size_t alloc = (std::max<size_t>(n, 1) + kFilterAlignment - 1) /
                       kFilterAlignment * kFilterAlignment;
  return FilterBytes(
      static_cast<char*>(std::aligned_alloc(kFilterAlignment, alloc)),
      &std::free);
}

}  // namespace sstfilter
