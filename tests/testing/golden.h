// Golden-value checks with a regenerate switch, for tests that pin on-disk
// bytes: while a test's kRegenerate is on, each check prints `GOLDEN name =
// actual` and fails (so the switch cannot be left on), instead of comparing.

#ifndef SSTFILTER_TESTS_TESTING_GOLDEN_H_
#define SSTFILTER_TESTS_TESTING_GOLDEN_H_

#include <cstdint>
#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace test {

// Compares actual with expected, or prints actual and fails when regenerate.
template <typename T>
void CheckGolden(bool regenerate, const char* name, const T& actual,
                 const T& expected) {
  if (regenerate) {
    std::printf("GOLDEN %s = %s\n", name, absl::StrCat(actual).c_str());
    ADD_FAILURE()
        << "kRegenerate is on: golden values are printed, not checked";
    return;
  }
  EXPECT_EQ(actual, expected) << name;
}

// A 64-bit value as 16 hex digits, the form golden hashes are written in.
inline std::string Hex64(uint64_t value) {
  return absl::StrCat(absl::Hex(value, absl::kZeroPad16));
}

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_TESTING_GOLDEN_H_
