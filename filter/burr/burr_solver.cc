// The bumped Ribbon solver (see burr_solver.h).

#include "filter/burr/burr_solver.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "filter/bloom/bloom_probe.h"
#include "util/coding.h"

namespace sstfilter {
namespace burr_internal {
namespace {

// Reorders values so that those of segment 0 come first, then segment 1, ...,
// in place (American flag sort, one pass), and returns where each segment
// starts (num_segments + 1 entries).
std::vector<uint64_t> PartitionBySegment(uint64_t* values, uint64_t count,
                                         const LayerShape& shape) {
  const uint64_t n = shape.num_segments;
  std::vector<uint64_t> begin(n + 1, 0);
  if (n == 1) {
    begin[1] = count;
    return begin;
  }
  auto segment_of = [&](uint64_t h) {
    return StartOf(h, n, shape.segment_blocks).segment;
  };
  for (uint64_t i = 0; i < count; ++i) ++begin[segment_of(values[i]) + 1];
  for (uint64_t s = 0; s < n; ++s) begin[s + 1] += begin[s];
  std::vector<uint64_t> next(begin.begin(), begin.end() - 1);
  for (uint64_t s = 0; s < n; ++s) {
    while (next[s] < begin[s + 1]) {
      uint64_t v = values[next[s]];
      uint64_t t = segment_of(v);
      while (t != s) {  // follow the cycle until a value belongs here
        std::swap(v, values[next[t]++]);
        t = segment_of(v);
      }
      values[next[s]++] = v;
    }
  }
  return begin;
}

// An equation of the band: coefficients from its first slot on, and its
// fingerprint bits.
struct BandRow {
  uint64_t coeff;
  uint32_t rhs;
};

// Back-substitution from the last slot of a segment to the first: state[c]
// holds the solution bits of column c for the 64 slots from the current one,
// so at the first slot of a block it is that block's word of column c.
__attribute__((always_inline)) inline void BackSubstituteImpl(
    const BandRow* band, uint64_t slots, const LayerShape& shape,
    int lower_columns, uint64_t first_block, char* layer_words) {
  uint64_t state[kMaxColumns + 1] = {0};
  const int all_columns = lower_columns + 1;
  for (uint64_t slot = slots; slot-- > 0;) {
    const uint64_t coeff = band[slot].coeff;
    uint32_t bits;
    if (coeff != 0) {
      bits = band[slot].rhs;
      for (int c = 0; c < all_columns; ++c) {
        state[c] <<= 1;
        bits ^=
            static_cast<uint32_t>(__builtin_popcountll(coeff & state[c]) & 1)
            << c;
        state[c] |= (bits >> c) & 1;
      }
    } else {
      // A free slot: any value solves the band, and a pseudo-random one
      // keeps the rate of keys that read it at 2^-columns.
      bits = static_cast<uint32_t>(Fmix64(0x5eedf4ee51075ULL ^ slot));
      for (int c = 0; c < all_columns; ++c) {
        state[c] = (state[c] << 1) | ((bits >> c) & 1);
      }
    }
    if ((slot & (kBlockSlots - 1)) == 0) {
      const uint64_t block = first_block + (slot >> kLog2BlockSlots);
      const int columns = lower_columns + (block >= shape.upper_start ? 1 : 0);
      char* out = layer_words + shape.WordsBefore(block, lower_columns) * 8;
      for (int c = 0; c < columns; ++c) EncodeFixed64(out + 8 * c, state[c]);
    }
  }
}

#if SSTFILTER_BLOOM_HAVE_AVX2_PATH
// The same with the CPU's popcnt instruction (every CPU with AVX2 has it):
// about 3x faster than the portable parity.
__attribute__((target("avx2,popcnt"), noinline)) void BackSubstitutePopcnt(
    const BandRow* band, uint64_t slots, const LayerShape& shape,
    int lower_columns, uint64_t first_block, char* layer_words) {
  BackSubstituteImpl(band, slots, shape, lower_columns, first_block,
                     layer_words);
}
#endif

// The working state of one segment: its keys sorted by start, and the band.
class SegmentSolver {
 public:
  // Prepares for the segments of a layer. The buffers are kept from layer to
  // layer and from filter to filter (see ThreadSolver): they allocate (and
  // fault in) nothing once they have grown to a segment's size.
  void StartLayer(const LayerShape& shape, int columns) {
    columns_ = columns;
    shape_ = shape;
    slots_ = shape.segment_blocks * kBlockSlots;
    if (band_.size() < slots_) band_.resize(slots_);
    if (slot_counts_.size() < slots_ + 1) slot_counts_.resize(slots_ + 1);
  }

