// The bumped Ribbon solver (see burr_solver.h).

#include "filter/burr/burr_solver.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <utility>

#include "filter/internal/cpu_features.h"
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

// The band: for each slot, the equation whose first 1 is there (0: none), as
// coefficients from that slot on and fingerprint bits, in two arrays. An
// insertion's walk is a chain of dependent loads of coefficients; 8-byte
// rows are addressed by slot * 8 in the load itself, where 16-byte rows of
// both took a shift and an add more on every step (about a cycle each).
struct Band {
  const uint64_t* coeff;
  const uint32_t* rhs;
};

// An equation on its way into the band. Its walk visits the slots where its
// first 1 lies, eliminating the row there, until it reaches a free slot (which
// it may take) or has no 1 left.
struct Walk {
  uint64_t slot;       // where its first 1 now is
  const uint64_t* at;  // the band's coefficients at slot
  uint64_t row;        // *at, loaded by the step that arrived at slot
  uint64_t coeff;      // its coefficients from there on; 0: none left
  uint32_t rhs;        // its fingerprint bits, with the eliminated rows' added
  uint64_t key;        // its key, an index into the sorted keys; kNoKey: none
};

constexpr uint64_t kNoKey = ~uint64_t{0};

// The number of trailing zeros of x != 0. On x86-64 the tzcnt instruction
// itself (bsf on CPUs before BMI1: the same result for x != 0), whose 64-bit
// result GCC does not know to be small: from __builtin_ctzll it sign-extends
// the int before adding it to a slot, a cycle more on a walk's chain.
__attribute__((always_inline)) inline uint64_t TrailingZeros(uint64_t x) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  uint64_t n;
  asm("tzcnt %1, %0" : "=r"(n) : "r"(x) : "cc");
  return n;
#else
  return static_cast<uint64_t>(__builtin_ctzll(x));
#endif
}

// One step of a walk; returns whether the walk has stopped. A stopped walk
// stays put: at a free slot a step changes nothing (free slots hold 0
// coefficients and 0 bits), and a walk with no 1 left is parked at `parking`,
// a slot past the segment that is always free.
//
// The chain from one step to the next is: xor the row, count trailing zeros,
// load the next row. That load addresses the old slot plus the skip, so the
// add that moves the walk happens beside it rather than before it. The row is
// read ahead: whoever writes the band refreshes the row of a walk there.
__attribute__((always_inline)) inline bool Step(const uint64_t* coeffs,
                                                const uint32_t* rhs,
                                                uint64_t parking, Walk* w) {
  const uint64_t row = w->row;
  w->coeff ^= row;
  w->rhs ^= rhs[w->slot];
  if (w->coeff == 0) {
    w->slot = parking;
    w->at = coeffs + parking;
    w->row = 0;
    return true;
  }
  const uint64_t skip = TrailingZeros(w->coeff);
  w->coeff >>= skip;
  w->row = w->at[skip];
  w->at += skip;
  w->slot += skip;
  return row == 0;
}

// Back-substitution from the last slot of a segment to the first: state[c]
// holds the solution bits of column c for the 64 slots from the current one,
// so at the first slot of a block it is that block's word of column c.
// kAllColumns is lower_columns + 1 when known at compile time (0: not), so
// that the column loops unroll and the state stays in registers.
template <int kAllColumns>
__attribute__((always_inline)) inline void BackSubstituteImpl(
    const Band& band, uint64_t slots, const LayerShape& shape,
    int lower_columns, uint64_t first_block, char* layer_words) {
  uint64_t state[kMaxColumns + 1] = {0};
  const int all_columns = kAllColumns > 0 ? kAllColumns : lower_columns + 1;
  for (uint64_t slot = slots; slot-- > 0;) {
    const uint64_t coeff = band.coeff[slot];
    uint32_t bits;
    if (coeff != 0) {
      bits = band.rhs[slot];
#pragma GCC unroll 33
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
#pragma GCC unroll 33
      for (int c = 0; c < all_columns; ++c) {
        state[c] = (state[c] << 1) | ((bits >> c) & 1);
      }
    }
    if ((slot & (kBlockSlots - 1)) == 0) {
      const uint64_t block = first_block + (slot >> kLog2BlockSlots);
      const int columns = lower_columns + (block >= shape.upper_start ? 1 : 0);
      char* out = layer_words + shape.WordsBefore(block, lower_columns) * 8;
#pragma GCC unroll 33
      for (int c = 0; c < all_columns; ++c) {
        if (c < columns) EncodeFixed64(out + 8 * c, state[c]);
      }
    }
  }
}

