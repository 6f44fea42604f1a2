// A base for objects aligned to a cache line that the heap's fast path
// allocates: a filter reader created for every filter block a host loads.
//
//   class alignas(kCacheLineBytes) Reader : public CacheLineAllocated { ... };
//   auto reader = std::make_unique<Reader>(...);  // one ordinary allocation

#ifndef SSTFILTER_FILTER_INTERNAL_CACHE_LINE_ALLOCATED_H_
#define SSTFILTER_FILTER_INTERNAL_CACHE_LINE_ALLOCATED_H_

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>

#include "filter/internal/cpu_features.h"

namespace sstfilter {
namespace filter_internal {

// `new` of a type aligned to kCacheLineBytes asks the heap for an aligned
// block. glibc serves that request (_int_memalign) by carving a larger chunk
// and freeing its ends, past the per-thread cache of small chunks: for a
// compact-filter reader, as much as creating the reader itself. This base asks
// for kCacheLineBytes more bytes through the ordinary path instead, and keeps
// the block's address just below the aligned object.
//
// REQUIRES: the derived type's alignment is at most kCacheLineBytes.
class CacheLineAllocated {
 public:
  static void* operator new(std::size_t bytes, std::align_val_t alignment) {
    static_assert(__STDCPP_DEFAULT_NEW_ALIGNMENT__ >= sizeof(void*),
                  "room below the object for the block's address");
    assert(static_cast<std::size_t>(alignment) <= kCacheLineBytes);
    (void)alignment;
    char* const block =
        static_cast<char*>(::operator new(bytes + kCacheLineBytes));
    // block is aligned to the default alignment, so the aligned object starts
    // at least that many bytes in, which leaves room for the address.
    const std::uintptr_t object =
        (reinterpret_cast<std::uintptr_t>(block) + kCacheLineBytes) &
        ~std::uintptr_t{kCacheLineBytes - 1};
    std::memcpy(reinterpret_cast<char*>(object) - sizeof(block), &block,
                sizeof(block));
    return reinterpret_cast<void*>(object);
  }

  static void operator delete(void* object, std::align_val_t) {
    if (object == nullptr) return;
    char* block;
    std::memcpy(&block, static_cast<char*>(object) - sizeof(block),
                sizeof(block));
    ::operator delete(block);
  }
};

}  // namespace filter_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_INTERNAL_CACHE_LINE_ALLOCATED_H_
