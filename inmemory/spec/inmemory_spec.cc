#include "inmemory/spec/inmemory_spec.h"

#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "filter/policy_spec.h"
#include "filter/spec_grammar.h"

namespace sstfilter {
namespace {

// Whether family takes the param called name, beyond the size and keys.
bool TakesParam(absl::string_view family, absl::string_view name) {
  return family == kScalableFamily &&
         (name == "growth" || name == "tightening");
}

std::string KnownParams(absl::string_view family) {
  return family == kScalableFamily ? "fpp, keys, growth, tightening"
                                   : "bits_per_key, fpp, keys";
}

// spec, checked to be of family and to give keys.
absl::StatusOr<InMemorySpec> ParseOfFamily(absl::string_view spec,
                                           absl::string_view family) {
  absl::StatusOr<InMemorySpec> parsed = ParseInMemorySpec(spec);
  if (!parsed.ok()) return parsed.status();
  if (parsed->family != family) {
    return InvalidSpec(
        spec, absl::StrCat("a ", parsed->family, " filter's spec, not a ",
                           family, " filter's"));
  }
  if (!parsed->keys.has_value()) {
    return InvalidSpec(spec, "keys=N missing: the keys the filter is made for");
  }
  return parsed;
}

// Create's error, its invalid arguments named by spec.
absl::Status CreateError(absl::string_view spec, const absl::Status& status) {
  return absl::IsInvalidArgument(status) ? InvalidSpec(spec, status.message())
                                         : status;
}

}  // namespace

std::string InMemorySpec::ToString() const {
  std::string text = family;
  if (options.bits_per_key.has_value()) {
    absl::StrAppend(&text,
                    ":bits_per_key=", FormatSpecNumber(*options.bits_per_key));
  }
  if (options.fpp.has_value()) {
    absl::StrAppend(&text, ":fpp=", FormatSpecNumber(*options.fpp));
  }
  if (keys.has_value()) absl::StrAppend(&text, ":keys=", *keys);
  if (growth.has_value()) {
    absl::StrAppend(&text, ":growth=", FormatSpecNumber(*growth));
  }
  if (tightening.has_value()) {
    absl::StrAppend(&text, ":tightening=", FormatSpecNumber(*tightening));
  }
  return text;
}

absl::StatusOr<InMemorySpec> ParseInMemorySpec(absl::string_view spec) {
  const absl::string_view family = spec.substr(0, spec.find(':'));
  if (!spec.empty() && family != kMutableFamily && family != kScalableFamily &&
      family != kCountingFamily) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown in-memory filter family \"", family, "\" (known: ",
        kCountingFamily, ", ", kMutableFamily, ", ", kScalableFamily, ")"));
  }
  InMemorySpec parsed;
  parsed.family = std::string(family);
  const bool scalable = family == kScalableFamily;
  const auto read = [&](const std::string& name,
                        const std::string& value) -> absl::Status {
    if (name == "fpp" || (name == "bits_per_key" && !scalable)) {
      absl::StatusOr<double> number = SpecNumber(spec, name, value);
      if (!number.ok()) return number.status();
      (name == "fpp" ? parsed.options.fpp : parsed.options.bits_per_key) =
          *number;
    } else if (name == "keys") {
      absl::StatusOr<uint64_t> count = SpecCount(spec, name, value);
      if (!count.ok()) return count.status();
      if (*count == 0) return InvalidSpec(spec, "keys: must be at least 1");
      parsed.keys = *count;
    } else if (TakesParam(family, name)) {
      absl::StatusOr<double> number = SpecNumber(spec, name, value);
      if (!number.ok()) return number.status();
      (name == "growth" ? parsed.growth : parsed.tightening) = *number;
    } else {
      return InvalidSpec(
          spec,
          absl::StrCat("unknown param \"", name, "\" for filter family \"",
                       family, "\" (known: ", KnownParams(family), ")"));
    }
    return absl::OkStatus();
  };
  if (absl::StatusOr<SpecParts> parts = SplitSpec(spec, read); !parts.ok()) {
    return parts.status();
  }
  if (parsed.options.fpp.has_value() ==
      parsed.options.bits_per_key.has_value()) {
    return InvalidSpec(
        spec,
        parsed.options.fpp.has_value()
            ? "both bits_per_key and fpp given; give one"
            : absl::StrCat("neither ", scalable ? "" : "bits_per_key nor ",
                           "fpp given; give ", scalable ? "fpp" : "one"));
  }
  if (absl::Status status = ValidateFilterOptions(parsed.options);
      !status.ok()) {
    return InvalidSpec(spec, status.message());
  }
  return parsed;
}

absl::StatusOr<MutableBloomFilter> NewMutableBloomFilterFromString(
    absl::string_view spec) {
  absl::StatusOr<InMemorySpec> parsed = ParseOfFamily(spec, kMutableFamily);
  if (!parsed.ok()) return parsed.status();
  absl::StatusOr<MutableBloomFilter> filter =
      MutableBloomFilter::Create(parsed->options, *parsed->keys);
  if (!filter.ok()) return CreateError(spec, filter.status());
  return filter;
}

absl::StatusOr<std::unique_ptr<ScalableBloomFilter>>
NewScalableBloomFilterFromString(absl::string_view spec) {
  absl::StatusOr<InMemorySpec> parsed = ParseOfFamily(spec, kScalableFamily);
  if (!parsed.ok()) return parsed.status();
  ScalableBloomOptions options;
  options.fpp = *parsed->options.fpp;
  options.initial_keys = *parsed->keys;
  if (parsed->growth.has_value()) options.growth = *parsed->growth;
  if (parsed->tightening.has_value()) options.tightening = *parsed->tightening;
  absl::StatusOr<std::unique_ptr<ScalableBloomFilter>> filter =
      ScalableBloomFilter::Create(options);
  if (!filter.ok()) return CreateError(spec, filter.status());
  return filter;
}

absl::StatusOr<CountingBloomFilter> NewCountingBloomFilterFromString(
    absl::string_view spec) {
  absl::StatusOr<InMemorySpec> parsed = ParseOfFamily(spec, kCountingFamily);
  if (!parsed.ok()) return parsed.status();
  absl::StatusOr<CountingBloomFilter> filter =
      CountingBloomFilter::Create(parsed->options, *parsed->keys);
  if (!filter.ok()) return CreateError(spec, filter.status());
  return filter;
}

}  // namespace sstfilter
