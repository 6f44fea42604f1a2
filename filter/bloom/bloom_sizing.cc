// Sizing of the native Bloom filter (see bloom_sizing.h).

#include "filter/bloom/bloom_sizing.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "filter/filter_policy.h"
#include "util/bloom_math.h"

namespace sstfilter {
namespace bloom {

namespace {

// The layout's rates for every k, prepared once per process. Static storage,
// not the heap: the table is 30 KB, and held in the middle of a process's heap
// it can change when glibc returns freed memory to the system (filter_bench's
// builds of 10^4 keys took twice as long, faulting their pages back in on every
// repetition).
const LocalBloomLayout& Layout() {
  static const LocalBloomLayout layout(static_cast<double>(kBlockBits));
  return layout;
}

}  // namespace

double LayoutFpp(double bits_per_key, int num_probes) {
  return Layout().Fpp(bits_per_key, num_probes);
}

int OptimalProbes(double bits_per_key) {
  return Layout().OptimalProbes(bits_per_key);
}

absl::StatusOr<BloomSizing> SizeForFpp(double fpp) {
  if (absl::Status status = ValidateFilterOptions(FilterOptions::Fpp(fpp));
      !status.ok()) {
    return status;
  }
  const double best_fpp = Layout().OptimalFpp(kMaxBitsPerKey);
  if (best_fpp > fpp) {
    return absl::InvalidArgumentError(absl::StrCat(
        "FilterOptions: fpp ", fpp, " is below ", best_fpp,
        ", the lowest this format reaches at ", kMaxBitsPerKey, " bits/key"));
  }
  return SizeForBitsPerKey(
      Layout().SmallestBitsPerKey(fpp, kMinBitsPerKey, kMaxBitsPerKey));
}

BloomSizing SizeForBitsPerKey(double bits_per_key) {
  BloomSizing sizing;
  sizing.bits_per_key = bits_per_key;
  sizing.num_probes = OptimalProbes(bits_per_key);
  return sizing;
}

uint64_t BodyBytes(uint64_t num_keys, double bits_per_key) {
  if (num_keys == 0) return 0;
  const long double bits = static_cast<long double>(num_keys) * bits_per_key;
  return std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(bits / 8.0L)));
}

absl::StatusOr<BloomSizing> SizeForOptions(const FilterOptions& options) {
  if (options.fpp.has_value()) return SizeForFpp(*options.fpp);
  return SizeForBitsPerKey(*options.bits_per_key);
}

}  // namespace bloom

namespace bloom_internal {

double FilterFpp(const BodyLayout& layout, uint64_t num_keys, int num_probes) {
  const double keys = static_cast<double>(num_keys);
  const double body_bits = static_cast<double>(layout.body_bits);
  const double last_bits = static_cast<double>(layout.last_block_bits);
  if (layout.num_blocks == 1)
    return LocalBloomFppWithKeys(keys, num_probes, body_bits);
  const double bits_per_key = body_bits / keys;
  const double regular_share = (body_bits - last_bits) / body_bits;
  return regular_share * LayoutFpp(bits_per_key, num_probes) +
         (1.0 - regular_share) *
             LocalBloomFpp(bits_per_key, num_probes, last_bits);
}

}  // namespace bloom_internal
}  // namespace sstfilter
