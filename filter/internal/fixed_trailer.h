// The trailer of sstfilter's own formats (the native Bloom filter and the
// compact filter): after the body,
//
//   [variable part] [length: its bytes] [marker] [parameter]
//
// where the marker names the format, the parameter is the format's own
// (probes, columns) and the variable part holds its varints. Each format's
// README draws what its variable part holds.
//
// Internal to the filter families.

#ifndef SSTFILTER_FILTER_INTERNAL_FIXED_TRAILER_H_
#define SSTFILTER_FILTER_INTERNAL_FIXED_TRAILER_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "filter/internal/verdict.h"

namespace sstfilter {
namespace filter_internal {

constexpr size_t kFixedTrailerBytes = 3;  // length byte, marker, parameter

// What a format's trailer may be.
struct TrailerSpec {
  size_t min_filter_bytes;  // shorter bytes hold no key set
  uint8_t marker;
  size_t min_variable_bytes;
  size_t max_variable_bytes;
  uint8_t min_parameter;
  uint8_t max_parameter;
};

struct FixedTrailer {
  uint8_t parameter = 0;
  absl::string_view variable;  // the variable part
  absl::string_view body;      // every byte before it
};

// Splits filter into body, variable part and the fixed three bytes. Nothing,
// with *verdict the filter's answer, when it is not the format's: too short
// (kMatchNothing); another marker, or a length or parameter out of the spec's
// range, or a length past the filter's start (kMatchAll). The trailer
// otherwise, with *verdict kMatchAll: the answer until the variable part
// proves the filter well-formed.
inline std::optional<FixedTrailer> ReadFixedTrailer(absl::string_view filter,
                                                    const TrailerSpec& spec,
                                                    Verdict* verdict) {
  const size_t size = filter.size();
  if (size < spec.min_filter_bytes || size < kFixedTrailerBytes) {
    *verdict = Verdict::kMatchNothing;
    return std::nullopt;
  }
  *verdict = Verdict::kMatchAll;
  const uint8_t parameter = static_cast<uint8_t>(filter[size - 1]);
  const size_t length = static_cast<uint8_t>(filter[size - 3]);
  if (static_cast<uint8_t>(filter[size - 2]) != spec.marker ||
      parameter < spec.min_parameter || parameter > spec.max_parameter ||
      length < spec.min_variable_bytes || length > spec.max_variable_bytes ||
      length > size - kFixedTrailerBytes) {
    return std::nullopt;
  }
  FixedTrailer trailer;
  trailer.parameter = parameter;
  trailer.body = filter.substr(0, size - kFixedTrailerBytes - length);
  trailer.variable = filter.substr(trailer.body.size(), length);
  return trailer;
}

// Appends the trailer. REQUIRES: variable.size() <= 255.
inline void AppendTrailer(absl::string_view variable, uint8_t marker,
                          uint8_t parameter, std::string* dst) {
  dst->append(variable.data(), variable.size());
  dst->push_back(static_cast<char>(variable.size()));  // bytes of it
  dst->push_back(static_cast<char>(marker));
  dst->push_back(static_cast<char>(parameter));
}

}  // namespace filter_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_INTERNAL_FIXED_TRAILER_H_
