// The one registry of filter families. Each family registers one record in
// its own folder: its spec name, params, factory and the formats it writes.
//
//   SSTFILTER_REGISTER_FAMILY(Burr, {"burr", {}, FromOptions(&NewBurr...),
//                                    {&BurrFormat(), &CheckedBurrFormat()}});
//
// Table readers find a format by its persisted name, tools build policies from
// specs (filter_spec.h), tests walk every family's variants. Records register
// at static initialization (//filter:formats is alwayslink); the lookups may
// be called from then on, from any thread.

#ifndef SSTFILTER_FILTER_FORMAT_REGISTRY_H_
#define SSTFILTER_FILTER_FORMAT_REGISTRY_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "filter/filter_format.h"
#include "filter/filter_policy.h"
#include "filter/policy_spec.h"

namespace sstfilter {

// A param a family takes beyond the ones every family takes (bits_per_key,
// fpp, checksum).
struct SpecParam {
  const char* name;
  // The words the value may be, "native|compact"; nullptr for a count (an
  // unsigned decimal integer).
  const char* words = nullptr;
};

// Builds a family's policy from a parsed spec. The policy prints its spec
// (FilterPolicy::ToString), given when the family constructed it.
using SpecPolicyFactory =
    std::function<absl::StatusOr<std::unique_ptr<const FilterPolicy>>(
        const PolicySpec& spec)>;

// A SpecPolicyFactory for a family whose params are the common ones only.
SpecPolicyFactory FromOptions(PolicyFactoryFunction factory);

// One family's record.
struct FilterFamilyRecord {
  // The first word of its specs, e.g. "hybrid".
  std::string name;
  // Its own params.
  std::vector<SpecParam> params;
  SpecPolicyFactory factory;
  // The formats its policies write, each living as long as the program;
  // tables name them (FilterFormat::Name) and readers find them here.
  std::vector<const FilterFormat*> formats;
  // Its variants, as the params that follow the family's name in a spec
  // ("family=native"): the policies the contract suite and every other walker
  // of the registry test. Empty means one variant, the family's defaults.
  std::vector<std::string> variants = {};
  // Formats its readers read that its policies no longer write (a layout an
  // earlier release wrote): tables still name them, and readers find them
  // here.
  std::vector<const FilterFormat*> read_formats = {};
};

// The family named name, or nullopt.
std::optional<FilterFamilyRecord> FindFilterFamily(absl::string_view name);

// Every registered family, by name.
std::vector<FilterFamilyRecord> RegisteredFilterFamilies();

// The registered family names, for error messages: "a, b, c".
std::string RegisteredFamilyNames();

// One variant of a family, ready to build policies of any size.
struct FamilyVariant {
  // The variant's spec without its size: "bloom", "hybrid:family=native".
  std::string spec;
  // The variant's policy for options (bits_per_key or fpp, and checksum).
  std::function<absl::StatusOr<std::unique_ptr<const FilterPolicy>>(
      const FilterOptions& options)>
      factory;
};

// Every registered family's variants, by spec.
std::vector<FamilyVariant> RegisteredFamilyVariants();

// The variant whose spec is spec, or nullopt.
std::optional<FamilyVariant> FindFamilyVariant(absl::string_view spec);

// The format persisted under name, or nullptr when no linked family writes
// it. The format lives as long as the program.
const FilterFormat* FindFilterFormat(absl::string_view name);

// Every registered format, by name.
std::vector<const FilterFormat*> RegisteredFilterFormats();

// The registered format names, for error messages: "a, b, c".
std::string RegisteredFormatNames();

// The names of the families whose records list format (a table's reader), by
// name; empty for nullptr or a format no family lists. Tells a user which
// spec wrote a table: kCheckedLocalBloomName is "bloom"'s.
std::vector<std::string> FamiliesWritingFormat(const FilterFormat* format);

namespace registry_internal {

// Registers record and its formats. Aborts on a second family of the same
// name, or a second format object under one format name: which reader a
// table gets must not depend on link order. Two families may share one
// format object.
bool RegisterFamily(FilterFamilyRecord record);

}  // namespace registry_internal
}  // namespace sstfilter

// Registers a family's record (a FilterFamilyRecord initializer) at static
// initialization; id makes the registration's variable unique in its file.
#define SSTFILTER_REGISTER_FAMILY(id, ...)                  \
  [[maybe_unused]] static const bool kSstfilterFamily##id = \
      ::sstfilter::registry_internal::RegisterFamily(       \
          ::sstfilter::FilterFamilyRecord __VA_ARGS__)

#endif  // SSTFILTER_FILTER_FORMAT_REGISTRY_H_
