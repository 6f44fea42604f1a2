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
#include "filter/range/keyed_grafite.h"

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

// A keyed layout's version-1 format.
class KeyedGrafiteVersion1Format final : public FilterFormat {
 public:
  explicit KeyedGrafiteVersion1Format(const char* name) : name_(name) {}
  const char* Name() const override { return name_; }
  bool AnswersRanges() const override { return true; }
  std::unique_ptr<FilterReader> NewReader(
      absl::string_view filter) const override {
    return NewKeyedGrafiteReader(filter);
  }
  FilterFacts Describe(absl::string_view filter) const override {
    FilterFacts facts;
    facts.kind = "Grafite range, keys coded per table";
    std::unique_ptr<RangeFilterReader> reader = NewKeyedGrafiteReader(filter);
    if (reader->num_codes() == 0) return facts;
    facts.num_keys = static_cast<double>(reader->num_codes());
    facts.body_bits = 8 * (filter.size() - kKeyedTrailerBytes - kTrailerBytes);
    return facts;
  }

 private:
  const char* const name_;
};

const FilterFormat& KeyedGrafiteFormat() {
  static const auto* const format =
      new KeyedGrafiteVersion1Format(kKeyedGrafiteName);
  return *format;
}

const filter_internal::CheckedFormat& CheckedKeyedGrafite() {
  static const auto* const format = new filter_internal::CheckedFormat(
      kCheckedKeyedGrafiteName, KeyedGrafiteFormat());
  return *format;
}

const FilterFormat& LengthKeyedGrafiteFormat() {
  static const auto* const format =
      new KeyedGrafiteVersion1Format(kLengthKeyedGrafiteName);
  return *format;
}

const filter_internal::CheckedFormat& CheckedLengthKeyedGrafite() {
  static const auto* const format = new filter_internal::CheckedFormat(
      kCheckedLengthKeyedGrafiteName, LengthKeyedGrafiteFormat());
  return *format;
}

class GrafitePolicy final : public FilterPolicy {
 public:
  GrafitePolicy(const GrafiteSizing& sizing, RangeKeyCoding codes,
                std::string spec)
      : FilterPolicy(std::move(spec)), sizing_(sizing), codes_(codes) {}
  const FilterFormat& Format() const override {
    return codes_ == RangeKeyCoding::kPerTable ? LengthKeyedGrafiteFormat()
                                               : ::sstfilter::GrafiteFormat();
  }
  double BitsPerKey() const override { return sizing_.bits_per_key; }
  std::unique_ptr<FilterBuilder> NewBuilder() const override {
    return codes_ == RangeKeyCoding::kPerTable ? NewKeyedGrafiteBuilder(sizing_)
                                               : NewGrafiteBuilder(sizing_);
  }

 private:
  const GrafiteSizing sizing_;
  const RangeKeyCoding codes_;
};

