// The grammar every spec string shares (filter_spec.h's): a family, then
// params separated by colons. The table filters' parser and the in-memory
// filters' (inmemory/spec/) check the parts against their own families.
//
//   absl::StatusOr<sstfilter::SpecParts> parts =
//       sstfilter::SplitSpec("mutable:fpp=0.01:keys=1000");
//   // parts->family == "mutable"; parts->params: {fpp, 0.01}, {keys, 1000}

#ifndef SSTFILTER_FILTER_SPEC_GRAMMAR_H_
#define SSTFILTER_FILTER_SPEC_GRAMMAR_H_

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sstfilter {

struct SpecParts {
  // The first word, e.g. "bloom", as given: the caller knows its families.
  std::string family;
  // name=value params in the order given; a bare number first is
  // {"bits_per_key", number}. No name appears twice.
  std::vector<std::pair<std::string, std::string>> params;
};

// Reads one param as it is split off (name, value); an error stops the split
// and is returned, so that the first fault from the left is the one named.
using SpecParamReader = std::function<absl::Status(const std::string& name,
                                                   const std::string& value)>;

// InvalidArgumentError with one line naming the fault for an empty spec, an
// empty param (a trailing or doubled colon), a param that is not
// name=value (a bare number is allowed first only), and a param given twice;
// or read's error.
absl::StatusOr<SpecParts> SplitSpec(absl::string_view spec,
                                    const SpecParamReader& read = nullptr);

// InvalidArgumentError, "filter spec \"<spec>\": <message>".
absl::Status InvalidSpec(absl::string_view spec, absl::string_view message);

// A param's value as a decimal number (absl::SimpleAtod: "1e-3" is accepted)
// or an unsigned decimal integer; InvalidSpec naming the param otherwise.
absl::StatusOr<double> SpecNumber(absl::string_view spec,
                                  absl::string_view name,
                                  absl::string_view value);
absl::StatusOr<uint64_t> SpecCount(absl::string_view spec,
                                   absl::string_view name,
                                   absl::string_view value);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_SPEC_GRAMMAR_H_
