#include "inmemory/mutable/mutable_layout.h"

#include <algorithm>
#include <cmath>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "filter/bloom/bloom_format.h"
#include "filter/bloom/bloom_sizing.h"
#include "filter/internal/checked_filter.h"
#include "inmemory/mutable/fill_estimates.h"
#include "util/coding.h"

namespace sstfilter {
namespace mutable_internal {
namespace {

using bloom::kBlockBytes;
using bloom::kMaxStoredBitsPerKey;
using bloom::kMinStoredBitsPerKey;

// The key count a reader accepts for a body of body_bits bits nearest to
// estimate: ParseFilter reads a body of n keys only if
// n * kMinStoredBitsPerKey <= body_bits < n * kMaxStoredBitsPerKey + 8.
// REQUIRES: body_bits >= kBlockBits.
uint64_t TrailerKeyCount(double estimate, uint64_t body_bits) {
  const uint64_t lowest = (body_bits - 8) / kMaxStoredBitsPerKey + 1;
  const uint64_t highest = body_bits / kMinStoredBitsPerKey;
  if (!(estimate < static_cast<double>(highest))) return highest;  // and NaN
  return std::clamp<uint64_t>(static_cast<uint64_t>(std::llround(estimate)),
                              lowest, highest);
}

}  // namespace

absl::StatusOr<MutableShape> ShapeFor(const FilterOptions& options,
                                      uint64_t expected_keys,
                                      uint64_t max_bytes,
                                      absl::string_view max_bytes_name,
                                      absl::string_view who) {
  if (absl::Status status = ValidateFilterOptions(options); !status.ok()) {
    return status;
  }
  absl::StatusOr<bloom::BloomSizing> sizing = bloom::SizeForOptions(options);
  if (!sizing.ok()) return sizing.status();
  if (expected_keys == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(who, ": expected_keys must be at least 1, got 0"));
  }
  absl::StatusOr<uint64_t> blocks = BodyBlocksFor(
      expected_keys, sizing->bits_per_key, max_bytes, max_bytes_name, who);
  if (!blocks.ok()) return blocks.status();
  MutableShape shape;
  shape.bits_per_key = sizing->bits_per_key;
  shape.num_probes = sizing->num_probes;
  shape.num_blocks = *blocks;
  return shape;
}

absl::StatusOr<uint64_t> BodyBlocksFor(uint64_t expected_keys,
                                       double bits_per_key, uint64_t max_bytes,
                                       absl::string_view max_bytes_name,
                                       absl::string_view who) {
  // In long double: expected_keys * c may pass 2^64.
  const long double wanted_bytes =
      std::ceil(static_cast<long double>(expected_keys) * bits_per_key / 8.0L);
  if (wanted_bytes > static_cast<long double>(max_bytes)) {
    return absl::InvalidArgumentError(absl::StrCat(
        who, ": expected_keys ", expected_keys, " at ", bits_per_key,
        " bits/key needs ", static_cast<double>(wanted_bytes),
        " bytes, more than the limit of ", max_bytes, " (", max_bytes_name,
        ")"));
  }
  // Whole blocks only: every block is then a regular 512-bit one, the block
  // the atomic words and the native reader's fast paths handle, and the
  // frozen body needs no irregular last block.
  return std::max<uint64_t>(
      1, (static_cast<uint64_t>(wanted_bytes) + kBlockBytes - 1) / kBlockBytes);
}

size_t MaxFrozenTrailerBytes() {
  return kMaxVarint64Bytes + bloom::kFixedTrailerBytes +
         filter_internal::kCheckedTrailerBytes + 1;
}

void FinishFrozenFilter(uint64_t bits_set, uint64_t num_blocks, int num_probes,
                        bool self_checksum, std::string* filter) {
  if (bits_set == 0) {
    // The native filter of no keys: an empty body and a count of 0 (a fresh
    // string, not one holding the body's capacity).
    std::string empty;
    bloom::AppendTrailer(0, num_probes, &empty);
    if (self_checksum) filter_internal::AppendCheckedTrailer(0, &empty);
    filter->swap(empty);
    return;
  }
  const double estimate = EstimateKeys(bits_set, num_blocks, num_probes);
  bloom::AppendTrailer(TrailerKeyCount(estimate, filter->size() * 8),
                       num_probes, filter);
  if (self_checksum) filter_internal::AppendCheckedTrailer(0, filter);
}

}  // namespace mutable_internal
}  // namespace sstfilter
