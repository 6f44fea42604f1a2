// Trailer encoding and decoding of the native Bloom filter (see
// bloom_format.h).

#include "filter/bloom/bloom_format.h"

#include <optional>

#include "filter/internal/fixed_trailer.h"
#include "util/bloom_math.h"
#include "util/coding.h"

namespace sstfilter {
namespace bloom {

// The variable part of the trailer is num_keys' varint, at its shortest.
constexpr filter_internal::TrailerSpec kTrailer = {
    bloom_internal::kMinFilterBytes,
    kFormatMarker,
    /*min_variable_bytes=*/1,
    /*max_variable_bytes=*/kMaxVarint64Bytes,
    /*min_parameter=*/kMinProbes,
    /*max_parameter=*/kMaxProbes};

void AppendTrailer(uint64_t num_keys, int num_probes, std::string* dst) {
  std::string varint;
  PutVarint64(&varint, num_keys);
  filter_internal::AppendTrailer(varint, kFormatMarker,
                                 /*parameter=*/num_probes,
                                 dst);  // Remember # of probes in filter
}

ParsedFilter ParseFilter(absl::string_view filter) {
  ParsedFilter parsed;
  const std::optional<filter_internal::FixedTrailer> trailer =
      filter_internal::ReadFixedTrailer(filter, kTrailer, &parsed.verdict);
  if (!trailer) return parsed;

  const absl::string_view varint = trailer->variable;
  uint64_t num_keys = 0;
  if (GetVarint64Ptr(varint.data(), varint.data() + varint.size(), &num_keys) !=
      varint.data() + varint.size()) {
    return parsed;
  }
  // Only the shortest encoding is written; another one is not this format.
  if (static_cast<size_t>(VarintLength(num_keys)) != varint.size())
    return parsed;

  const uint64_t body_bytes = trailer->body.size();
  if (num_keys == 0) {
    // An empty key set has an empty body; any body bytes contradict the count.
    if (body_bytes == 0) parsed.verdict = Verdict::kMatchNothing;
    return parsed;
  }
  // A writer sizes the body as ceil(num_keys * c / 8) bytes with c in
  // [kMinStoredBitsPerKey, kMaxStoredBitsPerKey].
  const unsigned __int128 body_bits =
      static_cast<unsigned __int128>(body_bytes) * 8;
  const unsigned __int128 keys = num_keys;
  if (body_bits < keys * kMinStoredBitsPerKey) return parsed;
  if (body_bits >= keys * kMaxStoredBitsPerKey + 8) return parsed;

  parsed.verdict = Verdict::kProbe;
  parsed.body = filter.data();
  parsed.layout = MakeBodyLayout(body_bytes);
  parsed.num_keys = num_keys;
  parsed.num_probes = trailer->parameter;
  return parsed;
}

}  // namespace bloom
}  // namespace sstfilter
