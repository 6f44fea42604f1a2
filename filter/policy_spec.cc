#include "filter/policy_spec.h"

#include <charconv>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace sstfilter {

PolicySpec PolicySpec::Of(absl::string_view family,
                          const FilterOptions& options) {
  PolicySpec spec;
  spec.family = std::string(family);
  spec.options = options;
  return spec;
}

std::string PolicySpec::ToString() const {
  std::vector<std::string> parts = {family};
  if (options.bits_per_key.has_value())
    parts.push_back(
        absl::StrCat("bits_per_key=", FormatSpecNumber(*options.bits_per_key)));
  if (options.fpp.has_value())
    parts.push_back(absl::StrCat("fpp=", FormatSpecNumber(*options.fpp)));
  if (options.self_checksum.has_value())
    parts.push_back(
        absl::StrCat("checksum=", *options.self_checksum ? "on" : "off"));
  for (const auto& [name, value] : params)
    parts.push_back(absl::StrCat(name, "=", value));
  return absl::StrJoin(parts, ":");
}

bool NamesTreePolicy(const PolicySpec& spec) {
  const auto levels = spec.params.find(kLevelsParam);
  return levels != spec.params.end() && levels->second == kTreeLevels;
}

absl::Status RejectTreePolicy(const PolicySpec& spec) {
  if (!NamesTreePolicy(spec)) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "levels=", kTreeLevels, ": a tree's policy needs the tree's shape; ",
      "build it with NewRocksDbTreeFilterPolicy (engines/rocksdb)"));
}

std::string FormatSpecNumber(double v) {
  // std::to_chars without a format: the shortest text that reads back as v,
  // fixed or scientific, whichever is shorter.
  char text[32];
  const std::to_chars_result result =
      std::to_chars(text, text + sizeof(text), v);
  return std::string(text, result.ptr);
}

}  // namespace sstfilter
