// The fixed end of the trailer of sstfilter's own formats (the native Bloom
// filter and the compact filter): their last three bytes are
//
//   [length: bytes of the trailer's variable part] [marker] [parameter]
//
// where the marker names the format and the parameter is the format's own
// (probes, columns). Each format's README draws the rest of its trailer.
//
// Internal to the filter families.

#ifndef SSTFILTER_FILTER_INTERNAL_FIXED_TRAILER_H_
#define SSTFILTER_FILTER_INTERNAL_FIXED_TRAILER_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "filter/internal/verdict.h"

namespace sstfilter {
namespace filter_internal {

constexpr size_t kFixedTrailerBytes = 3;  // length byte, marker, parameter

struct FixedTrailer {
  // kMatchNothing for bytes too short to hold a key set; kMatchAll otherwise,
  // the answer until the rest of the trailer proves the filter well-formed.
  Verdict verdict = Verdict::kMatchNothing;
  // Whether the format's marker is in place; when not, the bytes are another
  // format's and the fields below are unset.
  bool marked = false;
  uint8_t length = 0;
  uint8_t parameter = 0;
};

// Reads the fixed trailer of a filter of a format whose shortest filter is
// min_filter_bytes long. REQUIRES: min_filter_bytes >= kFixedTrailerBytes.
inline FixedTrailer ReadFixedTrailer(absl::string_view filter,
                                     size_t min_filter_bytes, uint8_t marker) {
  FixedTrailer trailer;
  const size_t size = filter.size();
  if (size < min_filter_bytes) return trailer;
  trailer.verdict = Verdict::kMatchAll;
  if (static_cast<uint8_t>(filter[size - 2]) != marker) return trailer;
  trailer.marked = true;
  trailer.length = static_cast<uint8_t>(filter[size - 3]);
  trailer.parameter = static_cast<uint8_t>(filter[size - 1]);
  return trailer;
}

inline void AppendFixedTrailer(uint8_t length, uint8_t marker,
                               uint8_t parameter, std::string* dst) {
  dst->push_back(static_cast<char>(length));
  dst->push_back(static_cast<char>(marker));
  dst->push_back(static_cast<char>(parameter));
}

}  // namespace filter_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_INTERNAL_FIXED_TRAILER_H_