#if SSTFILTER_HAVE_AVX2_PATH
// The same with the CPU's popcnt instruction (every CPU with AVX2 has it),
// about 3x faster than the portable parity, and one function per column
// count: unrolled, it took about half the time of the loop over columns.
template <int kAllColumns>
__attribute__((target("avx2,popcnt"), noinline)) void BackSubstitutePopcnt(
    const Band& band, uint64_t slots, const LayerShape& shape,
    int lower_columns, uint64_t first_block, char* layer_words) {
  BackSubstituteImpl<kAllColumns>(band, slots, shape, lower_columns,
                                  first_block, layer_words);
}

using BackSubstituteFunction = void (*)(const Band&, uint64_t,
                                        const LayerShape&, int, uint64_t,
                                        char*);

// BackSubstitutePopcnt<lower_columns + 1>, indexed by lower_columns.
template <size_t... kLower>
constexpr std::array<BackSubstituteFunction, sizeof...(kLower)>
PopcntBackSubstitutions(std::index_sequence<kLower...>) {
  return {&BackSubstitutePopcnt<static_cast<int>(kLower) + 1>...};
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
    if (coeff_.size() < slots_ + 1) {  // and the parking slot
      coeff_.resize(slots_ + 1);
      rhs_.resize(slots_ + 1);
    }
    if (block_begin_.size() < shape.segment_blocks + 1) {
      block_begin_.resize(shape.segment_blocks + 1);
    }
    if (slot_counts_.size() < slots_ + 1) slot_counts_.resize(slots_ + 1);
  }

  // Solves segment `segment` for its keys (in any order), writes its blocks'
  // words into the layer's words and its thresholds into the layer's codes,
  // and appends the next-layer hashes of the keys it bumps to *bumped.
  void Solve(uint64_t segment, const uint64_t* keys, uint64_t count,
             char* layer_words, std::vector<uint8_t>* codes,
             std::vector<uint64_t>* bumped) {
    SortByStart(keys, count);
    std::fill(coeff_.begin(), coeff_.begin() + slots_ + 1, 0);
    std::fill(rhs_.begin(), rhs_.begin() + slots_ + 1, 0);
    const uint64_t first_block = segment * shape_.segment_blocks;
    BandSegment(first_block, codes, bumped);
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
    // slot_counts_[s] is now where the keys of slot s + 1 begin.
    block_begin_[0] = 0;
    for (uint64_t b = 1; b < shape_.segment_blocks; ++b) {
      block_begin_[b] = slot_counts_[b * kBlockSlots - 1];
    }
    block_begin_[shape_.segment_blocks] = count;
  }

  // The order keys go into the band: block after block, and within a block
  // from the highest start down (so that a failure bumps exactly the keys
  // that went in last). Returns kNoKey after the last.
  uint64_t NextKey() {
    while (order_next_ == block_begin_[order_block_]) {
      if (order_block_ + 1 >= shape_.segment_blocks) return kNoKey;
      ++order_block_;
      order_next_ = block_begin_[order_block_ + 1];
    }
    return --order_next_;
  }

  // Continues the order with the block after b.
  void SkipPastBlock(uint64_t b) {
    order_block_ = b;
    order_next_ = block_begin_[b];
  }

  Walk BeginWalk(uint64_t key) const {
    const uint64_t* const coeffs = coeff_.data();
    if (key == kNoKey) {  // parked
      return Walk{slots_, coeffs + slots_, 0, 0, 0, kNoKey};
    }
    const uint64_t h = keys_[key];
    const uint64_t block = first_block_ + (start_[key] >> kLog2BlockSlots);
    const int columns = columns_ + (block >= shape_.upper_start ? 1 : 0);
    const uint32_t mask =
        columns >= 32 ? ~uint32_t{0} : (uint32_t{1} << columns) - 1;
    const uint64_t slot = start_[key];
    return Walk{slot,        coeffs + slot,         coeffs[slot],
                CoeffRow(h), Fingerprint(h) & mask, key};
  }

  // Bands the segment's sorted keys, and writes the threshold code of every
  // block that bumps keys into *codes.
  //
  // An insertion is a walk of dependent loads, each a few cycles of latency
  // with little else to do, so two keys walk at once, in the order above:
  // the lead and the one after it (three or four walks measured slower: they
  // only wait longer at the same free slot). Only the lead may take a slot;
  // the other waits when it reaches a free slot or no 1, until it leads.
  // That gives the same band as one key after the other: a walk never passes
  // a free slot at its first 1 (it would stop there), so a row that the lead
  // adds later lies where the walk's equation has a 0 by then, or ahead of
  // it, where the walk will find it. When the lead fails, the block's keys
  // below the threshold are taken out and the next walk, which may have used
  // their rows, starts again.
  void BandSegment(uint64_t first_block, std::vector<uint8_t>* codes,
                   std::vector<uint64_t>* bumped) {
    first_block_ = first_block;
    order_block_ = 0;
    order_next_ = block_begin_[1];
    uint64_t* const coeffs = coeff_.data();
    uint32_t* const rhs = rhs_.data();
    const uint64_t parking = slots_;
    Walk lead = BeginWalk(NextKey());
    Walk next = BeginWalk(NextKey());
    uint64_t block = kNoKey;  // of the lead; taken_ holds its slots
    while (lead.key != kNoKey) {
      bool stopped;
      do {
        stopped = Step(coeffs, rhs, parking, &lead);
        Step(coeffs, rhs, parking, &next);
      } while (!stopped);
      const uint64_t b = start_[lead.key] >> kLog2BlockSlots;
      if (b != block) {
        block = b;
        taken_.clear();
      }
      if (lead.coeff != 0) {
        coeffs[lead.slot] = lead.coeff;
        rhs[lead.slot] = lead.rhs;
        taken_.push_back(static_cast<uint32_t>(lead.slot));
        next.row = *next.at;  // it may wait at the slot just taken
      } else if (lead.rhs == 0) {
        taken_.push_back(kNoSlot);  // implied by the band
      } else {
        const uint64_t layer_block = first_block + b;
        (*codes)[layer_block >> 2] |= static_cast<uint8_t>(
            Bump(b, lead.key, bumped) << ((layer_block & 3) * kThresholdBits));
        SkipPastBlock(b);
        lead = BeginWalk(NextKey());
        next = BeginWalk(NextKey());
        continue;
      }
      lead = next;
      next = BeginWalk(NextKey());
    }
  }

  // Key `failed` of block b (segment numbering) contradicts the band: bumps
  // every key of the block below the next threshold, taking those inserted
  // out of the band (the last ones in, in reverse), and returns the code.
  uint32_t Bump(uint64_t b, uint64_t failed, std::vector<uint64_t>* bumped) {
    const uint32_t offset = start_[failed] & (kBlockSlots - 1);
    uint32_t code = 1;
    while (kThresholdOffsets[code] <= offset) ++code;
    const uint32_t threshold = kThresholdOffsets[code];
    const uint64_t end = block_begin_[b + 1];
    uint64_t j = failed + 1;  // keys (failed, end) went in, in order
    while (j < end && (start_[j] & (kBlockSlots - 1)) < threshold) ++j;
    // Keys (failed, j) have offsets below the threshold: their entries are
    // the last in taken_.
    for (uint64_t k = failed + 1; k < j; ++k) {
      const uint32_t slot = taken_.back();
      taken_.pop_back();
      if (slot != kNoSlot) {
        coeff_[slot] = 0;
        rhs_[slot] = 0;
      }
    }
    for (uint64_t k = block_begin_[b]; k < j; ++k) {
      bumped->push_back(NextLayerHash(keys_[k]));
    }
    return code;
  }

  void BackSubstitute(uint64_t first_block, char* layer_words) {
#if SSTFILTER_HAVE_AVX2_PATH
    if (filter_internal::CpuHasAvx2()) {
      static constexpr std::array<BackSubstituteFunction, kMaxColumns>
          kByColumns =
              PopcntBackSubstitutions(std::make_index_sequence<kMaxColumns>());
      return kByColumns[columns_](band(), slots_, shape_, columns_, first_block,
                                  layer_words);
    }
#endif
    BackSubstituteImpl<0>(band(), slots_, shape_, columns_, first_block,
                          layer_words);
  }

  static constexpr uint32_t kNoSlot = ~uint32_t{0};
  // Keys of a segment kept allocated between filters: twice a full
  // segment's expected count.
  static constexpr uint64_t kMaxKeptKeys = 2 * kMaxSegmentBlocks * kBlockSlots;

  int columns_ = 0;
  LayerShape shape_;
  uint64_t slots_ = 0;
  Band band() const { return Band{coeff_.data(), rhs_.data()}; }

  // The band (see Band). A free slot holds 0 in both arrays: Step relies on
  // it, and so Bump clears both.
  std::vector<uint64_t> coeff_;
  std::vector<uint32_t> rhs_;
  std::vector<uint64_t> slot_counts_;  // 64-bit: any number of repeats
  std::vector<uint64_t> keys_;         // the segment's keys, by start
  std::vector<uint32_t> start_;        // their start slots
  std::vector<uint32_t> taken_;        // slots taken by the block's insertions
  std::vector<uint64_t> block_begin_;  // first sorted key of each block
  uint64_t first_block_ = 0;           // the segment's, in layer numbering
  uint64_t order_block_ = 0;           // NextKey's block
  uint64_t order_next_ = 0;            // and the key after the one it gives
};

