#include "filter/filter_policy.h"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace sstfilter {

absl::Status ValidateFilterOptions(const FilterOptions& options) {
  if (options.max_range_length.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "FilterOptions: max_range_length ", *options.max_range_length,
        " is for range filters; this family answers single keys"));
  }
  return ValidateKeyFilterOptions(options);
}

absl::Status ValidateKeyFilterOptions(const FilterOptions& options) {
  if (options.fpp.has_value() == options.bits_per_key.has_value()) {
    return absl::InvalidArgumentError(
        "FilterOptions: set exactly one of fpp and bits_per_key");
  }
  if (options.fpp.has_value()) {
    const double p = *options.fpp;
    // Written so that NaN fails the test.
    if (!(p > 0.0 && p < 1.0)) {
      return absl::InvalidArgumentError(
          absl::StrCat("FilterOptions: fpp must be in (0, 1), got ", p));
    }
    return absl::OkStatus();
  }
  const double bits = *options.bits_per_key;
  if (!(bits >= kMinBitsPerKey && bits <= kMaxBitsPerKey)) {
    return absl::InvalidArgumentError(
        absl::StrCat("FilterOptions: bits_per_key must be in [", kMinBitsPerKey,
                     ", ", kMaxBitsPerKey, "], got ", bits));
  }
  return absl::OkStatus();
}

absl::Status ValidateCompatibleFilterOptions(const FilterOptions& options,
                                             absl::string_view format) {
  if (absl::Status status = ValidateFilterOptions(options); !status.ok())
    return status;
  if (options.self_checksum.value_or(false)) {
    return absl::InvalidArgumentError(
        absl::StrCat("FilterOptions: self_checksum = true, but ", format,
                     " has no checksum field"));
  }
  return absl::OkStatus();
}

std::unique_ptr<FilterReader> FilterPolicy::NewReader(
    absl::string_view filter) const {
  return Format().NewReader(filter);
}

void FilterPolicy::CreateFilter(absl::Span<const absl::string_view> keys,
                                std::string* dst) const {
  std::unique_ptr<FilterBuilder> builder = NewBuilder();
  for (absl::string_view key : keys) builder->AddKey(key);
  builder->Finish(dst);
}

bool FilterPolicy::KeyMayMatch(absl::string_view key,
                               absl::string_view filter) const {
  return Format().KeyMayMatch(key, filter);
}

std::string FilterPolicy::ToString() const {
  return spec_.empty() ? std::string(Name()) : spec_;
}

}  // namespace sstfilter
