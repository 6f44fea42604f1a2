// The hybrid policies: each family's sizing from the options, the builders of
// hybrid_builder.h and the one format of hybrid_format.h. Format in
// filter/hybrid/README.md.

#include "filter/hybrid/hybrid.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "filter/bloom/bloom_sizing.h"
#include "filter/burr/burr_builder.h"
#include "filter/burr/burr_sizing.h"
#include "filter/format_registry.h"
#include "filter/hybrid/hybrid_builder.h"
#include "filter/hybrid/hybrid_format.h"
#include "filter/internal/checked_filter.h"
#include "filter/policy_spec.h"

namespace sstfilter {
namespace hybrid_internal {
namespace {

class NativePolicy final : public FilterPolicy {
 public:
  NativePolicy(const bloom::BloomSizing& sizing,
               std::shared_ptr<HybridCounters> counters, std::string spec)
      : FilterPolicy(std::move(spec)),
        sizing_(sizing),
        counters_(std::move(counters)) {}

  const FilterFormat& Format() const override { return HybridFormat(); }
  double BitsPerKey() const override { return sizing_.bits_per_key; }
  std::unique_ptr<FilterBuilder> NewBuilder() const override {
    return NewHybridNativeBuilder(sizing_, counters_);
  }
  std::unique_ptr<FilterBuilder> NewSizingBuilder() const override {
    return NewHybridNativeBuilder(sizing_, nullptr);
  }

 private:
  const bloom::BloomSizing sizing_;
  const std::shared_ptr<HybridCounters> counters_;
};

class CompactPolicy final : public FilterPolicy {
 public:
  CompactPolicy(const burr_internal::BurrSizing& sizing,
                const bloom::BloomSizing& fallback, uint64_t max_compact_keys,
                std::shared_ptr<HybridCounters> counters, std::string spec)
      : FilterPolicy(std::move(spec)),
        sizing_(sizing),
        fallback_(fallback),
        max_compact_keys_(max_compact_keys),
        counters_(std::move(counters)) {}

  const FilterFormat& Format() const override { return HybridFormat(); }
  double BitsPerKey() const override { return sizing_.bits_per_key; }
  std::unique_ptr<FilterBuilder> NewBuilder() const override {
    return NewHybridCompactBuilder(sizing_, fallback_, max_compact_keys_,
                                   counters_);
  }
  std::unique_ptr<FilterBuilder> NewSizingBuilder() const override {
    return NewHybridCompactBuilder(sizing_, fallback_, max_compact_keys_,
                                   nullptr);
  }

