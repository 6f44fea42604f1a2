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
#include "absl/strings/str_join.h"
#include "util/mutex.h"

namespace sstfilter {
namespace {

struct Registry {
  Mutex mu;
  std::map<std::string, const FilterFormat*, std::less<>> formats
      ABSL_GUARDED_BY(mu);
  std::map<std::string, PolicyFactoryFunction> factories ABSL_GUARDED_BY(mu);
  std::map<std::string, RegisteredSpecFamily, std::less<>> spec_families
      ABSL_GUARDED_BY(mu);
};

// Built on first use, so that registrations from any translation unit's
// static initializers find it constructed.
Registry& TheRegistry() {
  static Registry* const registry = new Registry;
  return *registry;
}

}  // namespace

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

std::vector<RegisteredPolicyFactory> RegisteredPolicyFactories() {
  Registry& r = TheRegistry();
  MutexLock lock(&r.mu);
  std::vector<RegisteredPolicyFactory> factories;
  for (const auto& [name, factory] : r.factories)
    factories.push_back({name.c_str(), factory});
  return factories;
}

PolicyFactoryFunction FindPolicyFactory(absl::string_view name) {
  Registry& r = TheRegistry();
  MutexLock lock(&r.mu);
  const auto it = r.factories.find(std::string(name));
  return it == r.factories.end() ? nullptr : it->second;
}

std::optional<RegisteredSpecFamily> FindSpecFamily(absl::string_view name) {
  Registry& r = TheRegistry();
  MutexLock lock(&r.mu);
  auto it = r.spec_families.find(name);
  if (it == r.spec_families.end()) return std::nullopt;
  return it->second;
}

std::vector<RegisteredSpecFamily> RegisteredSpecFamilies() {
  Registry& r = TheRegistry();
  MutexLock lock(&r.mu);
  std::vector<RegisteredSpecFamily> families;
  for (const auto& entry : r.spec_families) families.push_back(entry.second);
  return families;
}

std::string RegisteredSpecFamilyNames() {
  Registry& r = TheRegistry();
  MutexLock lock(&r.mu);
  std::vector<absl::string_view> names;
  for (const auto& entry : r.spec_families) names.push_back(entry.first);
  return absl::StrJoin(names, ", ");
}

namespace registry_internal {

bool RegisterFormat(const FilterFormat& format) {
  Registry& r = TheRegistry();
  MutexLock lock(&r.mu);
  auto [it, inserted] = r.formats.emplace(format.Name(), &format);
  if (!inserted && it->second != &format) {
    std::fprintf(stderr, "sstfilter: two filter formats named %s\n",
                 format.Name());
    std::abort();
  }
  return true;
}

bool RegisterPolicyFactory(const char* name, PolicyFactoryFunction factory) {
  Registry& r = TheRegistry();
  MutexLock lock(&r.mu);
  r.factories.emplace(name, factory);
  return true;
}

bool RegisterSpecFamily(const char* name, PolicyFactoryFunction factory) {
  return RegisterSpecFamily(name, {}, [factory](const PolicySpec& spec) {
    return factory(spec.options);
  });
}

bool RegisterSpecFamily(const char* name, std::vector<SpecParam> params,
                        SpecPolicyFactory factory) {
  Registry& r = TheRegistry();
  MutexLock lock(&r.mu);
  auto [it, inserted] = r.spec_families.emplace(
      name, RegisteredSpecFamily{name, std::move(params), std::move(factory)});
  if (!inserted) {
    std::fprintf(stderr, "sstfilter: two spec families named %s\n", name);
    std::abort();
  }
  return true;
}

}  // namespace registry_internal
}  // namespace sstfilter
