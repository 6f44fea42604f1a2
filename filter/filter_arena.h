// Memory for the filters a store keeps for queries. A query of a filter out of
// cache can miss twice: on the line, and on the translation of its address. Its
// block is at a random place in the filter, so once the filters held exceed
// what the TLB covers with 4 KiB pages (a few MB), most queries also miss the
// TLB and walk the page table, and in a virtual machine that walk is
// two-dimensional. Copying filters into a FilterArena puts each at a 64-byte
// boundary (so each of the native filter's blocks is one cache line) in memory
// that asks Linux for transparent huge pages (madvise MADV_HUGEPAGE), which
// cover 2 MiB per TLB entry.
//
// Use one for the filters of a store's open tables once they outgrow what the
// TLB covers: a query out of cache then still misses on its line, but no
// longer also walks the page table. docs/out_of_cache.md ("Huge pages")
// measures what that saves.
//
// Example:
//
//   sstfilter::FilterArena arena;
//   absl::string_view held = arena.Copy(filter_block);
//   std::unique_ptr<sstfilter::FilterReader> reader = policy->NewReader(held);
//   // `held`, and so `reader`, are valid while `arena` lives.
//
// Memory: copies follow one another, each rounded up to 64 bytes, in regions
// that start at 2 MiB boundaries and double in size (2 MiB, 4 MiB, ... up to
// 1 GiB, or the size of one copy if larger). Only touched pages take memory,
// so beyond the copies an arena takes at most one partly used 2 MiB page per
// region (a copy that does not fit in what is left of a region goes to the
// next). Huge pages are granted by the kernel when a copy first touches the
// memory, if /sys/kernel/mm/transparent_hugepage/enabled is "always" or
// "madvise" and a free 2 MiB page exists; otherwise the memory is ordinary
// pages and everything works the same, only slower out of cache.
// HugePageBytes() says what the kernel granted. Thread-safe: a lock is held
// only to reserve a copy's space (once per filter loaded), the bytes are
// copied outside it, and copies may be read from any thread. Space is given
// back only when the arena is destroyed: an arena suits filters kept as long as
// it, such as those of a store's open tables.

#ifndef SSTFILTER_FILTER_FILTER_ARENA_H_
#define SSTFILTER_FILTER_FILTER_ARENA_H_

#include <cstddef>
#include <mutex>
#include <vector>

#include "absl/strings/string_view.h"

namespace sstfilter {

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
