// The range filter's policies, formats and registration. The pieces: sizing
// (grafite_sizing.h), the builder (grafite_builder.h), the readers
// (grafite_reader.h) over the format (grafite_format.h, README.md).

#include "filter/range/range_filter.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "filter/format_registry.h"
#include "filter/internal/checked_filter.h"
#include "filter/policy_spec.h"
#include "filter/range/grafite_builder.h"
#include "filter/range/grafite_format.h"
#include "filter/range/grafite_reader.h"
#include "filter/range/grafite_sizing.h"

namespace sstfilter {
namespace grafite_internal {
namespace {

using filter_internal::Verdict;

class GrafiteVersion1Format final : public FilterFormat {
 public:
  const char* Name() const override { return kGrafiteName; }
  bool AnswersRanges() const override { return true; }
  std::unique_ptr<FilterReader> NewReader(
      absl::string_view filter) const override {
    return NewGrafiteReader(filter);
  }
  FilterFacts Describe(absl::string_view filter) const override {
    FilterFacts facts;
    facts.kind = "Grafite range";
    const ParsedGrafite parsed = ParseGrafite(filter);
    if (parsed.verdict == Verdict::kMatchAll) return facts;
    facts.num_keys = static_cast<double>(parsed.num_codes);
    facts.body_bits =
        8 *
        (parsed.verdict == Verdict::kProbe ? filter.size() - kTrailerBytes : 0);
    return facts;
  }
};

class GrafitePolicy final : public FilterPolicy {
 public:
  GrafitePolicy(const GrafiteSizing& sizing, std::string spec)
      : FilterPolicy(std::move(spec)), sizing_(sizing) {}
  const FilterFormat& Format() const override {
    return ::sstfilter::GrafiteFormat();
  }
  double BitsPerKey() const override { return sizing_.bits_per_key; }
  std::unique_ptr<FilterBuilder> NewBuilder() const override {
    return NewGrafiteBuilder(sizing_);
  }

 private:
  const GrafiteSizing sizing_;
};

// What NewGrafiteFilterPolicy's policies print (FilterPolicy::ToString): the
// options set, those at their defaults left out.
PolicySpec GrafiteSpec(const FilterOptions& options) {
  FilterOptions common = options;
  common.max_range_length.reset();  // the family's own param
  PolicySpec spec = PolicySpec::Of("grafite", common);
  if (options.max_range_length.has_value()) {
    spec.params["max_range_length"] = absl::StrCat(*options.max_range_length);
  }
  return spec;
}

absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewGrafitePolicyFromSpec(
    const PolicySpec& spec) {
  FilterOptions options = spec.options;
  if (auto it = spec.params.find("max_range_length"); it != spec.params.end()) {
    uint64_t length = 0;
    if (!absl::SimpleAtoi(it->second, &length)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "max_range_length: \"", it->second, "\" is not an unsigned integer"));
    }
    options.max_range_length = length;
  }
  return NewGrafiteFilterPolicy(options);
}

const filter_internal::CheckedFormat& CheckedGrafite() {
  static const auto* const format = new filter_internal::CheckedFormat(
      kCheckedGrafiteName, ::sstfilter::GrafiteFormat());
  return *format;
}

}  // namespace
}  // namespace grafite_internal

const FilterFormat& GrafiteFormat() {
  static const auto* const format =
      new grafite_internal::GrafiteVersion1Format();
  return *format;
}

const FilterFormat& GrafiteCheckedFormat() {
  return grafite_internal::CheckedGrafite();
}

bool IsRangeFilterFormat(absl::string_view name) {
  if (name.empty()) return false;
  // A scan asks this of every table: a name once found answers from this
  // thread's cache, which never goes stale (formats are never unregistered).
  thread_local std::string last_range_format;
  if (name == last_range_format) return true;
  const FilterFormat* format = FindFilterFormat(name);
  if (format == nullptr || !format->AnswersRanges()) return false;
  last_range_format = std::string(name);
  return true;
}

absl::StatusOr<double> RangeFilterBitsPerKey(const FilterOptions& options) {
  absl::StatusOr<grafite_internal::GrafiteSizing> sizing =
      grafite_internal::SizingForOptions(options);
  if (!sizing.ok()) return sizing.status();
  return sizing->bits_per_key;
}

absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewGrafiteFilterPolicy(
    const FilterOptions& options) {
  absl::StatusOr<grafite_internal::GrafiteSizing> sizing =
      grafite_internal::SizingForOptions(options);
  if (!sizing.ok()) return sizing.status();
  return filter_internal::WithSelfChecksum(
      options,
      std::unique_ptr<const FilterPolicy>(new grafite_internal::GrafitePolicy(
          *sizing, grafite_internal::GrafiteSpec(options).ToString())),
      grafite_internal::CheckedGrafite());
}

absl::Status VerifyRangeFilter(absl::string_view filter) {
  if (!filter_internal::SplitCheckedFilter(filter).well_formed)
    return absl::OkStatus();
  absl::Status status = filter_internal::VerifyCheckedFilter(filter);
  if (status.ok()) return status;
  return absl::DataLossError(absl::StrCat(grafite_internal::kCheckedGrafiteName,
                                          ": ", status.message()));
}

std::unique_ptr<RangeFilterReader> NewRangeFilterReader(
    absl::string_view filter, RangeFilterChecksum checksum) {
  const filter_internal::CheckedParts parts =
      filter_internal::SplitCheckedFilter(filter);
  if (!parts.well_formed) return grafite_internal::NewGrafiteReader(filter);
  if (checksum == RangeFilterChecksum::kVerify) {
    absl::Status status = VerifyRangeFilter(filter);
    if (!status.ok()) {
      return grafite_internal::NewConstantRangeReader(
          filter_internal::Verdict::kMatchAll, std::move(status));
    }
  }
  return grafite_internal::NewGrafiteReader(parts.inner);
}

absl::Status VerifyRangeFilterFor(absl::string_view format_name,
                                  absl::string_view filter) {
  if (!IsRangeFilterFormat(format_name)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", format_name, "' is not a range filter format (one of ",
        grafite_internal::kGrafiteName, ", ",
        grafite_internal::kCheckedGrafiteName, ")"));
  }
  if (format_name == grafite_internal::kCheckedGrafiteName &&
      !filter_internal::SplitCheckedFilter(filter).well_formed) {
    return absl::DataLossError(absl::StrCat(
        grafite_internal::kCheckedGrafiteName, ": ", filter.size(),
        " bytes without a version-2 trailer (truncated or damaged)"));
  }
  return VerifyRangeFilter(filter);
}

std::unique_ptr<RangeFilterReader> NewRangeFilterReaderFor(
    absl::string_view format_name, absl::string_view filter,
    RangeFilterChecksum checksum) {
  // Only what the name adds to the bytes is checked here; the CRC32C is the
  // reader's to verify (or the caller's, with kTrusted).
  if (!IsRangeFilterFormat(format_name) ||
      (format_name == grafite_internal::kCheckedGrafiteName &&
       !filter_internal::SplitCheckedFilter(filter).well_formed)) {
    absl::Status status = VerifyRangeFilterFor(format_name, filter);
    return grafite_internal::NewConstantRangeReader(
        filter_internal::Verdict::kMatchAll, std::move(status));
  }
  return NewRangeFilterReader(filter, checksum);
}

SSTFILTER_REGISTER_FAMILY(Grafite,
                          {"grafite",
                           {{"max_range_length"}},
                           &grafite_internal::NewGrafitePolicyFromSpec,
                           {&GrafiteFormat(), &GrafiteCheckedFormat()}});

}  // namespace sstfilter
