// One string names any filter policy, the same in code, options files, tools
// and the engine adapters (as RocksDB's FilterPolicy::CreateFromString does).
// filter/README.md ("Spec strings") lists every family and its params.
//
//   absl::StatusOr<std::unique_ptr<const sstfilter::FilterPolicy>> policy =
//       sstfilter::NewFilterPolicyFromString("bloom:fpp=0.01");
//   if (!policy.ok()) return policy.status();  // one line naming the fault
//   (*policy)->ToString();  // "bloom:fpp=0.01", which parses back to it

#ifndef SSTFILTER_FILTER_FILTER_SPEC_H_
#define SSTFILTER_FILTER_FILTER_SPEC_H_

#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "filter/filter_policy.h"
#include "filter/policy_spec.h"

namespace sstfilter {

// The policy spec names, by the grammar
//
//   spec   := family (":" param)*
//   param  := name "=" value
//           | number            (first param only: bits_per_key=number)
//
// Every family takes bits_per_key=C or fpp=P (exactly one of them) and
// checksum=on|off (FilterOptions::self_checksum; unset: the family's
// default), and its own params beyond them. The families are those linked in
// and registered (format_registry.h, RegisteredFilterFamilies). Numbers are
// decimal (absl::SimpleAtod; "1e-3" is accepted); counts are unsigned decimal
// integers; names and words are case-sensitive. Colons separate params, so a
// tool can take a comma-separated list of specs.
//
// Returns InvalidArgumentError with one line naming the offending part for an
// empty spec, an unknown family (listing the known ones), an empty param (a
// trailing or doubled colon), a param the family does not take, a param given
// twice, a value that is not a number, count or one of the param's words, both
// or neither of bits_per_key and fpp, and options the family's factory rejects
// (its message, as ValidateFilterOptions's).
absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewFilterPolicyFromString(
    absl::string_view spec);

// Whether a spec must give its size (bits_per_key or fpp), or may leave it to
// its user: a tool that sizes every filter of a run alike takes "bloom" or
// "hybrid:family=native" and sets each one's options to the run's size.
enum class SpecSize { kRequired, kOptional };

// The parse alone, with the same errors except the factory's: the spec's
// family, options and the family's own params. With SpecSize::kOptional a
// spec that gives neither bits_per_key nor fpp is accepted, unsized.
absl::StatusOr<PolicySpec> ParsePolicySpec(absl::string_view spec,
                                           SpecSize size = SpecSize::kRequired);

// The policy of a parsed spec whose options give its size, as
// NewFilterPolicyFromString builds it; InvalidArgumentError for an unsized
// spec, or with the factory's message.
absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewFilterPolicyFromSpec(
    const PolicySpec& spec);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_FILTER_SPEC_H_
