// Sizing of the bumped Ribbon filter (see burr_sizing.h).

#include "filter/burr/burr_sizing.h"

#include <algorithm>
#include <cmath>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace sstfilter {
namespace burr_internal {

absl::StatusOr<BurrSizing> SizeForFpp(double fpp) {
  if (!(fpp >= std::ldexp(1.0, -kMaxColumns) && fpp < 1.0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("bumped Ribbon: fpp ", fpp, " is below 2^-", kMaxColumns,
                     ", the rate of its widest fingerprints"));
  }
  BurrSizing sizing;
  // 2^-columns >= fpp > 2^-(columns+1).
  int columns = static_cast<int>(std::floor(-std::log2(fpp)));
  if (std::ldexp(1.0, -columns) < fpp) --columns;
  if (columns >= kMaxColumns) columns = kMaxColumns - 1;  // fpp = 2^-32
  const double lower_rate = std::ldexp(1.0, -columns);
  // (1 - f) lower_rate + f lower_rate / 2 = fpp.
  sizing.columns = columns;
  sizing.upper_fraction =
      std::min(1.0, std::max(0.0, 2.0 * (lower_rate - fpp) / lower_rate));
  sizing.bits_per_key = (columns + sizing.upper_fraction) * kSpaceOverhead;
  return sizing;
}

BurrSizing SizeForBitsPerKey(double bits_per_key) {
  const double mean_columns =
      std::min<double>(kMaxColumns, bits_per_key / kSpaceOverhead);
  BurrSizing sizing;
  sizing.columns =
      std::min(kMaxColumns - 1, static_cast<int>(std::floor(mean_columns)));
  sizing.upper_fraction = std::min(1.0, mean_columns - sizing.columns);
  sizing.bits_per_key =
      (sizing.columns + sizing.upper_fraction) * kSpaceOverhead;
  return sizing;
}

LayerShape ShapeForKeys(uint64_t num_keys, double upper_fraction) {
  // A layer of few keys is not overloaded: in one block every key starts at
  // slot 0, so a failure there bumps them all, and a small layer has too few
  // blocks to even out. Up to kSmallLayerKeys keys fit one block (32 random
  // 64-bit equations are independent but with probability about 2^-32); up to
  // kSlackLayerKeys get slack and a block more.
  const double keys = static_cast<double>(num_keys);
  const double slots = num_keys <= kSmallLayerKeys ? kBlockSlots
                       : num_keys < kSlackLayerKeys
                           ? keys * kSmallLayerSlotsPerKey + kBlockSlots
                           : keys * kSlotsPerKey;
  const uint64_t wanted = std::max<uint64_t>(
      1, static_cast<uint64_t>(std::ceil(slots / kBlockSlots)));
  LayerShape shape;
  shape.num_segments = (wanted + kMaxSegmentBlocks - 1) / kMaxSegmentBlocks;
  shape.segment_blocks = (wanted + shape.num_segments - 1) / shape.num_segments;
  // The upper blocks are the last ones: as few as give them at least
  // upper_fraction of the starts (a segment's last block holds one start), so
  // that the rate is at most the one asked for even in a layer of few blocks.
  const double total_starts =
      static_cast<double>(shape.num_segments) *
      static_cast<double>((shape.segment_blocks - 1) * kBlockSlots + 1);
  const double wanted_starts = upper_fraction * total_starts;
  double upper_starts = 0.0;
  shape.upper_start = shape.num_blocks();
  while (shape.upper_start > 0 && upper_starts < wanted_starts * (1 - 1e-12)) {
    --shape.upper_start;
    const bool last = (shape.upper_start + 1) % shape.segment_blocks == 0;
    upper_starts += last ? 1.0 : static_cast<double>(kBlockSlots);
  }
  return shape;
}

double FilterFpp(const ParsedFilter& filter) {
  double reach = 1.0;  // share of queries that get to this layer
  double fpp = 0.0;
  for (const ParsedLayer& layer : filter.layers) {
    const LayerShape& shape = layer.shape;
    const uint64_t per_segment =
        (shape.segment_blocks - 1) * kBlockSlots + 1;  // starts
    double kept_rate = 0.0;  // sum over kept starts of their rate
    double bumped = 0.0;     // bumped starts
    for (uint64_t b = 0; b < shape.num_blocks(); ++b) {
      const uint32_t threshold =
          kThresholdOffsets[ThresholdCode(layer.thresholds, b)];
      // The last block of a segment holds one start, at offset 0.
      const bool last = (b + 1) % shape.segment_blocks == 0;
      const double starts = last ? 1.0 : static_cast<double>(kBlockSlots);
      const double kept = last ? (threshold == 0 ? 1.0 : 0.0)
                               : static_cast<double>(kBlockSlots - threshold);
      const int columns = filter.columns + (b >= shape.upper_start ? 1 : 0);
      kept_rate += kept * std::ldexp(1.0, -columns);
      bumped += starts - kept;
    }
    const double total = static_cast<double>(per_segment) *
                         static_cast<double>(shape.num_segments);
    fpp += reach * kept_rate / total;
    reach *= bumped / total;
  }
  return std::min(1.0, fpp + reach);
}

absl::StatusOr<BurrSizing> SizeForOptions(const FilterOptions& options) {
  if (options.fpp.has_value()) return SizeForFpp(*options.fpp);
  return SizeForBitsPerKey(*options.bits_per_key);
}

}  // namespace burr_internal
}  // namespace sstfilter
