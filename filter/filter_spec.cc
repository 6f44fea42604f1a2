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
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "filter/format_registry.h"

namespace sstfilter {
namespace {

constexpr absl::string_view kCommonParams[] = {"bits_per_key", "fpp",
                                               "checksum"};

absl::Status Invalid(absl::string_view spec, absl::string_view message) {
  return absl::InvalidArgumentError(
      absl::StrCat("filter spec \"", spec, "\": ", message));
}

absl::StatusOr<double> ParseNumber(absl::string_view spec,
                                   absl::string_view name,
                                   absl::string_view text) {
  double value;
  if (!absl::SimpleAtod(text, &value)) {
    return Invalid(spec,
                   absl::StrCat(name, ": \"", text, "\" is not a number"));
  }
  return value;
}

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
  if (spec.empty()) {
    return absl::InvalidArgumentError(
        "empty filter spec (expected family[:param]*, e.g. \"bloom:10\")");
  }
  std::vector<absl::string_view> parts = absl::StrSplit(spec, ':');
  const absl::string_view family_name = parts[0];
  std::optional<FilterFamilyRecord> family = FindFilterFamily(family_name);
  if (!family.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown filter family \"", family_name,
                     "\" (known: ", RegisteredFamilyNames(), ")"));
  }
  PolicySpec parsed;
  parsed.family = std::string(family_name);
  std::vector<absl::string_view> seen;
  for (size_t i = 1; i < parts.size(); ++i) {
    const absl::string_view part = parts[i];
    if (part.empty()) {
      return Invalid(spec, i + 1 == parts.size()
                               ? "trailing colon"
                               : "empty param between two colons");
    }
    absl::string_view name;
    absl::string_view value;
    const size_t equals = part.find('=');
    if (equals == absl::string_view::npos) {
      if (i != 1) {
        return Invalid(spec, absl::StrCat("param \"", part,
                                          "\" is not name=value (only the "
                                          "first param may be a bare number)"));
      }
      name = "bits_per_key";
      value = part;
    } else {
      name = part.substr(0, equals);
      value = part.substr(equals + 1);
    }
    for (absl::string_view earlier : seen) {
      if (earlier == name) {
        return Invalid(spec, absl::StrCat("param \"", name, "\" given twice"));
      }
    }
    seen.push_back(name);
    if (name == "bits_per_key" || name == "fpp") {
      absl::StatusOr<double> number = ParseNumber(spec, name, value);
      if (!number.ok()) return number.status();
      (name == "fpp" ? parsed.options.fpp : parsed.options.bits_per_key) =
          *number;
    } else if (name == "checksum") {
      if (value != "on" && value != "off") {
        return Invalid(
            spec, absl::StrCat("checksum: \"", value, "\" is not on or off"));
      }
      parsed.options.self_checksum = value == "on";
    } else if (const SpecParam* param = FindParam(*family, name)) {
      if (param->words == nullptr) {
        uint64_t count;
        if (value.find_first_not_of("0123456789") != absl::string_view::npos ||
            !absl::SimpleAtoi(value, &count)) {
          return Invalid(spec, absl::StrCat(name, ": \"", value,
                                            "\" is not an unsigned integer"));
        }
        parsed.params[std::string(name)] = absl::StrCat(count);
      } else {
        const std::vector<absl::string_view> words =
            absl::StrSplit(param->words, '|');
        if (std::find(words.begin(), words.end(), value) == words.end()) {
          return Invalid(spec,
                         absl::StrCat(name, ": \"", value, "\" is not one of ",
                                      absl::StrJoin(words, ", ")));
        }
        parsed.params[std::string(name)] = std::string(value);
      }
    } else {
      return Invalid(
          spec,
          absl::StrCat("unknown param \"", name, "\" for filter family \"",
                       family_name, "\" (known: ", KnownParams(*family), ")"));
    }
  }
  const bool unsized = !parsed.options.fpp.has_value() &&
                       !parsed.options.bits_per_key.has_value();
  if (unsized && size == SpecSize::kOptional) return parsed;
  if (parsed.options.fpp.has_value() ==
      parsed.options.bits_per_key.has_value()) {
    return Invalid(spec, parsed.options.fpp.has_value()
                             ? "both bits_per_key and fpp given; give one"
                             : "neither bits_per_key nor fpp given; give one");
  }
  if (absl::Status status = ValidateFilterOptions(parsed.options);
      !status.ok()) {
    return Invalid(spec, status.message());
  }
  return parsed;
}

namespace {

// The policy of parsed, which came from text; errors name text.
absl::StatusOr<std::unique_ptr<const FilterPolicy>> PolicyOf(
    const PolicySpec& parsed, absl::string_view text) {
  std::optional<FilterFamilyRecord> family = FindFilterFamily(parsed.family);
  if (!family.has_value()) {
    return Invalid(
        text, absl::StrCat("unknown filter family \"", parsed.family, "\""));
  }
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      family->factory(parsed);
  if (!policy.ok()) return Invalid(text, policy.status().message());
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