// One solver per thread, its buffers kept between filters: a table builder
// makes filter after filter in one thread, and fresh buffers for each cost
// page faults (a build of 10^4 keys took 120 ns per key with them, 76
// without). At most a segment's worth stays allocated: about 2.1 MB.
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

uint64_t SolverBytes(uint64_t num_keys) {
  // Layer 0 takes at most 1.15 slots per key and a block more (a small
  // layer's slack, ShapeForKeys); bounds that only grow with num_keys, so that
  // a cap on the build's bytes is crossed at one key count.
  const uint64_t blocks =
      static_cast<uint64_t>(std::ceil(static_cast<double>(num_keys) *
                                      kSmallLayerSlotsPerKey / kBlockSlots)) +
      1;
  const uint64_t segment_blocks = std::min(blocks, kMaxSegmentBlocks);
  const uint64_t segments =
      (blocks + kMaxSegmentBlocks - 1) / kMaxSegmentBlocks;
  const uint64_t slots = segment_blocks * kBlockSlots + 1;  // and parking
  const uint64_t segment_keys = std::min(num_keys, 2 * slots);
  return slots * (sizeof(uint64_t) + sizeof(uint32_t)) +         // band
         slots * sizeof(uint64_t) +                              // start counts
         segment_keys * (sizeof(uint64_t) + sizeof(uint32_t)) +  // sorted
         (segment_blocks + 1) * sizeof(uint64_t) +               // block starts
         2 * (segments + 1) * sizeof(uint64_t) +                 // partition
         2 * ((blocks + 3) / 4);  // thresholds, 2 bits each
}

}  // namespace burr_internal
}  // namespace sstfilter
