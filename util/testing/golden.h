// Golden-value checks with a regenerate switch, for tests that pin on-disk
// bytes or other frozen values. Each such test file has its own switch,
//
//   constexpr bool kRegenerate = false;
//
// passed to every check. While it is on, each check prints `GOLDEN name =
// actual` and fails (so the switch cannot be left on) instead of comparing:
// run the test with --test_output=all, paste the printed values, and set the
// switch back.

#ifndef SSTFILTER_UTIL_TESTING_GOLDEN_H_
#define SSTFILTER_UTIL_TESTING_GOLDEN_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace test {

// Prints `GOLDEN name = actual` and fails: for a test whose kRegenerate is on,
// where a value is regenerated but not compared exactly (a measured table
// checked within a tolerance).
template <typename T>
void PrintGolden(absl::string_view name, const T& actual) {
  const std::string line = absl::StrCat("GOLDEN ", name, " = ", actual);
  std::printf("%s\n", line.c_str());
  ADD_FAILURE() << "kRegenerate is on: golden values are printed, not checked";
}

// Compares actual with expected, or prints actual and fails when regenerate.
// Expected may be of another type that compares with actual's (a string
// literal for a std::string).
template <typename T, typename U>
void CheckGolden(bool regenerate, absl::string_view name, const T& actual,
                 const U& expected) {
  if (regenerate) {
    PrintGolden(name, actual);
    return;
  }
  EXPECT_EQ(actual, expected) << name;
}

// A 64-bit value as 16 hex digits, the form golden hashes are written in.
inline std::string Hex64(uint64_t value) {
  return absl::StrCat(absl::Hex(value, absl::kZeroPad16));
}

// A golden table's row for a filter too large to pin whole, as the table
// writes it (so that a printed row pastes back in): the Hash64 of its bytes,
// its size, and the indices of its first false positives, e.g.
// `0x5080247c8d700e69, 1251, {39, 217, 380, 464, 568}`.
inline std::string FilterGoldenRow(
    uint64_t filter_hash, size_t filter_size,
    const std::vector<int>& first_false_positives) {
  return absl::StrFormat("0x%016x, %d, {%s}", filter_hash, filter_size,
                         absl::StrJoin(first_false_positives, ", "));
}

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_UTIL_TESTING_GOLDEN_H_
