#include "filter/range/grafite_sizing.h"

#include <cmath>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "filter/range/grafite_format.h"

namespace sstfilter {
namespace grafite_internal {
namespace {

// High-vector bits per bucket: its own zero plus its share of the samples.
constexpr double kBitsPerBucket =
    1.0 + 8.0 * kSampleBytes / static_cast<double>(kSelectSample);

}  // namespace

GrafiteSizing SizingForBudget(double bits_per_key) {
  GrafiteSizing best;
  best.bits_per_key = bits_per_key;
  for (int low = 0; low <= kMaxLowBits; ++low) {
    // Bits per key: low + 1 (a value's one bit) + buckets per key.
    const double buckets_per_key = (bits_per_key - low - 1) / kBitsPerBucket;
    if (buckets_per_key <= 0) break;
    const double universe_per_key = std::ldexp(buckets_per_key, low);
    if (universe_per_key > best.universe_per_key) {
      best.low_bits = low;
      best.universe_per_key = universe_per_key;
    }
  }
  return best;
}

double BudgetForRate(double fpp, uint64_t length) {
  // The bound length / m is fpp when m = length / fpp.
  const double universe_per_key = static_cast<double>(length) / fpp;
  double best = HUGE_VAL;
  for (int low = 0; low <= kMaxLowBits; ++low) {
    const double bits =
        low + 1 + kBitsPerBucket * std::ldexp(universe_per_key, -low);
    best = std::min(best, bits);
  }
  return best;
}

absl::StatusOr<GrafiteSizing> SizingForOptions(const FilterOptions& options) {
  if (absl::Status status = ValidateKeyFilterOptions(options); !status.ok()) {
    return status;
  }
  const uint64_t length = options.max_range_length.value_or(1);
  if (length == 0) {
    return absl::InvalidArgumentError(
        "FilterOptions: max_range_length 0: a range holds at least one key "
        "code");
  }
  double bits;
  if (options.fpp.has_value()) {
    const double fpp = *options.fpp;
    bits = BudgetForRate(fpp, length);
    if (bits > kMaxRangeBitsPerKey) {
      return absl::InvalidArgumentError(
          absl::StrCat("FilterOptions: fpp ", fpp, " for ranges of ", length,
                       " codes needs ", bits, " bits per key, more than ",
                       kMaxRangeBitsPerKey));
    }
    // A loose target needs less than the smallest budget, which meets it.
    bits = std::max(bits, kMinRangeBitsPerKey);
  } else {
    bits = *options.bits_per_key;
    if (!(bits >= kMinRangeBitsPerKey && bits <= kMaxRangeBitsPerKey)) {
      return absl::InvalidArgumentError(
          absl::StrCat("FilterOptions: bits_per_key ", bits, " is not in [",
                       kMinRangeBitsPerKey, ", ", kMaxRangeBitsPerKey, "]"));
    }
  }
  return SizingForBudget(bits);
}

uint64_t UniverseFor(const GrafiteSizing& sizing, uint64_t num_codes) {
  const double universe =
      std::ceil(sizing.universe_per_key * static_cast<double>(num_codes));
  if (!(universe < static_cast<double>(kMaxUniverse))) return kMaxUniverse;
  return std::max(kMinUniverse, static_cast<uint64_t>(universe));
}

}  // namespace grafite_internal
}  // namespace sstfilter
