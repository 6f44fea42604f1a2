// A reference model of the compact filter format, version 1
// (kBumpedRibbonName), written from its definition in filter/burr/README.md
// alone: it shares no code with the production reader (its hash is libxxhash's
// XXH3 called directly), so that a test comparing the two checks the reader and
// builder against the document rather than against themselves. Slow and plain
// on purpose: one key at a time, every field parsed afresh, 128-bit arithmetic
// for every size.

#ifndef SSTFILTER_FILTER_BURR_BURR_MODEL_H_
#define SSTFILTER_FILTER_BURR_BURR_MODEL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace sstfilter {
namespace burr_model {

// What the "Reading any bytes" table says of a filter before any key.
enum class Shape {
  kMatchesNothing,  // too short, or the empty key set
  kMayMatch,        // another format, reserved or inconsistent
  kProbe,           // a well-formed filter of at least one key
};

struct ModelLayer {
  uint64_t segments = 0;          // S
  uint64_t segment_blocks = 0;    // G
  uint64_t first_upper = 0;       // U
  uint64_t words_offset = 0;      // byte offset of the layer's words
  uint64_t threshold_offset = 0;  // byte offset of the layer's threshold codes
};

struct ModelFilter {
  Shape shape = Shape::kMayMatch;
  absl::string_view bytes;  // the whole filter
  uint32_t columns = 0;     // r
  uint64_t num_keys = 0;    // n
  uint64_t seed = 0;
  std::vector<ModelLayer> layers;
};

// Reads the trailer and header of filter, row by row of the README's table.
// REQUIRES: filter outlives the result.
ModelFilter ParseModel(absl::string_view filter);

// The README's query: whether key may be in the filter.
bool ModelMayMatch(const ModelFilter& filter, absl::string_view key);

}  // namespace burr_model
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BURR_BURR_MODEL_H_
