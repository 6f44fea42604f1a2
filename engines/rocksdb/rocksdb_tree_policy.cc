#include "engines/rocksdb/rocksdb_tree_policy.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engines/rocksdb/rocksdb_hybrid_policy.h"
#include "engines/rocksdb/rocksdb_per_level_policy.h"
#include "filter/bloom/bloom.h"
#include "filter/filter_spec.h"
#include "filter/hybrid/hybrid.h"
#include "filter/policy_spec.h"

namespace sstfilter {
namespace {

// The one line every refusal here gives: the spec, then what is wrong.
absl::Status Refuse(absl::string_view spec, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("tree policy \"", spec, "\": ", why));
}

}  // namespace

absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>>
NewRocksDbTreeFilterPolicy(absl::string_view spec,
                           absl::Span<const TreeLevel> tree) {
  absl::StatusOr<PolicySpec> parsed = ParsePolicySpec(spec);
  if (!parsed.ok()) return parsed.status();
  const bool bloom = parsed->family == kBloomFamilyName;
  const bool hybrid = parsed->family == kHybridFamilyName;
  if (!bloom && !hybrid) {
    return Refuse(spec,
                  absl::StrCat("family ", parsed->family, " has no tree form (",
                               kBloomFamilyName, ", ", kHybridFamilyName, ")"));
  }
  if (!NamesTreePolicy(*parsed)) {
    return Refuse(spec, absl::StrCat("give ", kLevelsParam, "=", kTreeLevels));
  }
  if (!parsed->options.bits_per_key.has_value()) {
    return Refuse(spec, "size it by bits_per_key, the tree's budget, not fpp");
  }
  if (parsed->options.self_checksum.has_value()) {
    return Refuse(spec, "checksum is not a param of a tree's policy");
  }
  for (const auto& [name, value] : parsed->params) {
    if (name == kLevelsParam || (hybrid && name == kMaxBuildBytesParam))
      continue;
    return Refuse(spec, absl::StrCat(name, " is not a param of ",
                                     parsed->family, "'s tree policy"));
  }
  const double budget = *parsed->options.bits_per_key;
  if (bloom) return NewRocksDbPerLevelFilterPolicy(tree, budget);
  absl::StatusOr<size_t> max_build_bytes = MaxBuildBytesOfSpec(*parsed);
  if (!max_build_bytes.ok()) {
    return Refuse(spec, max_build_bytes.status().message());
  }
  HybridTreeOptions options;
  options.max_build_bytes = *max_build_bytes;
  return NewRocksDbHybridFilterPolicy(tree, budget, options);
}

}  // namespace sstfilter