  // Solves segment `segment` for its keys (in any order), writes its blocks'
  // words into the layer's words and its thresholds into the layer's codes,
  // and appends the next-layer hashes of the keys it bumps to *bumped.
  void Solve(uint64_t segment, const uint64_t* keys, uint64_t count,
             char* layer_words, std::vector<uint8_t>* codes,
             std::vector<uint64_t>* bumped) {
    SortByStart(keys, count);
    std::fill(band_.begin(), band_.begin() + slots_, BandRow{0, 0});
    const uint64_t first_block = segment * shape_.segment_blocks;
    uint64_t next = 0;  // first sorted key of the current block
    for (uint64_t b = 0; b < shape_.segment_blocks; ++b) {
      uint64_t end = next;
      while (end < count && (start_[end] >> kLog2BlockSlots) == b) ++end;
      const uint32_t code = BandBlock(first_block + b, next, end, bumped);
      const uint64_t block = first_block + b;
      (*codes)[block >> 2] |=
          static_cast<uint8_t>(code << ((block & 3) * kThresholdBits));
      next = end;
    }
    BackSubstitute(first_block, layer_words);
    // A segment of unusually many keys (repeats of one key) does not keep
    // its copy allocated for the thread's later filters.
    if (keys_.capacity() > kMaxKeptKeys) {
      keys_ = std::vector<uint64_t>();
      start_ = std::vector<uint32_t>();
    }
  }

 private:
  // Counting sort by start slot: keys_ and start_ in increasing start.
  void SortByStart(const uint64_t* keys, uint64_t count) {
    keys_.resize(count);
    start_.resize(count);
    std::fill(slot_counts_.begin(), slot_counts_.begin() + slots_ + 1, 0);
    auto slot_of = [&](uint64_t h) {
      return StartOf(h, shape_.num_segments, shape_.segment_blocks).slot;
    };
    for (uint64_t i = 0; i < count; ++i) ++slot_counts_[slot_of(keys[i]) + 1];
    for (uint64_t s = 0; s < slots_; ++s)
      slot_counts_[s + 1] += slot_counts_[s];
    for (uint64_t i = 0; i < count; ++i) {
      const uint64_t slot = slot_of(keys[i]);
      const uint64_t at = slot_counts_[slot]++;
      keys_[at] = keys[i];
      start_[at] = static_cast<uint32_t>(slot);
    }
    // Keys of one start in hash order (the start grows with the hash, so this
    // is sorting by hash): the bytes then depend on the set of keys only, not
    // on the order they were added in. Runs of one start are short.
    for (uint64_t i = 1; i < count; ++i) {
      const uint64_t h = keys_[i];
      uint64_t j = i;
      for (; j > 0 && keys_[j - 1] > h; --j) keys_[j] = keys_[j - 1];
      keys_[j] = h;
    }
  }

  // Inserts an equation; returns false if it contradicts the band. Records
  // the slot it took (or nothing, for an equation the band already implies).
  bool Insert(uint64_t slot, uint64_t coeff, uint32_t rhs) {
    while (true) {
      BandRow& row = band_[slot];
      if (row.coeff == 0) {
        row = BandRow{coeff, rhs};
        taken_.push_back(static_cast<uint32_t>(slot));
        return true;
      }
      coeff ^= row.coeff;
      rhs ^= row.rhs;
      if (coeff == 0) {
        taken_.push_back(kNoSlot);
        return rhs == 0;
      }
      const int skip = __builtin_ctzll(coeff);
      coeff >>= skip;
      slot += static_cast<uint64_t>(skip);
    }
  }

