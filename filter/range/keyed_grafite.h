// The keyed range filters: a table's key coders (key_coder.h), one per key
// length (kLengthKeyedGrafiteName) or one for all keys (kKeyedGrafiteName),
// followed by a Grafite filter of the codes they give the table's keys, so
// that keys are seen past their common prefix and their first 8 bytes.
// README.md ("Keys as they are") draws the layouts.
//
// Internal header: include filter/range/range_filter.h instead.

#ifndef SSTFILTER_FILTER_RANGE_KEYED_GRAFITE_H_
#define SSTFILTER_FILTER_RANGE_KEYED_GRAFITE_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/strings/string_view.h"
#include "filter/filter_policy.h"
#include "filter/range/grafite_sizing.h"
#include "filter/range/range_filter.h"

namespace sstfilter {
namespace grafite_internal {

constexpr char kKeyedGrafiteName[] = "sstfilter.KeyedGrafite1";
// Format version 2: the same with a CRC32C of its bytes
// (filter/format_version_2.md).
constexpr char kCheckedKeyedGrafiteName[] = "sstfilter.KeyedGrafite2";
// One coder per key length: what the keyed policies write.
constexpr char kLengthKeyedGrafiteName[] = "sstfilter.KeyedGrafiteByLength1";
constexpr char kCheckedLengthKeyedGrafiteName[] =
    "sstfilter.KeyedGrafiteByLength2";

// The grafite family's spec param that chooses the key coding, and its
// values: range_key.h's first 8 bytes (the default) or key_coder.h's.
constexpr char kCodesParam[] = "codes";
constexpr char kFirst8BytesCodes[] = "first8";
constexpr char kPerTableCodes[] = "table";
constexpr char kCodesWords[] = "first8|table";
constexpr char kPerTableVariant[] = "codes=table";

// Last byte of every keyed filter, one per layout. A Grafite filter's last
// byte is its low bits count, at most 62, so no two formats' bytes read as
// each other.
constexpr uint8_t kKeyedFormatMarker = 0xA9;
constexpr uint8_t kLengthKeyedFormatMarker = 0xAA;
// Trailer: the coders' size (fixed32), then the marker.
constexpr size_t kKeyedTrailerBytes = 4 + 1;

// Whether filter's last byte is either marker.
bool IsKeyedGrafite(absl::string_view filter);
// Whether it is kLengthKeyedFormatMarker.
bool IsLengthKeyedGrafite(absl::string_view filter);

enum class KeyedLayout {
  kOneCoder,        // kKeyedGrafiteName
  kCoderPerLength,  // kLengthKeyedGrafiteName
};

std::unique_ptr<FilterBuilder> NewKeyedGrafiteBuilder(
    const GrafiteSizing& sizing,
    KeyedLayout layout = KeyedLayout::kCoderPerLength);

// Accepts any bytes: shorter than a trailer, it matches nothing; a marker,
// coder or Grafite part that does not parse matches everything.
std::unique_ptr<RangeFilterReader> NewKeyedGrafiteReader(
    absl::string_view filter);

}  // namespace grafite_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_RANGE_KEYED_GRAFITE_H_
