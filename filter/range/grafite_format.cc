#include "filter/range/grafite_format.h"

#include "util/coding.h"

namespace sstfilter {
namespace grafite_internal {
namespace {

using filter_internal::Verdict;

}  // namespace

uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint64_t ModMersenne61(unsigned __int128 x) {
  uint64_t folded =
      static_cast<uint64_t>(x & kMersenne61) + static_cast<uint64_t>(x >> 61);
  folded = (folded & kMersenne61) + (folded >> 61);
  return folded >= kMersenne61 ? folded - kMersenne61 : folded;
}

LocalityHash::LocalityHash(uint64_t universe, uint64_t seed)
    : universe_(universe) {
  uint64_t state = seed;
  for (uint64_t& coefficient : coefficients_)
    coefficient = SplitMix64(&state) % kMersenne61;
}

uint64_t LocalityHash::BlockOffset(uint64_t block) const {
  const uint64_t y = ModMersenne61(block);
  // Horner's rule, every step reduced mod p (each product is below 2^122).
  uint64_t value = coefficients_[3];
  for (int i = 2; i >= 0; --i) {
    value = ModMersenne61(static_cast<unsigned __int128>(value) * y +
                          coefficients_[i]);
  }
  return value % universe_;
}

GrafiteShape ShapeOf(uint64_t universe, uint64_t num_values, int low_bits) {
  GrafiteShape shape;
  shape.num_buckets = ((universe - 1) >> low_bits) + 1;
  shape.low_words = (num_values * low_bits + 63) / 64;
  shape.high_words = (num_values + shape.num_buckets + 63) / 64;
  shape.num_samples = (shape.num_buckets + kSelectSample - 1) / kSelectSample;
  return shape;
}

ParsedGrafite ParseGrafite(absl::string_view filter) {
  ParsedGrafite parsed;
  if (filter.size() < kTrailerBytes) {
    parsed.verdict = Verdict::kMatchNothing;  // too short to be a filter
    return parsed;
  }
  const char* trailer = filter.data() + filter.size() - kTrailerBytes;
  parsed.universe = DecodeFixed64(trailer);
  parsed.num_values = DecodeFixed64(trailer + 8);
  parsed.num_codes = DecodeFixed64(trailer + 16);
  parsed.seed = DecodeFixed64(trailer + 24);
  const uint8_t marker = static_cast<uint8_t>(trailer[32]);
  parsed.low_bits = static_cast<uint8_t>(trailer[33]);
  parsed.verdict = Verdict::kMatchAll;  // until every check passes
  if (marker != kFormatMarker) return parsed;
  if (parsed.num_values == 0) {
    // An empty key set: a bare trailer, nothing else.
    if (parsed.num_codes == 0 && filter.size() == kTrailerBytes)
      parsed.verdict = Verdict::kMatchNothing;
    return parsed;
  }
  if (parsed.universe < kMinUniverse || parsed.universe > kMaxUniverse ||
      parsed.low_bits > kMaxLowBits || parsed.num_values > kMaxValues ||
      parsed.num_values > parsed.universe ||
      parsed.num_codes < parsed.num_values) {
    return parsed;
  }
  // Bounds the arithmetic below: a consistent filter has a bit per bucket.
  const uint64_t body_bytes = filter.size() - kTrailerBytes;
  if (((parsed.universe - 1) >> parsed.low_bits) >= 8 * body_bytes)
    return parsed;
  const GrafiteShape shape =
      ShapeOf(parsed.universe, parsed.num_values, parsed.low_bits);
  if (shape.body_bytes() != body_bytes) return parsed;
  parsed.num_buckets = shape.num_buckets;
  parsed.low_words = shape.low_words;
  parsed.high_words = shape.high_words;
  parsed.num_samples = shape.num_samples;
  parsed.low = filter.data();
  parsed.high = parsed.low + 8 * shape.low_words;
  parsed.samples = parsed.high + 8 * shape.high_words;
  parsed.verdict = Verdict::kProbe;
  return parsed;
}

}  // namespace grafite_internal
}  // namespace sstfilter
