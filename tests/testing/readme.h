// README.md's code examples, for the tests that compile and run them: such a
// test checks that the README shows exactly the code between its markers, so
// the README cannot drift from code that builds and works.

#ifndef SSTFILTER_TESTS_TESTING_README_H_
#define SSTFILTER_TESTS_TESTING_README_H_

#include <string>

#include "absl/strings/string_view.h"

namespace sstfilter {
namespace test {

// Expects the section of README.md under the line heading (e.g.
// "## API example") to hold, as its first ```c++ block, exactly the lines of
// source_path between "// [START marker]" and "// [END marker]", and to
// mention mention (e.g. the Bazel label the example needs) somewhere.
// REQUIRES: run by bazel test, with README.md and source_path in the test's
// data.
void ExpectReadmeShows(absl::string_view heading,
                       const std::string& source_path, absl::string_view marker,
                       absl::string_view mention);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_TESTING_README_H_
