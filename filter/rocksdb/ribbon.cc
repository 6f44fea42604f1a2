// Standard128Ribbon queries (ribbon.h).

#include "filter/rocksdb/ribbon.h"

#include <algorithm>
#include <cmath>

#include "filter/rocksdb/rocksdb_format.h"
#include "util/coding.h"
#include "util/rocksdb_hash.h"

namespace sstfilter {
namespace rocksdb_internal {
namespace {

using Row = unsigned __int128;

// Ribbon's constants (util/ribbon_impl.h at v7.8.3).
constexpr uint64_t kRehashFactor = 0x6193d459236a3a0d;  // StandardRehasher
constexpr uint64_t kCoeffAndResultFactor = 0xc28f82822b650bed;
constexpr uint64_t kCoeffXor64 = 0xc367844a6e52731d;
constexpr uint64_t kToRawSeedFactor = 0xc78219a23eeadd03;
constexpr uint64_t kSeedMixMask = 0xf0f0f0f0f0f0f0f0;
constexpr int kSeedMixShift = 4;        // bits
constexpr uint32_t kSegmentBytes = 16;  // one 128-bit coefficient row
// Coefficients per row, which is also the slots per block.
constexpr uint32_t kCoeffBits = kRibbonSlotsPerBlock;
constexpr uint32_t kMaxColumns = 32;  // bits of a result row

Row LoadSegment(const char* body, uint32_t segment) {
  const char* p = body + uint64_t{segment} * kSegmentBytes;
  return (Row{DecodeFixed64(p + 8)} << 64) | DecodeFixed64(p);
}

int Parity(Row row) {
  return __builtin_parityll(static_cast<uint64_t>(row) ^
                            static_cast<uint64_t>(row >> 64));
}

// A key's position in the solution: what InterleavedPrepareQuery computes.
struct Located {
  uint64_t hash;     // the rehashed key hash
  uint32_t segment;  // first segment of the key's block
  uint32_t columns;  // result columns of that block
  uint32_t bit;      // start slot within the block
};

Located Locate(const RibbonLayout& layout, uint64_t key_hash) {
  Located at;
  at.hash = (key_hash ^ layout.raw_seed) * kRehashFactor;
  const auto start =
      static_cast<uint32_t>((Row{at.hash} * layout.num_starts) >> 64);
  const uint32_t block = start / kCoeffBits;
  at.segment =
      block * layout.upper_columns - std::min(block, layout.upper_start_block);
  at.columns = layout.upper_columns - (block < layout.upper_start_block);
  at.bit = start % kCoeffBits;
  return at;
}

bool Matches(const RibbonLayout& layout, const Located& at) {
  const uint64_t a = at.hash * kCoeffAndResultFactor;
  const Row coeff = ((Row{a} << 64) ^ Row{a ^ kCoeffXor64}) | 1;
  const auto want = static_cast<uint32_t>(__builtin_bswap64(a));
  if (at.bit == 0) {
    for (uint32_t i = 0; i < at.columns; ++i) {
      if (Parity(LoadSegment(layout.body, at.segment + i) & coeff) !=
          static_cast<int>((want >> i) & 1)) {
        return false;
      }
    }
    return true;
  }
  // The key's 128 coefficients straddle its block and the next one.
  const Row left = coeff << at.bit;
  const Row right = coeff >> (kCoeffBits - at.bit);
  for (uint32_t i = 0; i < at.columns; ++i) {
    const Row row =
        (LoadSegment(layout.body, at.segment + i) & left) ^
        (LoadSegment(layout.body, at.segment + at.columns + i) & right);
    if (Parity(row) != static_cast<int>((want >> i) & 1)) return false;
  }
  return true;
}

class RibbonReader : public FilterReader {
 public:
  explicit RibbonReader(const RibbonLayout& layout) : layout_(layout) {}

  bool MayMatch(absl::string_view key) const override {
    return RibbonMayMatch(layout_, RocksDbHash64(key));
  }

  // As RocksDB's batched reader: locate every key of a step and prefetch the
  // segments it reads, then query.
  void MayMatch(absl::Span<const absl::string_view> keys,
                bool* results) const override {
    Located located[kBatchStep];
    for (size_t start = 0; start < keys.size(); start += kBatchStep) {
      const size_t n = std::min(kBatchStep, keys.size() - start);
      for (size_t i = 0; i < n; ++i) {
        located[i] = Locate(layout_, RocksDbHash64(keys[start + i]));
        const uint32_t read =
            located[i].columns * (located[i].bit == 0 ? 1 : 2);
        if (read > 0) {
          const char* first =
              layout_.body + uint64_t{located[i].segment} * kSegmentBytes;
          __builtin_prefetch(first, /*rw=*/0, /*locality=*/1);
          __builtin_prefetch(first + uint64_t{read} * kSegmentBytes - 1,
                             /*rw=*/0, /*locality=*/1);
        }
      }
      for (size_t i = 0; i < n; ++i) {
        results[start + i] = Matches(layout_, located[i]);
      }
    }
  }

  double ExpectedFpp() const override { return RibbonExpectedFpp(layout_); }

 private:
  const RibbonLayout layout_;
};

}  // namespace

RibbonLayout MakeRibbonLayout(const char* body, size_t body_bytes,
                              uint32_t num_blocks, uint32_t ordinal_seed) {
  RibbonLayout layout;
  layout.body = body;
  layout.num_starts = num_blocks * kCoeffBits - (kCoeffBits - 1);
  const auto segments = static_cast<uint32_t>(body_bytes / kSegmentBytes);
  layout.upper_columns = (segments + num_blocks - 1) / num_blocks;
  layout.upper_start_block = layout.upper_columns * num_blocks - segments;
  if (layout.upper_columns > kMaxColumns) {
    // More segments than 32 columns use: the rest of the body is unused.
    layout.upper_columns = kMaxColumns;
    layout.upper_start_block = 0;
  }
  uint64_t mixed = ordinal_seed * kToRawSeedFactor;
  mixed ^= (mixed & kSeedMixMask) >> kSeedMixShift;
  layout.raw_seed = static_cast<uint32_t>(mixed);
  return layout;
}

bool RibbonMayMatch(const RibbonLayout& layout, uint64_t key_hash) {
  return Matches(layout, Locate(layout, key_hash));
}

double RibbonExpectedFpp(const RibbonLayout& layout) {
  if (layout.upper_columns == 0) return 1.0;  // no column can reject
  const double lower_share = static_cast<double>(layout.upper_start_block) *
                             kCoeffBits / layout.num_starts;
  return lower_share *
             std::ldexp(1.0, -static_cast<int>(layout.upper_columns) + 1) +
         (1 - lower_share) *
             std::ldexp(1.0, -static_cast<int>(layout.upper_columns));
}

std::unique_ptr<FilterReader> NewRibbonReader(const char* body,
                                              size_t body_bytes,
                                              uint32_t num_blocks,
                                              uint32_t ordinal_seed) {
  return std::make_unique<RibbonReader>(
      MakeRibbonLayout(body, body_bytes, num_blocks, ordinal_seed));
}

}  // namespace rocksdb_internal
}  // namespace sstfilter
