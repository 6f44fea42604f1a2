// Trailer encoding and decoding of the native Bloom filter (see
// bloom_format.h).

#include "filter/bloom/bloom_format.h"

#include "filter/internal/fixed_trailer.h"
#include "util/bloom_math.h"
#include "util/coding.h"

namespace sstfilter {
namespace bloom_internal {

static_assert(kFixedTrailerBytes == filter_internal::kFixedTrailerBytes,
              "the trailer ends as the other families' do");

void AppendTrailer(uint64_t num_keys, int num_probes, std::string* dst) {
  PutVarint64(dst, num_keys);
  filter_internal::AppendFixedTrailer(
      /*length=*/VarintLength(num_keys), kFormatMarker,
      /*parameter=*/num_probes, dst);  // Remember # of probes in filter
}

ParsedFilter ParseFilter(absl::string_view filter) {
  ParsedFilter parsed;
  const filter_internal::FixedTrailer trailer =
      filter_internal::ReadFixedTrailer(filter, kMinFilterBytes, kFormatMarker);
  parsed.verdict = trailer.verdict;
  if (!trailer.marked) return parsed;
  const size_t size = filter.size();
  const uint8_t k = trailer.parameter;
  const uint8_t varint_bytes = trailer.length;  // bytes of num_keys' varint
  if (k < kMinProbes || k > kMaxProbes) return parsed;
  if (varint_bytes < 1 || varint_bytes > kMaxVarint64Bytes) return parsed;
  if (size < kFixedTrailerBytes + varint_bytes) return parsed;

  const char* varint_end = filter.data() + size - kFixedTrailerBytes;
  const char* varint_begin = varint_end - varint_bytes;
  uint64_t num_keys = 0;
  if (GetVarint64Ptr(varint_begin, varint_end, &num_keys) != varint_end)
    return parsed;
  // Only the shortest encoding is written; another one is not this format.
  if (VarintLength(num_keys) != varint_bytes) return parsed;

  const uint64_t body_bytes =
      static_cast<uint64_t>(varint_begin - filter.data());
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
  parsed.num_probes = k;
  return parsed;
}

}  // namespace bloom_internal
}  // namespace sstfilter
