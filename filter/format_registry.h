// Every filter format and policy factory a program links, registered by the
// families themselves: a table reader finds a format by the name persisted
// beside a filter, and tests walk every policy factory. A family registers in
// its own folder, and is linked into every program that reads tables through
// //filter:formats (alwayslink, so registration runs even when nothing calls
// it). The lookups may be called from static initialization on, from any
// thread.
//
//   SSTFILTER_REGISTER_FILTER_FORMAT(LocalBloom, LocalBloomFormat());
//   SSTFILTER_REGISTER_SPEC_FAMILY(Bloom, "bloom", &NewBloomFilterPolicy);

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

// The format persisted under name, or nullptr when no linked family reads
// it. The format lives as long as the program.
const FilterFormat* FindFilterFormat(absl::string_view name);

// Every registered format, by name.
std::vector<const FilterFormat*> RegisteredFilterFormats();

// The registered format names, for error messages: "a, b, c".
std::string RegisteredFormatNames();

struct RegisteredPolicyFactory {
  const char* name;  // the factory's C++ name, e.g. "NewBloomFilterPolicy"
  PolicyFactoryFunction factory;
};

// Every registered policy factory, by name.
std::vector<RegisteredPolicyFactory> RegisteredPolicyFactories();

// The registered policy factory of that name, or nullptr.
PolicyFactoryFunction FindPolicyFactory(absl::string_view name);

// A spec family: the first word of a spec string (filter/filter_spec.h), the
// params it takes beyond the ones every family takes (bits_per_key, fpp,
// checksum), and the factory that builds its policy from a parsed spec.
struct SpecParam {
  const char* name;
  // The words the value may be, "native|compact"; nullptr for a count (an
  // unsigned decimal integer).
  const char* words = nullptr;
};
using SpecPolicyFactory =
    std::function<absl::StatusOr<std::unique_ptr<const FilterPolicy>>(
        const PolicySpec& spec)>;
struct RegisteredSpecFamily {
  std::string name;
  std::vector<SpecParam> params;  // the family's own
  SpecPolicyFactory factory;
};

// The spec family named name, or nullopt.
std::optional<RegisteredSpecFamily> FindSpecFamily(absl::string_view name);

// Every registered spec family, by name.
std::vector<RegisteredSpecFamily> RegisteredSpecFamilies();

// The registered spec family names, for error messages: "a, b, c".
std::string RegisteredSpecFamilyNames();

namespace registry_internal {

// Registers format, which must live as long as the program. Aborts on a
// second format of the same name: two readers for one name would make which
// one a table gets depend on link order.
bool RegisterFormat(const FilterFormat& format);
bool RegisterPolicyFactory(const char* name, PolicyFactoryFunction factory);

// Registers a spec family whose params are the common ones, built by a policy
// factory from spec.options; or one with params of its own, built from the
// whole spec. Aborts on a second family of the same name.
bool RegisterSpecFamily(const char* name, PolicyFactoryFunction factory);
bool RegisterSpecFamily(const char* name, std::vector<SpecParam> params,
                        SpecPolicyFactory factory);

}  // namespace registry_internal
}  // namespace sstfilter

// Registers a format object (an lvalue that lives as long as the program) at
// static initialization; id makes the registration's variable unique in its
// file.
#define SSTFILTER_REGISTER_FILTER_FORMAT(id, format)        \
  [[maybe_unused]] static const bool kSstfilterFormat##id = \
      ::sstfilter::registry_internal::RegisterFormat(format)

// Registers a policy factory with the signature of PolicyFactoryFunction.
#define SSTFILTER_REGISTER_POLICY_FACTORY(factory)                \
  [[maybe_unused]] static const bool kSstfilterFactory##factory = \
      ::sstfilter::registry_internal::RegisterPolicyFactory(      \
          #factory, &::sstfilter::factory)

// Registers a factory under a name of its own, for a typed factory whose
// options go beyond FilterOptions: one registration per variant the
// registry's walkers must test, named "<Factory>_<Variant>".
#define SSTFILTER_REGISTER_POLICY_VARIANT(id, name, factory) \
  [[maybe_unused]] static const bool kSstfilterFactory##id = \
      ::sstfilter::registry_internal::RegisterPolicyFactory(name, factory)

// Registers a spec family: SSTFILTER_REGISTER_SPEC_FAMILY(id, name, factory)
// with a PolicyFactoryFunction, or (id, name, params, spec_factory) with the
// family's own params and a SpecPolicyFactory.
#define SSTFILTER_REGISTER_SPEC_FAMILY(id, ...)                 \
  [[maybe_unused]] static const bool kSstfilterSpecFamily##id = \
      ::sstfilter::registry_internal::RegisterSpecFamily(__VA_ARGS__)

#endif  // SSTFILTER_FILTER_FORMAT_REGISTRY_H_