 private:
  const burr_internal::BurrSizing sizing_;
  const bloom::BloomSizing fallback_;
  const uint64_t max_compact_keys_;
  const std::shared_ptr<HybridCounters> counters_;
};

// The rate of a large compact filter of this sizing: 2^-columns in the lower
// blocks, half that in the upper share.
double CompactFpp(const burr_internal::BurrSizing& sizing) {
  return std::ldexp(1.0 - sizing.upper_fraction / 2, -sizing.columns);
}

// The native sizing for fpp, or the most bits/key the native filter takes
// when it cannot reach fpp (a compact filter of 32 columns, 2^-32).
bloom::BloomSizing NativeSizingForFpp(double fpp) {
  absl::StatusOr<bloom::BloomSizing> sizing = bloom::SizeForFpp(fpp);
  return sizing.ok() ? *sizing : bloom::SizeForBitsPerKey(kMaxBitsPerKey);
}

absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewNativePolicy(
    const FilterOptions& options, std::shared_ptr<HybridCounters> counters,
    std::string spec) {
  absl::StatusOr<bloom::BloomSizing> sizing = bloom::SizeForOptions(options);
  if (!sizing.ok()) return sizing.status();
  return std::unique_ptr<const FilterPolicy>(
      new NativePolicy(*sizing, std::move(counters), std::move(spec)));
}

absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewCompactPolicy(
    const FilterOptions& options, size_t max_build_bytes,
    std::shared_ptr<HybridCounters> counters, std::string spec) {
  absl::StatusOr<burr_internal::BurrSizing> sizing =
      burr_internal::SizeForOptions(options);
  if (!sizing.ok()) return sizing.status();
  const uint64_t max_compact_keys =
      max_build_bytes == 0
          ? std::numeric_limits<uint64_t>::max()
          : burr_internal::MaxKeysWithinBuildBytes(max_build_bytes, *sizing);
  return std::unique_ptr<const FilterPolicy>(new CompactPolicy(
      *sizing, NativeSizingForFpp(options.fpp.value_or(CompactFpp(*sizing))),
      max_compact_keys, std::move(counters), std::move(spec)));
}

// What NewHybridFilterPolicy's policies print (FilterPolicy::ToString): the
// options set, the family and cap only when not the defaults.
PolicySpec HybridSpec(const FilterOptions& options,
                      const HybridOptions& hybrid) {
  PolicySpec spec = PolicySpec::Of(kHybridFamilyName, options);
  if (hybrid.family != HybridOptions().family)
    spec.params["family"] = FilterFamilyName(hybrid.family);
  if (hybrid.max_build_bytes != 0)
    spec.params[kMaxBuildBytesParam] = absl::StrCat(hybrid.max_build_bytes);
  return spec;
}

absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewHybridPolicyFromSpec(
    const PolicySpec& spec) {
  if (absl::Status status = RejectTreePolicy(spec); !status.ok()) return status;
  HybridOptions hybrid;
  if (auto it = spec.params.find("family"); it != spec.params.end())
    hybrid.family = it->second == FilterFamilyName(FilterFamily::kNative)
                        ? FilterFamily::kNative
                        : FilterFamily::kCompact;
  absl::StatusOr<size_t> max_build_bytes = MaxBuildBytesOfSpec(spec);
  if (!max_build_bytes.ok()) return max_build_bytes.status();
  hybrid.max_build_bytes = *max_build_bytes;
  return NewHybridFilterPolicy(spec.options, hybrid);
}

}  // namespace
}  // namespace hybrid_internal

absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewHybridFilterPolicy(
    const FilterOptions& options, const HybridOptions& hybrid) {
  if (absl::Status status = ValidateFilterOptions(options); !status.ok())
    return status;
  if (hybrid.family == FilterFamily::kNone) {
    return absl::InvalidArgumentError(
        "HybridOptions::family is FilterFamily::kNone; a hybrid policy builds "
        "the native or the compact filter");
  }
  const filter_internal::CheckedFormat& checked =
      hybrid_internal::CheckedHybridFormat();
  std::string spec = hybrid_internal::HybridSpec(options, hybrid).ToString();
  if (hybrid.family == FilterFamily::kNative) {
    return filter_internal::WithSelfChecksum(
        options,
        hybrid_internal::NewNativePolicy(options, hybrid.counters,
                                         std::move(spec)),
        checked);
  }
  return filter_internal::WithSelfChecksum(
      options,
      hybrid_internal::NewCompactPolicy(options, hybrid.max_build_bytes,
                                        hybrid.counters, std::move(spec)),
      checked);
}

absl::StatusOr<size_t> MaxBuildBytesOfSpec(const PolicySpec& spec) {
  size_t max_build_bytes = 0;
  if (auto it = spec.params.find(kMaxBuildBytesParam);
      it != spec.params.end() &&
      !absl::SimpleAtoi(it->second, &max_build_bytes)) {
    return absl::InvalidArgumentError(
        absl::StrCat(kMaxBuildBytesParam, ": \"", it->second,
                     "\" is not an unsigned integer"));
  }
  return max_build_bytes;
}

SSTFILTER_REGISTER_FAMILY(Hybrid, {kHybridFamilyName,
                                   {{"family", "native|compact"},
                                    {kMaxBuildBytesParam},
                                    {kLevelsParam, kLevelsWords}},
                                   &hybrid_internal::NewHybridPolicyFromSpec,
                                   {&hybrid_internal::HybridFormat(),
                                    &hybrid_internal::CheckedHybridFormat()},
                                   {"family=compact", "family=native"}});

}  // namespace sstfilter
