// The reference model of filter/burr/README.md; see burr_model.h. Each step
// names the README passage it follows.

#include "filter/burr/burr_model.h"

#include <xxhash.h>

#include <cstddef>
#include <cstdint>

namespace sstfilter {
namespace burr_model {
namespace {

using u128 = unsigned __int128;

// "Constants".
constexpr uint64_t kBlockSlots = 64;
constexpr uint64_t kMaxSegmentBlocks = 1024;
constexpr uint64_t kThresholdOffsets[4] = {0, 8, 24, 64};
constexpr uint32_t kMaxColumns = 32;
constexpr uint64_t kMaxLayers = 32;
constexpr uint64_t kMaxSeed = 63;
constexpr uint8_t kFormatMarker = 0xB7;
constexpr size_t kFixedTrailerBytes = 3;
constexpr size_t kMinFilterBytes = 6;
constexpr uint64_t kMinHeaderBytes = 3;

// "The equation of a key": the constants of its hash steps.
constexpr uint64_t kLayerStep = 0x9e3779b97f4a7c15ULL;
constexpr uint64_t kCoeffMultiplier = 0x9e3779b97f4a7c13ULL;
constexpr uint64_t kFingerprintMultiplier = 0xd6e8feb86659fd93ULL;

// murmur3's 64-bit finaliser (Appleby, MurmurHash3.cpp, fmix64).
uint64_t Fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

uint8_t Byte(absl::string_view bytes, uint64_t i) {
  return static_cast<uint8_t>(bytes[i]);
}

// "8 bytes per word, little-endian", at any address.
uint64_t Word(absl::string_view bytes, uint64_t byte_offset) {
  uint64_t word = 0;
  for (int i = 7; i >= 0; --i)
    word = (word << 8) | Byte(bytes, byte_offset + i);
  return word;
}

// A varint64 (LevelDB's encoding: 7 bits per byte, low group first, high bit
// set on every byte but the last, at most 10 bytes). False when it runs past
// end.
bool ReadVarint(absl::string_view bytes, uint64_t* pos, uint64_t end,
                uint64_t* value) {
  *value = 0;
  for (int shift = 0; shift <= 63 && *pos < end; shift += 7) {
    const uint8_t byte = Byte(bytes, (*pos)++);
    *value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

// The layer's blocks: B = S * G.
u128 Blocks(const ModelLayer& layer) {
  return u128{layer.segments} * layer.segment_blocks;
}

// "block b starts at word b·r + max(0, b − U)".
u128 BlockStartWord(const ModelLayer& layer, uint32_t r, u128 block) {
  return block * r +
         (block > layer.first_upper ? block - layer.first_upper : 0);
}

bool Parity(uint64_t x) { return __builtin_popcountll(x) & 1; }

ModelFilter MayMatchAll(ModelFilter filter) {
  filter.shape = Shape::kMayMatch;
  filter.layers.clear();
  return filter;
}

}  // namespace

ModelFilter ParseModel(absl::string_view bytes) {
  ModelFilter filter;
  filter.bytes = bytes;
  // "Reading any bytes", row by row.
  if (bytes.size() < kMinFilterBytes) {
    filter.shape = Shape::kMatchesNothing;
    return filter;
  }
  const uint64_t size = bytes.size();
  const uint64_t header_bytes = Byte(bytes, size - 3);  // H
  const uint8_t marker = Byte(bytes, size - 2);         // M
  filter.columns = Byte(bytes, size - 1);               // r
  if (marker != kFormatMarker) return MayMatchAll(filter);
  if (filter.columns >= kMaxColumns) return MayMatchAll(filter);
  if (header_bytes < kMinHeaderBytes ||
      header_bytes + kFixedTrailerBytes > size) {
    return MayMatchAll(filter);
  }
  const uint64_t body_bytes = size - kFixedTrailerBytes - header_bytes;
  uint64_t pos = body_bytes;
  const uint64_t header_end = size - kFixedTrailerBytes;
  uint64_t num_layers = 0;
  if (!ReadVarint(bytes, &pos, header_end, &filter.num_keys) ||
      !ReadVarint(bytes, &pos, header_end, &filter.seed) ||
      !ReadVarint(bytes, &pos, header_end, &num_layers)) {
    return MayMatchAll(filter);
  }
  // A header holds at most 255 bytes, so at most 85 layers' worth of
  // varints: a larger L runs past the header whatever the seed row says.
  for (uint64_t i = 0; i < num_layers && i <= 255; ++i) {
    ModelLayer layer;
    if (!ReadVarint(bytes, &pos, header_end, &layer.segments) ||
        !ReadVarint(bytes, &pos, header_end, &layer.segment_blocks) ||
        !ReadVarint(bytes, &pos, header_end, &layer.first_upper)) {
      return MayMatchAll(filter);
    }
    filter.layers.push_back(layer);
  }
  if (pos != header_end) return MayMatchAll(filter);
  if (filter.seed > kMaxSeed || num_layers > kMaxLayers) {
    return MayMatchAll(filter);
  }
  if ((filter.num_keys == 0) != (num_layers == 0)) return MayMatchAll(filter);
  // Words of every layer first, then the thresholds of every layer.
  u128 words_bytes = 0;
  u128 threshold_bytes = 0;
  for (const ModelLayer& layer : filter.layers) {
    if (layer.segment_blocks == 0 || layer.segment_blocks > kMaxSegmentBlocks ||
        layer.segments == 0 || u128{layer.first_upper} > Blocks(layer) ||
        Blocks(layer) > u128{body_bytes} * 4) {
      return MayMatchAll(filter);
    }
    // W_i = B_i·r + (B_i − U_i), 8 bytes each; ceil(2·B_i / 8) bytes of codes.
    words_bytes += 8 * (Blocks(layer) * filter.columns + Blocks(layer) -
                        layer.first_upper);
    threshold_bytes += (2 * Blocks(layer) + 7) / 8;
  }
  if (words_bytes + threshold_bytes != body_bytes) return MayMatchAll(filter);
  uint64_t words_at = 0;
  uint64_t thresholds_at = static_cast<uint64_t>(words_bytes);
  for (ModelLayer& layer : filter.layers) {
    layer.words_offset = words_at;
    layer.threshold_offset = thresholds_at;
    words_at += static_cast<uint64_t>(8 * (Blocks(layer) * filter.columns +
                                           Blocks(layer) - layer.first_upper));
    thresholds_at += static_cast<uint64_t>((2 * Blocks(layer) + 7) / 8);
  }
  filter.shape = filter.num_keys == 0 ? Shape::kMatchesNothing : Shape::kProbe;
  return filter;
}

bool ModelMayMatch(const ModelFilter& filter, absl::string_view key) {
  if (filter.shape == Shape::kMatchesNothing) return false;
  if (filter.shape == Shape::kMayMatch) return true;
  const uint32_t r = filter.columns;
  // h_0 = XXH3_64(key), then `seed` times fmix64.
  uint64_t h = XXH3_64bits(key.data(), key.size());
  for (uint64_t i = 0; i < filter.seed; ++i) h = Fmix64(h);
  for (size_t i = 0; i < filter.layers.size(); ++i) {
    const ModelLayer& layer = filter.layers[i];
    if (i > 0) h = Fmix64(h ^ kLayerStep);  // h_i+1 from h_i
    const u128 starts = kBlockSlots * u128{layer.segment_blocks} - 63;  // T
    const u128 p = u128{h} * layer.segments;
    const u128 segment = p >> 64;
    const u128 slot = (u128{static_cast<uint64_t>(p)} * starts) >> 64;
    const u128 block = segment * layer.segment_blocks + slot / kBlockSlots;
    const uint64_t offset = static_cast<uint64_t>(slot % kBlockSlots);
    // Code of block b: bits 2(b mod 4).. of byte b / 4 of the layer's codes.
    const uint8_t code_byte =
        Byte(filter.bytes,
             layer.threshold_offset + static_cast<uint64_t>(block / 4));
    const int code = (code_byte >> (2 * static_cast<int>(block % 4))) & 3;
    if (offset < kThresholdOffsets[code]) continue;  // bumped to layer i + 1
    const uint32_t cols = r + (block >= layer.first_upper ? 1 : 0);
    const uint64_t x = h * kCoeffMultiplier;
    const uint64_t coeff = (x ^ (x >> 32)) | 1;
    const uint64_t fp = (h * kFingerprintMultiplier) >> 32;
    const u128 here = BlockStartWord(layer, r, block);
    const u128 next = BlockStartWord(layer, r, block + 1);
    for (uint32_t c = 0; c < cols; ++c) {
      uint64_t bits =
          Word(filter.bytes,
               layer.words_offset + static_cast<uint64_t>(8 * (here + c)));
      bits >>= offset;
      if (offset != 0) {
        bits |= Word(filter.bytes,
                     layer.words_offset + static_cast<uint64_t>(8 * (next + c)))
                << (64 - offset);
      }
      if (Parity(coeff & bits) != ((fp >> c) & 1)) return false;
    }
    return true;
  }
  return true;  // bumped past the last layer
}

}  // namespace burr_model
}  // namespace sstfilter
