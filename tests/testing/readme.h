// Helpers for the tests that compile README.md's examples and check that the
// README shows exactly the code they compile.

#ifndef SSTFILTER_TESTS_TESTING_README_H_
#define SSTFILTER_TESTS_TESTING_README_H_

#include <cstddef>
#include <string>

#include "absl/strings/string_view.h"

namespace sstfilter {
namespace test {

// The contents of a file of this workspace (path relative to its root), read
// from the test's runfiles; "" and a test failure when it cannot be read.
std::string ReadRunfile(const std::string& path);

// The text strictly between the first line equal to begin_line after position
// from, and the next line equal to end_line; empty if either is missing.
std::string Between(absl::string_view text, absl::string_view begin_line,
                    absl::string_view end_line, size_t from = 0);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_TESTING_README_H_
