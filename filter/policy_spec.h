// A spec string parsed: the family that builds a policy and the options it was
// given, the form in which a policy names itself (FilterPolicy::ToString) and
// a family's factory receives a spec (filter/filter_spec.h parses). A family's
// typed factory gives each policy its spec when it constructs it, so that
// policies made in code print the same spec as policies made from a string:
//
//   return std::unique_ptr<const FilterPolicy>(new BloomPolicy(
//       *sizing, PolicySpec::Of("bloom", options).ToString()));

#ifndef SSTFILTER_FILTER_POLICY_SPEC_H_
#define SSTFILTER_FILTER_POLICY_SPEC_H_

#include <map>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "filter/filter_policy.h"

namespace sstfilter {

struct PolicySpec {
  // The first word of the spec, e.g. "bloom".
  std::string family;
  // bits_per_key or fpp, and checksum (self_checksum), as every family takes.
  FilterOptions options;
  // The family's own params that were set, by name, each value in canonical
  // text (FormatSpecNumber for numbers, a decimal count, or a word).
  std::map<std::string, std::string> params;

  static PolicySpec Of(absl::string_view family, const FilterOptions& options);

  // The canonical spec string: the family, then bits_per_key, fpp and
  // checksum, then the family's own params by name, each only when set, as
  // "family:name=value:...". Parsing it gives this spec back. A family's
  // policy is constructed with it (FilterPolicy(std::string spec)) and
  // returns it from ToString().
  std::string ToString() const;
};

// The param of the families that also come as a policy for a whole LSM tree
// (bloom, hybrid): "levels=tree" names the policy that chooses each level's
// rate (and the hybrid's family) for a tree's shape, spending the spec's
// bits_per_key as the tree's budget. A filter alone knows no level, so only
// a host that knows its tree builds that policy
// (engines/rocksdb/rocksdb_tree_policy.h); "levels=uniform" is the default.
inline constexpr char kLevelsParam[] = "levels";
inline constexpr char kLevelsWords[] = "uniform|tree";
inline constexpr char kTreeLevels[] = "tree";

// Whether spec names a tree's policy (levels=tree).
bool NamesTreePolicy(const PolicySpec& spec);

// For a family's own factory: OkStatus, or for levels=tree an
// InvalidArgumentError saying where that policy is built.
absl::Status RejectTreePolicy(const PolicySpec& spec);

// The shortest decimal text that parses back (absl::SimpleAtod) to exactly v:
// "10", "0.001", "1e-06".
std::string FormatSpecNumber(double v);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_POLICY_SPEC_H_
