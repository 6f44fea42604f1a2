// Golden vectors of the bumped Ribbon format ("sstfilter.BumpedRibbon1"):
// whole filters for small key sets, a hash of the bytes of larger filters,
// and the first false-positive indices. Any change here is a format change: a
// filter written before would read differently. Such a change needs a new
// marker and Name(), not new vectors.
//
// To regenerate after a deliberate format change: set kRegenerate to true, run
//   bazel test //filter/burr:burr_golden_test --test_output=all
// paste the printed values, and set it back (while it is on, every test fails).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "filter/burr/burr.h"
#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"
#include "util/hash.h"
#include "util/testing/golden.h"

namespace sstfilter {
namespace {

using ::sstfilter::test::BuildFilter;
using ::sstfilter::test::FirstMatches;
using ::sstfilter::test::Keys16;

using ::sstfilter::test::Hex64;

constexpr bool kRegenerate = false;

std::unique_ptr<const FilterPolicy> Policy(const FilterOptions& options) {
  return std::move(*NewBurrFilterPolicy(options));
}

TEST(BumpedRibbonGoldenTest, SmallFilters) {
  const auto policy = Policy(test::Version1(FilterOptions::Fpp(0.01)));
  test::CheckGolden(kRegenerate, "{}",
                    absl::BytesToHexString(BuildFilter(*policy, {})),
                    std::string("00000003b706"));
  test::CheckGolden(
      kRegenerate, "{hello, world}",
      absl::BytesToHexString(BuildFilter(*policy, {"hello", "world"})),
      std::string(
          "c55f6a31bc1a0b9890e6ca639c8436a3cfea14c04652180daf06729b6cb7b21a"
          "4adb0f24f6a7148a45bbeb23db6f1a2e805073971f5c57f20002000101010006"
          "b706"));
  test::CheckGolden(
      kRegenerate, "10 keys at 10 bits/key",
      absl::BytesToHexString(
          BuildFilter(*Policy(test::Version1(FilterOptions::BitsPerKey(10))),
                      Keys16(0, 0, 10))),
      std::string(
          "d85d6a31bc1a0b98f8e6ca639c8436a39ce114c04652180db206729b6cb7b21a"
          "44d30f24f6a7148a79b3eb23db6f1a2edd5973971f5c57f28e6f79e6ee4a13d3"
          "38c4f7a8d6f6d0f9b0ab08bd5451b083000a000101010006b709"));
}

TEST(BumpedRibbonGoldenTest, LargeFilters) {
  struct Case {
    const char* name;
    FilterOptions options;
    uint64_t n;
    const char* size_and_hash;  // size, then Hash64 of the filter bytes
  };
  const std::vector<Case> cases = {
      {"10^4 keys at fpp 1%", test::Version1(FilterOptions::Fpp(0.01)), 10000,
       "8570 95fbcf212d58e643"},
      {"10^5 keys at fpp 0.1%", test::Version1(FilterOptions::Fpp(0.001)),
       100000, "125483 beff45913c3b64b1"},
      {"10^5 keys at 7.5 bits/key",
       test::Version1(FilterOptions::BitsPerKey(7.5)), 100000,
       "93516 d54389569093da70"},
  };
  for (const Case& c : cases) {
    const std::string filter =
        BuildFilter(*Policy(c.options), Keys16(0, 0, c.n));
    test::CheckGolden(kRegenerate, c.name,
                      absl::StrCat(filter.size(), " ", Hex64(Hash64(filter))),
                      std::string(c.size_and_hash));
  }
}

TEST(BumpedRibbonGoldenTest, FirstFalsePositives) {
  const auto policy = Policy(test::Version1(FilterOptions::Fpp(0.01)));
  const std::string filter = BuildFilter(*policy, Keys16(0, 0, 10000));
  std::unique_ptr<FilterReader> reader = policy->NewReader(filter);
  test::CheckGolden(kRegenerate, "first false positives",
                    FirstMatches(*reader, 1, 8),
                    std::string("34,179,202,223,250,797,807,854"));
}

}  // namespace
}  // namespace sstfilter
