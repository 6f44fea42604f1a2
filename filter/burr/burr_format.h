// The on-disk format of sstfilter's bumped Ribbon filter (kBumpedRibbonName,
// version 1), as constants and the pure functions that map a key hash to its
// equation. filter/burr/README.md draws the layout;
// burr_golden_test.cc pins it. Everything here is frozen: a change is a new
// format (a new marker and name).
//
// Internal header: include filter/burr/burr.h instead.

#ifndef SSTFILTER_FILTER_BURR_BURR_FORMAT_H_
#define SSTFILTER_FILTER_BURR_BURR_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/string_view.h"
#include "filter/internal/verdict.h"

namespace sstfilter {
namespace burr_internal {

// Persisted beside the filter; changes iff kFormatMarker does.
constexpr char kBumpedRibbonName[] = "sstfilter.BumpedRibbon1";

// Format version 2: a version-1 filter with a CRC32C of its bytes
// (filter/internal/checked_filter.h, filter/format_version_2.md).
constexpr char kCheckedBumpedRibbonName[] = "sstfilter.BumpedRibbon2";

// Second-to-last byte of every filter of this format.
constexpr uint8_t kFormatMarker = 0xB7;  // "BuRR, version 1"

constexpr int kRibbonWidth = 64;      // coefficients per equation (bits)
constexpr int kLog2BlockSlots = 6;    // log2(slots per block)
constexpr uint64_t kBlockSlots = 64;  // slots per block = bucket of thresholds
// A layer is split into segments of equal size, each solved on its own, so
// that the solver's memory is bounded by a segment, not by the filter.
constexpr uint64_t kMaxSegmentBlocks = 1024;  // blocks (65,536 slots)
constexpr int kMaxColumns = 32;  // solution columns (fingerprint bits) per key
constexpr int kMaxLayers = 32;   // layers a reader accepts
constexpr int kThresholdBits = 2;  // bits of bumping threshold per block
// Seeds a builder tries before it keeps a filter whose last layer still bumps
// keys (they then match everything, see ParseFilter's rules); a reader
// accepts no larger seed.
constexpr uint64_t kMaxSeed = 63;

// Threshold code -> the offsets in a block that are bumped: a key whose start
// lies at offset o of its block is bumped to the next layer iff
// o < kThresholdOffsets[code].
constexpr uint32_t kThresholdOffsets[4] = {0, 8, 24, 64};

// Trailer: header varints, then these three bytes.
constexpr size_t kFixedTrailerBytes = 3;  // header length, marker, columns
// Anything shorter than the trailer of the empty filter matches nothing.
constexpr size_t kMinFilterBytes = 3 + kFixedTrailerBytes;  // bytes

// Hash steps. Every step is a bijection of 64-bit values (murmur3's fmix64
// finaliser, which is invertible), so distinct key hashes never merge.
inline uint64_t Fmix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

// The hash of a key at layer 0 for a filter built with `seed`: the key's
// hash itself for seed 0 (the first attempt; XXH3's output is already well
// mixed), one more step for each later seed.
inline uint64_t LayerZeroHash(uint64_t key_hash, uint64_t seed) {
  if (__builtin_expect(seed != 0, 0)) {  // no key set met in testing needed it
    for (uint64_t i = 0; i < seed; ++i) key_hash = Fmix64(key_hash);
  }
  return key_hash;
}

// The hash of a key at the next layer.
inline uint64_t NextLayerHash(uint64_t layer_hash) {
  return Fmix64(layer_hash ^ 0x9e3779b97f4a7c15ULL);
}

// The coefficients of a key's equation: 64 bits, bit i for slot start + i;
// bit 0 is set so that the equation starts at its start slot.
inline uint64_t CoeffRow(uint64_t layer_hash) {
  const uint64_t x = layer_hash * 0x9e3779b97f4a7c13ULL;
  return (x ^ (x >> 32)) | 1;
}

// The fingerprint: bit c is the value column c of the solution must give.
inline uint32_t Fingerprint(uint64_t layer_hash) {
  return static_cast<uint32_t>((layer_hash * 0xd6e8feb86659fd93ULL) >> 32);
}

// Starts a segment of segment_blocks blocks offers: an equation's 64 slots
// never leave its segment.
inline uint64_t SegmentStarts(uint64_t segment_blocks) {
  return segment_blocks * kBlockSlots - kRibbonWidth + 1;
}

// Where a key's equation starts in a layer of num_segments segments of
// segment_blocks blocks: the segment and the slot within it, in
// [0, SegmentStarts(segment_blocks)). Both come from one 128-bit product, so
// (segment, slot) grows with layer_hash: sorting hashes sorts equations.
struct Start {
  uint64_t segment;
  uint64_t slot;  // within the segment
};
inline Start StartOf(uint64_t layer_hash, uint64_t num_segments,
                     uint64_t segment_blocks) {
  const unsigned __int128 p =
      static_cast<unsigned __int128>(layer_hash) * num_segments;
  const uint64_t fraction = static_cast<uint64_t>(p);
  return Start{static_cast<uint64_t>(p >> 64),
               static_cast<uint64_t>((static_cast<unsigned __int128>(fraction) *
                                      SegmentStarts(segment_blocks)) >>
                                     64)};
}

// The same start as one slot number across the layer's segments
// (segment * 64 * segment_blocks + slot), from two products that do not wait
// for each other, where StartOf's second product waits for its first: a
// query's shorter path to its words. With S segments and T starts each
// (layer_starts = S * T): layer_hash * S = segment * 2^64 + fraction, so
// (layer_hash * layer_starts) >> 64 = segment * T + (fraction * T) >> 64,
// exactly segment * T + slot; each segment before adds the 63 slots at its
// end where no equation starts.
inline uint64_t StartSlotInLayer(uint64_t layer_hash, uint64_t num_segments,
                                 uint64_t layer_starts) {
  const uint64_t segment = static_cast<uint64_t>(
      (static_cast<unsigned __int128>(layer_hash) * num_segments) >> 64);
  const uint64_t start = static_cast<uint64_t>(
      (static_cast<unsigned __int128>(layer_hash) * layer_starts) >> 64);
  return start + segment * (kRibbonWidth - 1);
}

// One layer's shape. Blocks are numbered across the layer's segments; blocks
// below upper_start store `columns` solution columns, the others columns + 1.
struct LayerShape {
  uint64_t num_segments = 0;
  uint64_t segment_blocks = 0;  // 1..kMaxSegmentBlocks
  uint64_t upper_start = 0;     // first block with columns + 1 columns
  uint64_t num_blocks() const { return num_segments * segment_blocks; }
  // Words of solution before block b.
  uint64_t WordsBefore(uint64_t b, int columns) const {
    return b * static_cast<uint64_t>(columns) +
           (b > upper_start ? b - upper_start : 0);
  }
  uint64_t num_words(int columns) const {
    return WordsBefore(num_blocks(), columns);
  }
  uint64_t threshold_bytes() const {
    return (num_blocks() * kThresholdBits + 7) / 8;
  }
};

// What a reader makes of a filter's bytes (filter/internal/verdict.h).
using ::sstfilter::filter_internal::Verdict;

struct ParsedLayer {
  LayerShape shape;
  const char* words = nullptr;          // solution, little-endian 64-bit words
  const uint8_t* thresholds = nullptr;  // 2-bit codes, 4 per byte, low first
  // Equation starts in the layer, num_segments * SegmentStarts(segment_blocks)
  // (below 2^64: the body bounds both), for StartSlotInLayer.
  uint64_t layer_starts = 0;
};

struct ParsedFilter {
  Verdict verdict = Verdict::kMatchNothing;
  uint64_t num_keys = 0;
  uint64_t seed = 0;
  int columns = 0;  // of the lower blocks; upper blocks have one more
  // Meaningful only for Verdict::kProbe. Held in the object up to
  // kInlineLayers (10^8 keys make about 6): parsing a filter, as
  // KeyMayMatch does for every key, allocates nothing, and a reader's query
  // finds layer 0 in the reader itself, not behind one more pointer.
  static constexpr size_t kInlineLayers = 8;
  absl::InlinedVector<ParsedLayer, kInlineLayers> layers;
};

// Threshold code of block b of a layer.
inline uint32_t ThresholdCode(const uint8_t* thresholds, uint64_t block) {
  return (thresholds[block >> 2] >> ((block & 3) * kThresholdBits)) & 3;
}

// Decodes the trailer and checks it against the length. Total: any bytes give
// a verdict.
ParsedFilter ParseFilter(absl::string_view filter);

// Bytes of the varint header for these layers (seed and num_keys included);
// a filter's header holds at most kMaxHeaderBytes.
size_t HeaderBytes(uint64_t num_keys, uint64_t seed,
                   const std::vector<LayerShape>& layers);
constexpr size_t kMaxHeaderBytes = 255;  // its length is one byte

// Appends the trailer. The body (every layer's words, then every layer's
// thresholds) is already in *dst. REQUIRES: HeaderBytes(...) <=
// kMaxHeaderBytes.
void AppendTrailer(uint64_t num_keys, uint64_t seed, int columns,
                   const std::vector<LayerShape>& layers, std::string* dst);

}  // namespace burr_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BURR_BURR_FORMAT_H_
