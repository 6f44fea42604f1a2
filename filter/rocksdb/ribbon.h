// The query side of RocksDB's Standard128Ribbon filter (trailer marker 0xFE):
// reading only, RocksDB writes these filters. The body is 128-slot blocks of
// 16-byte segments, one per column; a key's hash gives its start slot, a
// 128-bit coefficient row and the bits it must find. filter/rocksdb/README.md
// ("Standard128Ribbon") has the query, and the RocksDB sources it comes from
// (table/block_based/filter_policy.cc, util/ribbon_impl.h, util/ribbon_alg.h).
//
// Internal header: include filter/rocksdb/rocksdb_reader.h instead.

#ifndef SSTFILTER_FILTER_ROCKSDB_RIBBON_H_
#define SSTFILTER_FILTER_ROCKSDB_RIBBON_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "filter/filter_policy.h"

namespace sstfilter {
namespace rocksdb_internal {

// The solution's shape, derived from the body's length and the trailer.
struct RibbonLayout {
  const char* body = nullptr;
  uint32_t num_starts = 0;         // num_blocks * 128 - 127
  uint32_t upper_columns = 0;      // solution columns of the later blocks
  uint32_t upper_start_block = 0;  // first block with upper_columns columns
  uint32_t raw_seed = 0;           // mixed from the trailer's ordinal seed
};

// REQUIRES: num_blocks in [2, 2^24); body holds body_bytes bytes.
RibbonLayout MakeRibbonLayout(const char* body, size_t body_bytes,
                              uint32_t num_blocks, uint32_t ordinal_seed);

// Whether a key with RocksDbHash64 key_hash may be in the filter.
bool RibbonMayMatch(const RibbonLayout& layout, uint64_t key_hash);

// RocksDB's estimate from the layout (SerializableInterleavedSolution::
// ExpectedFpRate): each column halves the rate, weighted by the share of
// starts in blocks of each width.
double RibbonExpectedFpp(const RibbonLayout& layout);

// REQUIRES: as MakeRibbonLayout; body outlives the reader.
std::unique_ptr<FilterReader> NewRibbonReader(const char* body,
                                              size_t body_bytes,
                                              uint32_t num_blocks,
                                              uint32_t ordinal_seed);

}  // namespace rocksdb_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ROCKSDB_RIBBON_H_
