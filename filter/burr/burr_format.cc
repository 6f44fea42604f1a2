// Trailer encoding and decoding of the bumped Ribbon filter (see
// burr_format.h).

#include "filter/burr/burr_format.h"

#include <cassert>
#include <optional>

#include "filter/internal/fixed_trailer.h"
#include "util/coding.h"

namespace sstfilter {
namespace burr_internal {

// The header holds at least the three counts' varints.
constexpr filter_internal::TrailerSpec kTrailer = {
    kMinFilterBytes,          kFormatMarker,
    /*min_variable_bytes=*/3, /*max_variable_bytes=*/kMaxHeaderBytes,
    /*min_parameter=*/0,      /*max_parameter=*/kMaxColumns - 1};  // upper: + 1

size_t HeaderBytes(uint64_t num_keys, uint64_t seed,
                   const std::vector<LayerShape>& layers) {
  size_t bytes =
      VarintLength(num_keys) + VarintLength(seed) + VarintLength(layers.size());
  for (const LayerShape& layer : layers) {
    bytes += VarintLength(layer.num_segments) +
             VarintLength(layer.segment_blocks) +
             VarintLength(layer.upper_start);
  }
  return bytes;
}

void AppendTrailer(uint64_t num_keys, uint64_t seed, int columns,
                   const std::vector<LayerShape>& layers, std::string* dst) {
  std::string header;
  PutVarint64(&header, num_keys);
  PutVarint64(&header, seed);
  PutVarint64(&header, layers.size());
  for (const LayerShape& layer : layers) {
    PutVarint64(&header, layer.num_segments);
    PutVarint64(&header, layer.segment_blocks);
    PutVarint64(&header, layer.upper_start);
  }
  assert(header.size() <= kMaxHeaderBytes);
  filter_internal::AppendTrailer(header, kFormatMarker,
                                 /*parameter=*/columns,
                                 dst);  // columns of the lower blocks
}

ParsedFilter ParseFilter(absl::string_view filter) {
  ParsedFilter parsed;
  const std::optional<filter_internal::FixedTrailer> trailer =
      filter_internal::ReadFixedTrailer(filter, kTrailer, &parsed.verdict);
  if (!trailer) return parsed;
  const uint8_t columns = trailer->parameter;
  const uint64_t body_bytes = trailer->body.size();
  const char* p = trailer->variable.data();
  const char* const header_end = p + trailer->variable.size();
  uint64_t num_keys = 0, seed = 0, num_layers = 0;
  if ((p = GetVarint64Ptr(p, header_end, &num_keys)) == nullptr) return parsed;
  if ((p = GetVarint64Ptr(p, header_end, &seed)) == nullptr) return parsed;
  if ((p = GetVarint64Ptr(p, header_end, &num_layers)) == nullptr)
    return parsed;
  if (seed > kMaxSeed || num_layers > kMaxLayers) return parsed;
  if ((num_keys == 0) != (num_layers == 0)) return parsed;

  // Every size is checked against the body before it is multiplied, so no
  // product below can overflow: words and blocks are bounded by body bits.
  // The layers' shapes first; their pointers once the body is known to fit.
  auto& layers = parsed.layers;
  layers.reserve(num_layers);
  uint64_t words = 0, threshold_bytes = 0;
  for (uint64_t i = 0; i < num_layers; ++i) {
    // Decoded in place: a ParsedLayer built aside and copied in took a third
    // of a parse (GCC copies it with `rep movs`).
    LayerShape& shape = layers.emplace_back().shape;
    if ((p = GetVarint64Ptr(p, header_end, &shape.num_segments)) == nullptr)
      return parsed;
    if ((p = GetVarint64Ptr(p, header_end, &shape.segment_blocks)) == nullptr)
      return parsed;
    if ((p = GetVarint64Ptr(p, header_end, &shape.upper_start)) == nullptr)
      return parsed;
    if (shape.segment_blocks < 1 || shape.segment_blocks > kMaxSegmentBlocks)
      return parsed;
    // Each block has at least one threshold bit pair: blocks <= 4 * body.
    if (shape.num_segments < 1 || shape.num_segments > 4 * body_bytes)
      return parsed;
    const uint64_t blocks = shape.num_blocks();
    if (blocks > 4 * body_bytes || shape.upper_start > blocks) return parsed;
    words += shape.num_words(columns);
    threshold_bytes += shape.threshold_bytes();
    if (words > body_bytes || threshold_bytes > body_bytes) return parsed;
  }
  if (p != header_end || words * 8 + threshold_bytes != body_bytes) {
    layers.clear();
    return parsed;
  }
  if (num_keys == 0) {
    parsed.verdict = Verdict::kMatchNothing;  // the empty key set, as written
    return parsed;
  }

  const char* word_at = filter.data();
  const char* threshold_at = filter.data() + words * 8;
  for (ParsedLayer& layer : layers) {
    layer.words = word_at;
    layer.thresholds = reinterpret_cast<const uint8_t*>(threshold_at);
    layer.layer_starts =
        layer.shape.num_segments * SegmentStarts(layer.shape.segment_blocks);
    word_at += layer.shape.num_words(columns) * 8;
    threshold_at += layer.shape.threshold_bytes();
  }
  parsed.verdict = Verdict::kProbe;
  parsed.num_keys = num_keys;
  parsed.seed = seed;
  parsed.columns = columns;
  return parsed;
}

}  // namespace burr_internal
}  // namespace sstfilter
