// Helpers for the tests that compile README.md's examples and check that the
// README shows exactly the code they compile: the code between the lines
// "// [START <marker>]" and "// [END <marker>]" of a test's source must equal
// the first ```c++ block of its README section.

#ifndef SSTFILTER_TESTS_TESTING_README_H_
#define SSTFILTER_TESTS_TESTING_README_H_

#include <string>

#include "absl/strings/string_view.h"

namespace sstfilter {
namespace test {

// README.md's section under the line `heading` ("## API example"), up to the
// next "## " heading; "" and a test failure when there is none.
std::string ReadmeSection(absl::string_view heading);

// The code of the first ```c++ block of text; "" if there is none.
std::string FirstCppBlock(absl::string_view text);

// The lines strictly between "// [START <marker>]" and "// [END <marker>]" in
// the workspace file at path; "" and a test failure when it cannot be read.
std::string MarkedCode(const std::string& path, absl::string_view marker);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_TESTING_README_H_
