// The query side of RocksDB 7.8.3's Standard128Ribbon filter (trailer marker
// 0xFE): reading only, RocksDB writes these filters. Facts from RocksDB v7.8.3
// table/block_based/filter_policy.cc (Standard128RibbonBitsReader and its
// TypesAndSettings), util/ribbon_impl.h (StandardHasher,
// StandardRehasherAdapter, SerializableInterleavedSolution) and
// util/ribbon_alg.h (InterleavedPrepareQuery, InterleavedFilterQuery).
//
// The body is a sequence of 16-byte segments, each a 128-bit little-endian
// word. The filter has num_blocks blocks of 128 slots; block b stores its
// solution as c_b consecutive segments, c_b = upper_columns for blocks from
// upper_start_block on and upper_columns - 1 before it, where
//   segments          = body bytes / 16
//   upper_columns     = ceil(segments / num_blocks), at most 32
//   upper_start_block = upper_columns * num_blocks - segments (0 if capped)
// A key's query:
//   h     = (RocksDbHash64(key) ^ raw_seed) * 0x6193d459236a3a0d
//   start = (h * (num_blocks * 128 - 127)) >> 64      a slot, 128-bit product
//   a     = h * 0xc28f82822b650bed                     64-bit product
//   coeff = (a << 64) ^ (a ^ 0xc367844a6e52731d), lowest bit set   128 bits
//   want  = low 32 bits of byteswap64(a)
// With block = start / 128 and bit = start % 128, column i of the key's result
// is the parity of (segment i of its block & coeff << bit), xored when bit > 0
// with the parity of (segment i of the next block & coeff >> (128 - bit)). The
// key may match iff every column equals bit i of want. raw_seed comes from the
// trailer's ordinal seed s: x = s * 0xc78219a23eeadd03, x ^= (x & 0xf0f0...f0)
// >> 4, low 32 bits.
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
