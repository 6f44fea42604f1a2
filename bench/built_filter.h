// The bytes of one filter as an implementation's builder returned them, whoever
// owns them: sstfilter and LevelDB append to a std::string, RocksDB hands back
// a buffer.

#ifndef SSTFILTER_BENCH_BUILT_FILTER_H_
#define SSTFILTER_BENCH_BUILT_FILTER_H_

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "absl/strings/string_view.h"
#include "filter/filter_arena.h"

namespace sstfilter {
namespace bench {

struct BuiltFilter {
  std::string storage;  // used by builders that append to a string
  std::unique_ptr<const char[]>
      external;             // used by builders that return a buffer
  absl::string_view bytes;  // the filter, trailer included
  // A copy at a chosen offset from a cache line (--placement) when there is
  // no arena; bytes then points into it.
  std::unique_ptr<char[]> placed;
};

// Where filter_bench puts each filter's first byte: where the builder left it
// (kNaturalPlacement), or at this many bytes past a 64-byte boundary.
constexpr int kNaturalPlacement = -1;
constexpr size_t kCacheLineBytes = 64;

// Moves filter->bytes to `placement` bytes past a cache line boundary: into
// `arena` when there is one (kNaturalPlacement there: at the boundary, as the
// arena places a filter), else into a fresh heap buffer (kNaturalPlacement:
// leaves the filter where its builder put it). Frees the builder's copy.
// REQUIRES: placement is kNaturalPlacement or in [0, kCacheLineBytes).
inline void PlaceFilter(int placement, FilterArena* arena,
                        BuiltFilter* filter) {
  if (arena == nullptr && placement == kNaturalPlacement) return;
  const size_t offset = placement == kNaturalPlacement ? 0 : placement;
  const size_t size = filter->bytes.size();
  std::unique_ptr<char[]> buffer;
  char* at;
  if (arena != nullptr) {
    at = arena->Allocate(size + offset) + offset;
  } else {
    buffer.reset(new char[size + 2 * kCacheLineBytes]);
    const uintptr_t base = reinterpret_cast<uintptr_t>(buffer.get());
    const uintptr_t aligned =
        (base + kCacheLineBytes - 1) & ~uintptr_t{kCacheLineBytes - 1};
    at = buffer.get() + (aligned - base) + offset;
  }
  std::memcpy(at, filter->bytes.data(), size);
  filter->bytes = absl::string_view(at, size);
  // The earlier copies, the bytes just copied among them.
  filter->placed = std::move(buffer);
  filter->storage = std::string();
  filter->external.reset();
}

// Largest batch a batched query passes at once: RocksDB's MultiGet batch size.
constexpr int kBatchSize = 32;  // keys

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_BUILT_FILTER_H_
