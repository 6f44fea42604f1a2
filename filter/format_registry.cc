#include "filter/format_registry.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "util/mutex.h"

namespace sstfilter {
namespace {

struct Registry {
  Mutex mu;
  std::map<std::string, const FilterFormat*, std::less<>> formats
      ABSL_GUARDED_BY(mu);
  std::map<std::string, FilterFamilyRecord, std::less<>> families
      ABSL_GUARDED_BY(mu);
};

// Built on first use, so that registrations from any translation unit's
// static initializers find it constructed.
Registry& TheRegistry() {
  static Registry* const registry = new Registry;
  return *registry;
}

[[noreturn]] void DieOfTwo(const char* what, const std::string& name) {
  std::fprintf(stderr, "sstfilter: two %s named %s\n", what, name.c_str());
  std::abort();
}

// The variant's params ("family=native:max_build_bytes=8") by name.
std::map<std::string, std::string> VariantParams(absl::string_view variant) {
  std::map<std::string, std::string> params;
  for (absl::string_view param :
       absl::StrSplit(variant, ':', absl::SkipEmpty())) {
    const std::pair<std::string, std::string> name_value =
        absl::StrSplit(param, absl::MaxSplits('=', 1));
    params[name_value.first] = name_value.second;
  }
  return params;
}

FamilyVariant VariantOf(const FilterFamilyRecord& family,
                        const std::string& variant) {
  FamilyVariant made;
  made.spec =
      variant.empty() ? family.name : absl::StrCat(family.name, ":", variant);
  made.factory = [name = family.name, factory = family.factory,
                  params =
                      VariantParams(variant)](const FilterOptions& options) {
    PolicySpec spec = PolicySpec::Of(name, options);
    spec.params = params;
    return factory(spec);
  };
  return made;
}

}  // namespace

SpecPolicyFactory FromOptions(PolicyFactoryFunction factory) {
  return [factory](const PolicySpec& spec) { return factory(spec.options); };
}

std::optional<FilterFamilyRecord> FindFilterFamily(absl::string_view name) {
  Registry& r = TheRegistry();
  MutexLock lock(&r.mu);
  auto it = r.families.find(name);
  if (it == r.families.end()) return std::nullopt;
  return it->second;
}

std::vector<FilterFamilyRecord> RegisteredFilterFamilies() {
  Registry& r = TheRegistry();
  MutexLock lock(&r.mu);
  std::vector<FilterFamilyRecord> families;
  for (const auto& entry : r.families) families.push_back(entry.second);
  return families;
}

std::string RegisteredFamilyNames() {
  Registry& r = TheRegistry();
  MutexLock lock(&r.mu);
  std::vector<absl::string_view> names;
  for (const auto& entry : r.families) names.push_back(entry.first);
  return absl::StrJoin(names, ", ");
}

std::vector<std::string> FamiliesWritingFormat(const FilterFormat* format) {
  std::vector<std::string> names;
  if (format == nullptr) return names;
  for (const FilterFamilyRecord& family : RegisteredFilterFamilies()) {
    for (const FilterFormat* written : family.formats) {
      if (written == format) {
        names.push_back(family.name);
        break;
      }
    }
  }
  return names;
}

std::vector<FamilyVariant> RegisteredFamilyVariants() {
  std::vector<FamilyVariant> variants;
  for (const FilterFamilyRecord& family : RegisteredFilterFamilies()) {
    if (family.variants.empty()) variants.push_back(VariantOf(family, ""));
    for (const std::string& variant : family.variants) {
      variants.push_back(VariantOf(family, variant));
    }
  }
  return variants;
}

std::optional<FamilyVariant> FindFamilyVariant(absl::string_view spec) {
  for (FamilyVariant& variant : RegisteredFamilyVariants()) {
    if (variant.spec == spec) return std::move(variant);
  }
  return std::nullopt;
}

const FilterFormat* FindFilterFormat(absl::string_view name) {
  Registry& r = TheRegistry();
  MutexLock lock(&r.mu);
  auto it = r.formats.find(name);
  return it == r.formats.end() ? nullptr : it->second;
}

std::vector<const FilterFormat*> RegisteredFilterFormats() {
  Registry& r = TheRegistry();
  MutexLock lock(&r.mu);
  std::vector<const FilterFormat*> formats;
  for (const auto& [name, format] : r.formats) formats.push_back(format);
  return formats;
}

std::string RegisteredFormatNames() {
  Registry& r = TheRegistry();
  MutexLock lock(&r.mu);
  std::vector<absl::string_view> names;
  for (const auto& entry : r.formats) names.push_back(entry.first);
  return absl::StrJoin(names, ", ");
}

namespace registry_internal {

bool RegisterFamily(FilterFamilyRecord record) {
  Registry& r = TheRegistry();
  MutexLock lock(&r.mu);
  for (const auto* formats : {&record.formats, &record.read_formats}) {
    for (const FilterFormat* format : *formats) {
      auto [it, inserted] = r.formats.emplace(format->Name(), format);
      if (!inserted && it->second != format) {
        DieOfTwo("filter formats", it->first);
      }
    }
  }
  const std::string name = record.name;
  if (!r.families.emplace(name, std::move(record)).second) {
    DieOfTwo("filter families", name);
  }
  return true;
}

}  // namespace registry_internal
}  // namespace sstfilter
