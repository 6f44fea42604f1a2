#include "filter/filter_format.h"

namespace sstfilter {

void FilterReader::MayMatch(absl::Span<const absl::string_view> keys,
                            bool* results) const {
  for (size_t i = 0; i < keys.size(); ++i) results[i] = MayMatch(keys[i]);
}

absl::Status FilterReader::Corruption() const { return absl::OkStatus(); }

bool FilterFormat::KeyMayMatch(absl::string_view key,
                               absl::string_view filter) const {
  return NewReader(filter)->MayMatch(key);
}

double FilterFormat::ExpectedFpp(absl::string_view filter) const {
  return NewReader(filter)->ExpectedFpp();
}

absl::Status FilterFormat::Verify(absl::string_view /*filter*/) const {
  return absl::OkStatus();
}

FilterFacts FilterFormat::Describe(absl::string_view /*filter*/) const {
  return {};
}

}  // namespace sstfilter
