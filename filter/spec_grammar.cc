#include "filter/spec_grammar.h"

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace sstfilter {

absl::Status InvalidSpec(absl::string_view spec, absl::string_view message) {
  return absl::InvalidArgumentError(
      absl::StrCat("filter spec \"", spec, "\": ", message));
}

absl::StatusOr<SpecParts> SplitSpec(absl::string_view spec,
                                    const SpecParamReader& read) {
  if (spec.empty()) {
    return absl::InvalidArgumentError(
        "empty filter spec (expected family[:param]*, e.g. \"bloom:10\")");
  }
  std::vector<absl::string_view> parts = absl::StrSplit(spec, ':');
  SpecParts split;
  split.family = std::string(parts[0]);
  for (size_t i = 1; i < parts.size(); ++i) {
    const absl::string_view part = parts[i];
    if (part.empty()) {
      return InvalidSpec(spec, i + 1 == parts.size()
                                   ? "trailing colon"
                                   : "empty param between two colons");
    }
    std::string name;
    std::string value;
    const size_t equals = part.find('=');
    if (equals == absl::string_view::npos) {
      if (i != 1) {
        return InvalidSpec(spec,
                           absl::StrCat("param \"", part,
                                        "\" is not name=value (only the "
                                        "first param may be a bare number)"));
      }
      name = "bits_per_key";
      value = std::string(part);
    } else {
      name = std::string(part.substr(0, equals));
      value = std::string(part.substr(equals + 1));
    }
    for (const auto& [earlier, unused] : split.params) {
      if (earlier == name) {
        return InvalidSpec(spec,
                           absl::StrCat("param \"", name, "\" given twice"));
      }
    }
    if (read != nullptr) {
      if (absl::Status status = read(name, value); !status.ok()) return status;
    }
    split.params.emplace_back(std::move(name), std::move(value));
  }
  return split;
}

absl::StatusOr<double> SpecNumber(absl::string_view spec,
                                  absl::string_view name,
                                  absl::string_view value) {
  double number;
  if (!absl::SimpleAtod(value, &number)) {
    return InvalidSpec(spec,
                       absl::StrCat(name, ": \"", value, "\" is not a number"));
  }
  return number;
}

absl::StatusOr<uint64_t> SpecCount(absl::string_view spec,
                                   absl::string_view name,
                                   absl::string_view value) {
  uint64_t count;
  if (value.empty() ||
      value.find_first_not_of("0123456789") != absl::string_view::npos ||
      !absl::SimpleAtoi(value, &count)) {
    return InvalidSpec(spec, absl::StrCat(name, ": \"", value,
                                          "\" is not an unsigned integer"));
  }
  return count;
}

}  // namespace sstfilter
