#include "table/testing/grouped_keys.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_format.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace test {

std::string GroupPrefix(uint64_t g) { return absl::StrFormat("g%07d", g); }

namespace {

std::string Suffix(Random* random) {
  return absl::StrFormat("%016x", random->Next64());
}

}  // namespace

GroupedKeys MakeGroupedKeys(size_t groups, size_t keys_per_group,
                            size_t absent_keys, uint64_t seed) {
  Random random(seed);
  GroupedKeys out;
  // Even groups are present, odd ones absent: absent prefixes sort between
  // present ones, inside the table's key range.
  std::set<std::string> keys;
  for (size_t g = 0; g < groups; ++g) {
    out.prefixes.push_back(GroupPrefix(2 * g));
    out.absent_prefixes.push_back(GroupPrefix(2 * g + 1));
    for (size_t i = 0; i < keys_per_group; ++i) {
      keys.insert(out.prefixes.back() + Suffix(&random));
    }
  }
  out.keys.assign(keys.begin(), keys.end());
  while (out.absent_in_present_groups.size() < absent_keys) {
    std::string key = out.prefixes[random.Uniform(groups)] + Suffix(&random);
    if (keys.count(key) == 0) {
      out.absent_in_present_groups.push_back(std::move(key));
    }
  }
  for (size_t i = 0; i < absent_keys; ++i) {
    out.absent_in_absent_groups.push_back(
        out.absent_prefixes[random.Uniform(groups)] + Suffix(&random));
  }
  return out;
}

}  // namespace test
}  // namespace sstfilter
