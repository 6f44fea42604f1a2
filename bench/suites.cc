#include "bench/suites.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "bench/report.h"
#include "bench/workload.h"

namespace sstfilter {
namespace bench {
namespace {

// Filter sizes: 10^4 keys fit in L2, 10^6 in L3, 10^8 in neither.
constexpr uint64_t kSmallKeys = 10'000;
constexpr uint64_t kMediumKeys = 1'000'000;
constexpr uint64_t kLargeKeys = 100'000'000;

// The FP sweep of --plot: 10^6 keys, a size whose FP rate no longer depends on
// it; the quick suite's shorter run takes 10^5.
constexpr uint64_t kPlotKeys = kMediumKeys;
constexpr uint64_t kQuickPlotKeys = 100'000;

}  // namespace

const std::vector<Suite>& AllSuites() {
  static const auto* suites = new std::vector<Suite>{
      // What a user runs first: the headline workload in L2 and in L3, and a
      // store's many filters out of cache, within 3 minutes even in the
      // machine's slow spells.
      {kDefaultSuite,
       {"random16", "lsm3200"},
       {kSmallKeys, kMediumKeys},
       {kSmallKeys, kMediumKeys},
       kPlotKeys,
       "about 1 minute"},
      // Every workload, random16 also at 10^8 keys: the figures of the
      // project's README.
      {"full",
       {"random16", "sequential", "varlen", "lsm6400"},
       {kSmallKeys, kMediumKeys, kLargeKeys},
       {kSmallKeys, kMediumKeys},
       kPlotKeys,
       "about 7 minutes"},
      // Everything in cache or nearly, to try a change.
      {kQuickSuite,
       {"random16", "sequential", "varlen"},
       {kSmallKeys, kMediumKeys},
       {kSmallKeys, kMediumKeys},
       kQuickPlotKeys,
       "about 40 seconds"},
  };
  return *suites;
}

const Suite* FindSuite(absl::string_view name) {
  for (const Suite& suite : AllSuites()) {
    if (name == suite.name) return &suite;
  }
  return nullptr;
}

std::string DescribeCases(const Suite& suite) {
  // Each workload with its sizes ("" for an lsm workload, which has one);
  // neighbours of the same sizes then share them.
  std::vector<std::pair<std::vector<std::string>, std::string>> groups;
  for (const std::string& name : suite.workloads) {
    const absl::StatusOr<std::vector<Workload>> workloads =
        ExpandWorkloads({name}, suite.keys, suite.other_keys);
    std::vector<std::string> sizes;
    for (const Workload& w : workloads.value_or(std::vector<Workload>())) {
      if (w.num_filters == 1) sizes.push_back(CountText(w.keys_per_filter));
    }
    const std::string at =
        sizes.empty() ? "" : " at " + absl::StrJoin(sizes, ", ") + " keys";
    if (!groups.empty() && !at.empty() && groups.back().second == at) {
      groups.back().first.push_back(name);
    } else {
      groups.push_back({{name}, at});
    }
  }
  std::vector<std::string> parts;
  for (const auto& [names, at] : groups) {
    std::string joined = names.back();
    if (names.size() > 1) {
      joined = absl::StrCat(absl::StrJoin(names.begin(), names.end() - 1, ", "),
                            " and ", joined);
    }
    parts.push_back(joined + at);
  }
  return absl::StrJoin(parts, "; ");
}

}  // namespace bench
}  // namespace sstfilter
