// Memory for the filters a store keeps for queries: each copy starts at a
// 64-byte boundary, in memory that asks Linux for transparent huge pages, so
// a query out of cache misses on its line but no longer also walks the page
// table. filter/README.md ("filter_arena.h") says why and when to use one.
//
//   sstfilter::FilterArena arena;
//   absl::string_view held = arena.Copy(filter_block);
//   std::unique_ptr<sstfilter::FilterReader> reader = policy->NewReader(held);
//   // `held`, and so `reader`, are valid while `arena` lives.

#ifndef SSTFILTER_FILTER_FILTER_ARENA_H_
#define SSTFILTER_FILTER_FILTER_ARENA_H_

#include <cstddef>
#include <mutex>
#include <vector>

#include "absl/strings/string_view.h"

namespace sstfilter {

// Memory: copies follow one another, each rounded up to kAlignment, in
// regions that start at huge-page boundaries and double in size up to
// kMaxRegionBytes (or the size of one copy if larger); beyond the copies an
// arena takes at most one partly used huge page per region. Space is given
// back only when the arena is destroyed. Where the kernel grants no huge
// pages, everything works the same, only slower out of cache;
// HugePageBytes() says what it granted.
//
// Thread safety: Allocate and Copy may be called from any thread (a lock is
// held only to reserve a copy's space), and copies may be read from any
// thread.
class FilterArena {
 public:
  struct Options {
    // False: the same arena and alignment, without asking for huge pages
    // (to measure what they bring, or where they are unwelcome).
    bool huge_pages = true;
  };

  // Regions start at multiples of a huge page and are sized in them.
  static constexpr size_t kHugePageBytes = size_t{2} << 20;
  static constexpr size_t kMaxRegionBytes = size_t{1} << 30;
  // Every copy starts at a multiple of this.
  static constexpr size_t kAlignment = 64;

  FilterArena() : FilterArena(Options()) {}
  explicit FilterArena(Options options) : options_(options) {}
  ~FilterArena();  // unmaps everything: copies and readers of them dangle
  FilterArena(const FilterArena&) = delete;
  FilterArena& operator=(const FilterArena&) = delete;

  // Returns `size` bytes starting at a multiple of kAlignment, valid while the
  // arena lives. Throws std::bad_alloc when the memory cannot be mapped, as
  // operator new does.
  char* Allocate(size_t size);

  // Allocate(bytes.size()) holding a copy of `bytes`.
  absl::string_view Copy(absl::string_view bytes);

  // Bytes mapped, used or not.
  size_t MappedBytes() const;
  // Of those, the bytes the kernel backs with huge pages now (from
  // /proc/self/smaps; 0 where that cannot be read).
  size_t HugePageBytes() const;

 private:
  struct Region {
    char* start;
    size_t size;
  };
  // Maps a new region of at least `size` bytes and makes it the current one.
  // REQUIRES: mutex_ held.
  void AddRegion(size_t size);

  const Options options_;
  mutable std::mutex mutex_;  // guards everything below
  std::vector<Region> regions_;
  char* next_ = nullptr;  // free space of the newest region
  size_t left_ = 0;
  size_t mapped_bytes_ = 0;
};

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_FILTER_ARENA_H_
