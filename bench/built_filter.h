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

namespace sstfilter {
namespace bench {

struct BuiltFilter {
  std::string storage;  // used by builders that append to a string
  std::unique_ptr<const char[]>
      external;             // used by builders that return a buffer
  absl::string_view bytes;  // the filter, trailer included
  // A copy at a chosen offset from a cache line (--placement); bytes then
  // points into it.
  std::unique_ptr<char[]> placed;
};

// Where filter_bench puts each filter's first byte: where the builder left it
// (kNaturalPlacement), or at this many bytes past a 64-byte boundary.
constexpr int kNaturalPlacement = -1;
constexpr size_t kCacheLineBytes = 64;

// Moves filter->bytes to a fresh buffer at `placement` bytes past a cache line
// boundary. REQUIRES: 0 <= placement < kCacheLineBytes.
inline void PlaceFilter(int placement, BuiltFilter* filter) {
  const size_t size = filter->bytes.size();
  std::unique_ptr<char[]> buffer(new char[size + 2 * kCacheLineBytes]);
  const uintptr_t base = reinterpret_cast<uintptr_t>(buffer.get());
  const uintptr_t aligned =
      (base + kCacheLineBytes - 1) & ~uintptr_t{kCacheLineBytes - 1};
  char* at = buffer.get() + (aligned - base) + placement;
  std::memcpy(at, filter->bytes.data(), size);
  filter->bytes = absl::string_view(at, size);
  filter->placed = std::move(buffer);  // may free the bytes just copied
}

// Largest batch a batched query passes at once: RocksDB's MultiGet batch size.
constexpr int kBatchSize = 32;  // keys

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_BUILT_FILTER_H_