// What NewGrafiteFilterPolicy's policies print (FilterPolicy::ToString): the
// options set, those at their defaults left out.
PolicySpec GrafiteSpec(const FilterOptions& options, RangeKeyCoding codes) {
  FilterOptions common = options;
  common.max_range_length.reset();  // the family's own param
  PolicySpec spec = PolicySpec::Of("grafite", common);
  if (options.max_range_length.has_value()) {
    spec.params["max_range_length"] = absl::StrCat(*options.max_range_length);
  }
  if (codes == RangeKeyCoding::kPerTable) {
    spec.params[kCodesParam] = kPerTableCodes;
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
  RangeKeyCoding codes = RangeKeyCoding::kFirst8Bytes;
  if (auto it = spec.params.find(kCodesParam); it != spec.params.end()) {
    if (it->second == kPerTableCodes) {
      codes = RangeKeyCoding::kPerTable;
    } else if (it->second != kFirst8BytesCodes) {
      return absl::InvalidArgumentError(
          absl::StrCat(kCodesParam, ": \"", it->second, "\" is not one of ",
                       kFirst8BytesCodes, ", ", kPerTableCodes));
    }
  }
  return NewGrafiteFilterPolicy(options, codes);
}

const filter_internal::CheckedFormat& CheckedGrafite() {
  static const auto* const format = new filter_internal::CheckedFormat(
      kCheckedGrafiteName, ::sstfilter::GrafiteFormat());
  return *format;
}

// Whether a filter stored under format_name must carry the CRC32C trailer.
bool IsCheckedRangeFormat(absl::string_view format_name) {
  return format_name == kCheckedGrafiteName ||
         format_name == kCheckedKeyedGrafiteName ||
         format_name == kCheckedLengthKeyedGrafiteName;
}

// The reader of a version-1 filter of either key coding.
std::unique_ptr<RangeFilterReader> NewUncheckedReader(
    absl::string_view filter) {
  return IsKeyedGrafite(filter) ? NewKeyedGrafiteReader(filter)
                                : NewGrafiteReader(filter);
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
    const FilterOptions& options, RangeKeyCoding codes) {
  absl::StatusOr<grafite_internal::GrafiteSizing> sizing =
      grafite_internal::SizingForOptions(options);
  if (!sizing.ok()) return sizing.status();
  return filter_internal::WithSelfChecksum(
      options,
      std::unique_ptr<const FilterPolicy>(new grafite_internal::GrafitePolicy(
          *sizing, codes,
          grafite_internal::GrafiteSpec(options, codes).ToString())),
      codes == RangeKeyCoding::kPerTable
          ? grafite_internal::CheckedLengthKeyedGrafite()
          : grafite_internal::CheckedGrafite());
}

absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewGrafiteFilterPolicy(
    const FilterOptions& options) {
  return NewGrafiteFilterPolicy(options, RangeKeyCoding::kFirst8Bytes);
}

absl::Status VerifyRangeFilter(absl::string_view filter) {
  const filter_internal::CheckedParts parts =
      filter_internal::SplitCheckedFilter(filter);
  if (!parts.well_formed) return absl::OkStatus();
  absl::Status status = filter_internal::VerifyCheckedFilter(filter);
  if (status.ok()) return status;
  const char* name = grafite_internal::kCheckedGrafiteName;
  if (grafite_internal::IsLengthKeyedGrafite(parts.inner)) {
    name = grafite_internal::kCheckedLengthKeyedGrafiteName;
  } else if (grafite_internal::IsKeyedGrafite(parts.inner)) {
    name = grafite_internal::kCheckedKeyedGrafiteName;
  }
  return absl::DataLossError(absl::StrCat(name, ": ", status.message()));
}

std::unique_ptr<RangeFilterReader> NewRangeFilterReader(
    absl::string_view filter, RangeFilterChecksum checksum) {
  const filter_internal::CheckedParts parts =
      filter_internal::SplitCheckedFilter(filter);
  if (!parts.well_formed) return grafite_internal::NewUncheckedReader(filter);
  if (checksum == RangeFilterChecksum::kVerify) {
    absl::Status status = VerifyRangeFilter(filter);
    if (!status.ok()) {
      return grafite_internal::NewConstantRangeReader(
          filter_internal::Verdict::kMatchAll, std::move(status));
    }
  }
  return grafite_internal::NewUncheckedReader(parts.inner);
}

absl::Status VerifyRangeFilterFor(absl::string_view format_name,
                                  absl::string_view filter) {
  if (!IsRangeFilterFormat(format_name)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", format_name, "' is not a range filter format (one of ",
        grafite_internal::kGrafiteName, ", ",
        grafite_internal::kCheckedGrafiteName, ", ",
        grafite_internal::kKeyedGrafiteName, ", ",
        grafite_internal::kCheckedKeyedGrafiteName, ", ",
        grafite_internal::kLengthKeyedGrafiteName, ", ",
        grafite_internal::kCheckedLengthKeyedGrafiteName, ")"));
  }
  if (grafite_internal::IsCheckedRangeFormat(format_name) &&
      !filter_internal::SplitCheckedFilter(filter).well_formed) {
    return absl::DataLossError(absl::StrCat(
        format_name, ": ", filter.size(),
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
      (grafite_internal::IsCheckedRangeFormat(format_name) &&
       !filter_internal::SplitCheckedFilter(filter).well_formed)) {
    absl::Status status = VerifyRangeFilterFor(format_name, filter);
    return grafite_internal::NewConstantRangeReader(
        filter_internal::Verdict::kMatchAll, std::move(status));
  }
  return NewRangeFilterReader(filter, checksum);
}

SSTFILTER_REGISTER_FAMILY(
    Grafite, {"grafite",
              {{"max_range_length"},
               {grafite_internal::kCodesParam, grafite_internal::kCodesWords}},
              &grafite_internal::NewGrafitePolicyFromSpec,
              {&GrafiteFormat(), &GrafiteCheckedFormat(),
               &grafite_internal::LengthKeyedGrafiteFormat(),
               &grafite_internal::CheckedLengthKeyedGrafite()},
              {"", grafite_internal::kPerTableVariant},
              {&grafite_internal::KeyedGrafiteFormat(),
               &grafite_internal::CheckedKeyedGrafite()}});

}  // namespace sstfilter
