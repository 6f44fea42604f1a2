// The spec-string parser: it splits a spec and checks each param against what
// the family registered (format_registry.h), then hands the family's factory
// the parsed spec. It knows no family by name.

#include "filter/filter_spec.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "filter/format_registry.h"
#include "filter/spec_grammar.h"

namespace sstfilter {
namespace {

constexpr absl::string_view kCommonParams[] = {"bits_per_key", "fpp",
                                               "checksum"};

// The family's param called name, or nullptr.
const SpecParam* FindParam(const FilterFamilyRecord& family,
                           absl::string_view name) {
  for (const SpecParam& param : family.params) {
    if (name == param.name) return &param;
  }
  return nullptr;
}

std::string KnownParams(const FilterFamilyRecord& family) {
  std::vector<std::string> names(std::begin(kCommonParams),
                                 std::end(kCommonParams));
  for (const SpecParam& param : family.params) names.push_back(param.name);
  return absl::StrJoin(names, ", ");
}

}  // namespace

absl::StatusOr<PolicySpec> ParsePolicySpec(absl::string_view spec,
                                           SpecSize size) {
  // An unknown family is the first fault named, whatever follows it.
  const absl::string_view family_name = spec.substr(0, spec.find(':'));
  std::optional<FilterFamilyRecord> family =
      spec.empty() ? std::nullopt : FindFilterFamily(family_name);
  if (!spec.empty() && !family.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown filter family \"", family_name,
                     "\" (known: ", RegisteredFamilyNames(), ")"));
  }
  PolicySpec parsed;
  parsed.family = std::string(family_name);
  const auto read = [&](const std::string& name,
                        const std::string& value) -> absl::Status {
    if (name == "bits_per_key" || name == "fpp") {
      absl::StatusOr<double> number = SpecNumber(spec, name, value);
      if (!number.ok()) return number.status();
      (name == "fpp" ? parsed.options.fpp : parsed.options.bits_per_key) =
          *number;
    } else if (name == "checksum") {
      if (value != "on" && value != "off") {
        return InvalidSpec(
            spec, absl::StrCat("checksum: \"", value, "\" is not on or off"));
      }
      parsed.options.self_checksum = value == "on";
    } else if (const SpecParam* param = FindParam(*family, name)) {
      if (param->words == nullptr) {
        absl::StatusOr<uint64_t> count = SpecCount(spec, name, value);
        if (!count.ok()) return count.status();
        parsed.params[name] = absl::StrCat(*count);
      } else {
        const std::vector<absl::string_view> words =
            absl::StrSplit(param->words, '|');
        if (std::find(words.begin(), words.end(), value) == words.end()) {
          return InvalidSpec(
              spec, absl::StrCat(name, ": \"", value, "\" is not one of ",
                                 absl::StrJoin(words, ", ")));
        }
        parsed.params[name] = value;
      }
    } else {
      return InvalidSpec(
          spec,
          absl::StrCat("unknown param \"", name, "\" for filter family \"",
                       family_name, "\" (known: ", KnownParams(*family), ")"));
    }
    return absl::OkStatus();
  };
  if (absl::StatusOr<SpecParts> parts = SplitSpec(spec, read); !parts.ok()) {
    return parts.status();
  }
  const bool unsized = !parsed.options.fpp.has_value() &&
                       !parsed.options.bits_per_key.has_value();
  if (unsized && size == SpecSize::kOptional) return parsed;
  if (parsed.options.fpp.has_value() ==
      parsed.options.bits_per_key.has_value()) {
    return InvalidSpec(spec,
                       parsed.options.fpp.has_value()
                           ? "both bits_per_key and fpp given; give one"
                           : "neither bits_per_key nor fpp given; give one");
  }
  if (absl::Status status = ValidateFilterOptions(parsed.options);
      !status.ok()) {
    return InvalidSpec(spec, status.message());
  }
  return parsed;
}

namespace {

// The policy of parsed, which came from text; errors name text.
absl::StatusOr<std::unique_ptr<const FilterPolicy>> PolicyOf(
    const PolicySpec& parsed, absl::string_view text) {
  std::optional<FilterFamilyRecord> family = FindFilterFamily(parsed.family);
  if (!family.has_value()) {
    return InvalidSpec(
        text, absl::StrCat("unknown filter family \"", parsed.family, "\""));
  }
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      family->factory(parsed);
  if (!policy.ok()) return InvalidSpec(text, policy.status().message());
  return policy;
}

}  // namespace

absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewFilterPolicyFromString(
    absl::string_view spec) {
  absl::StatusOr<PolicySpec> parsed = ParsePolicySpec(spec);
  if (!parsed.ok()) return parsed.status();
  return PolicyOf(*parsed, spec);
}

absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewFilterPolicyFromSpec(
    const PolicySpec& spec) {
  if (spec.options.fpp.has_value() == spec.options.bits_per_key.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("filter spec of family \"", spec.family,
                     "\": give exactly one of bits_per_key and fpp"));
  }
  // The spec as text, for messages: the family and what it sets.
  return PolicyOf(spec, spec.ToString());
}

}  // namespace sstfilter
