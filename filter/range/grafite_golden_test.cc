// Golden vectors of the range filter format ("sstfilter.Grafite1", and
// "sstfilter.Grafite2" around it): whole filters for small key sets, the hash
// of a larger filter, the block hash's values, and the first empty ranges a
// filter matches. Any change here is a format change: a filter written before
// would read differently. Such a change needs a new marker and name, not new
// vectors.
//
// To regenerate after a deliberate format change: set kRegenerate to true, run
//   bazel test //filter/range:grafite_golden_test --test_output=all
// paste the printed values, and set it back (while it is on, every test fails).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "filter/range/grafite_format.h"
#include "filter/range/range_filter.h"
#include "gtest/gtest.h"
#include "util/hash.h"
#include "util/testing/golden.h"

namespace sstfilter {
namespace {

constexpr bool kRegenerate = false;

std::string Build(double bits, bool checksum,
                  const std::vector<std::string>& keys) {
  FilterOptions options = FilterOptions::BitsPerKey(bits);
  options.self_checksum = checksum;
  std::unique_ptr<FilterBuilder> builder =
      (*NewGrafiteFilterPolicy(options))->NewBuilder();
  for (const std::string& key : keys) builder->AddKey(key);
  std::string filter;
  builder->Finish(&filter);
  return filter;
}

// Keys "key000000".."key<n-1>": their first 8 bytes vary, as codes must.
std::vector<std::string> NumberedKeys(int n, int step) {
  std::vector<std::string> keys;
  for (int i = 0; i < n; ++i) {
    keys.push_back(absl::StrCat("k", absl::Dec(i * step, absl::kZeroPad7)));
  }
  return keys;
}

TEST(GrafiteGoldenTest, SmallFilters) {
  test::CheckGolden(kRegenerate, "{} v1",
                    absl::BytesToHexString(Build(16, false, {})),
                    std::string("0000000000000000000000000000000000000000000000"
                                "000100ed5e7ef1a709a70d"));
  test::CheckGolden(
      kRegenerate, "{hello, world} v1",
      absl::BytesToHexString(Build(16, false, {"hello", "world"})),
      std::string("0bfef90000000000140000000000000000000000c8710000000000000200"
                  "00000000000002000000000000000100ed5e7ef1a709a70d"));
  test::CheckGolden(
      kRegenerate, "{hello, world} v2",
      absl::BytesToHexString(Build(16, true, {"hello", "world"})),
      std::string(
          "0bfef90000000000140000000000000000000000c871000000000000020000000000"
          "000002000000000000000100ed5e7ef1a709a70de8ca8ba7c20d"));
  test::CheckGolden(
      kRegenerate, "10 keys at 8 bits/key v1",
      absl::BytesToHexString(Build(8, false, NumberedKeys(10, 7))),
      std::string("238b6ffb3795030081125c03000000000100000039020000000000000a00"
                  "0000000000000a000000000000000100ed5e7ef1a709a705"));
}

TEST(GrafiteGoldenTest, BlockHash) {
  const grafite_internal::LocalityHash hash(1000003,
                                            grafite_internal::kDefaultSeed);
  std::vector<uint64_t> offsets;
  for (uint64_t block : {uint64_t{0}, uint64_t{1}, uint64_t{2},
                         uint64_t{1} << 40, ~uint64_t{0} / 1000003}) {
    offsets.push_back(hash.BlockOffset(block));
  }
  test::CheckGolden(kRegenerate, "block offsets", absl::StrJoin(offsets, ", "),
                    std::string("637599, 466669, 63547, 903339, 319665"));
}

TEST(GrafiteGoldenTest, LargerFilterAndItsFirstFalsePositives) {
  const std::vector<std::string> keys = NumberedKeys(20000, 13);
  const std::string filter = Build(12, false, keys);
  const std::unique_ptr<RangeFilterReader> reader =
      NewRangeFilterReader(filter);
  // Ranges of six numbers in the keys' gaps (the keys are 13 apart): none
  // holds a key, but one that crosses a decimal carry ("...16" to "...21") is
  // about 250 codes long, and those are the first to match.
  std::vector<int> first;
  for (int i = 0; i < 20000 && first.size() < 5; ++i) {
    const std::string lo =
        absl::StrCat("k", absl::Dec(i * 13 + 3, absl::kZeroPad7));
    const std::string hi =
        absl::StrCat("k", absl::Dec(i * 13 + 8, absl::kZeroPad7));
    if (reader->RangeMayMatch(lo, hi)) first.push_back(i);
  }
  test::CheckGolden(kRegenerate, "20000 keys at 12 bits/key",
                    test::FilterGoldenRow(Hash64(filter), filter.size(), first),
                    std::string("0xcd512423c854c439, 29998, {1, 2, 4, 5, 8}"));
}

}  // namespace
}  // namespace sstfilter