  // Bands the keys [begin, end) of block `block` (layer numbering); returns
  // its threshold code.
  uint32_t BandBlock(uint64_t block, uint64_t begin, uint64_t end,
                     std::vector<uint64_t>* bumped) {
    const int columns = columns_ + (block >= shape_.upper_start ? 1 : 0);
    const uint32_t mask =
        columns >= 32 ? ~uint32_t{0} : (uint32_t{1} << columns) - 1;
    taken_.clear();
    for (uint64_t i = end; i > begin; --i) {
      const uint64_t h = keys_[i - 1];
      if (Insert(start_[i - 1], CoeffRow(h), Fingerprint(h) & mask)) continue;
      // Bump every key of the block below the next threshold: undo the ones
      // inserted (the last ones, in reverse), then hand them all on.
      const uint32_t offset = start_[i - 1] & (kBlockSlots - 1);
      uint32_t code = 1;
      while (kThresholdOffsets[code] <= offset) ++code;
      const uint32_t threshold = kThresholdOffsets[code];
      uint64_t j = i;  // keys [i, end) were inserted, in order, into taken_
      while (j < end && (start_[j] & (kBlockSlots - 1)) < threshold) ++j;
      // Keys [i, j) have offsets below the threshold: their entries are the
      // last j - i in taken_, plus the failed key's own.
      for (uint64_t k = 0; k < j - i + 1; ++k) {
        const uint32_t slot = taken_.back();
        taken_.pop_back();
        if (slot != kNoSlot) band_[slot].coeff = 0;
      }
      for (uint64_t k = begin; k < j; ++k) {
        bumped->push_back(NextLayerHash(keys_[k]));
      }
      return code;
    }
    return 0;
  }

  void BackSubstitute(uint64_t first_block, char* layer_words) {
#if SSTFILTER_BLOOM_HAVE_AVX2_PATH
    if (bloom_internal::CpuHasAvx2()) {
      return BackSubstitutePopcnt(band_.data(), slots_, shape_, columns_,
                                  first_block, layer_words);
    }
#endif
    BackSubstituteImpl(band_.data(), slots_, shape_, columns_, first_block,
                       layer_words);
  }

  static constexpr uint32_t kNoSlot = ~uint32_t{0};
  // Keys of a segment kept allocated between filters: twice a full
  // segment's expected count.
  static constexpr uint64_t kMaxKeptKeys = 2 * kMaxSegmentBlocks * kBlockSlots;

  int columns_ = 0;
  LayerShape shape_;
  uint64_t slots_ = 0;
  std::vector<BandRow> band_;  // the equation whose first 1 is at each slot
  std::vector<uint64_t> slot_counts_;  // 64-bit: any number of repeats
  std::vector<uint64_t> keys_;         // the segment's keys, by start
  std::vector<uint32_t> start_;        // their start slots
  std::vector<uint32_t> taken_;        // slots taken by the block's insertions
};

// One solver per thread, its buffers kept between filters: a table builder
// makes filter after filter in one thread, and fresh buffers for each cost
// page faults (a build of 10^4 keys took 120 ns per key with them, 76
// without). At most a segment's worth stays allocated: about 2.5 MB.
SegmentSolver& ThreadSolver() {
  static thread_local SegmentSolver solver;
  return solver;
}

}  // namespace

SolveResult SolveLayers(std::vector<uint64_t>* hashes, const BurrSizing& sizing,
                        int max_layers, uint64_t seed, std::string* dst) {
  const uint64_t num_keys = hashes->size();
  SolveResult result;
  std::vector<uint8_t> codes;  // every layer's thresholds, appended last
  std::vector<uint64_t> bumped;
  std::vector<uint64_t> next_bumped;
  std::vector<uint64_t>* keys = hashes;
  SegmentSolver& solver = ThreadSolver();
  while (!keys->empty()) {
    if (static_cast<int>(result.layers.size()) == max_layers) {
      result.unplaced = keys->size();
      break;
    }
    const LayerShape shape = ShapeForKeys(keys->size(), sizing.upper_fraction);
    result.layers.push_back(shape);
    if (HeaderBytes(num_keys, seed, result.layers) > kMaxHeaderBytes) {
      result.layers.pop_back();
      result.unplaced = keys->size();
      break;
    }
    const std::vector<uint64_t> begin =
        PartitionBySegment(keys->data(), keys->size(), shape);
    const size_t words_at = dst->size();
    dst->resize(words_at + shape.num_words(sizing.columns) * 8);
    const size_t codes_at = codes.size();
    codes.resize(codes_at + shape.threshold_bytes(), 0);
    std::vector<uint8_t> layer_codes(shape.threshold_bytes(), 0);
    next_bumped.clear();
    solver.StartLayer(shape, sizing.columns);
    for (uint64_t s = 0; s < shape.num_segments; ++s) {
      solver.Solve(s, keys->data() + begin[s], begin[s + 1] - begin[s],
                   &(*dst)[words_at], &layer_codes, &next_bumped);
    }
    std::copy(layer_codes.begin(), layer_codes.end(), codes.begin() + codes_at);
    bumped.swap(next_bumped);
    keys = &bumped;
  }
  dst->append(reinterpret_cast<const char*>(codes.data()), codes.size());
  return result;
}

}  // namespace burr_internal
}  // namespace sstfilter
