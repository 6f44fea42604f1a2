// The code examples of README.md and of other markdown files, for the tests
// that compile and run them: such a test checks that the document shows
// exactly the code between its markers, so a document cannot drift from code
// that builds and works.

#ifndef SSTFILTER_UTIL_TESTING_README_H_
#define SSTFILTER_UTIL_TESTING_README_H_

#include <string>

#include "absl/strings/string_view.h"

namespace sstfilter {
namespace test {

// Expects the section of the markdown file markdown_path (relative to the
// workspace root, e.g. "inmemory/mutable/README.md") under the line heading
// (e.g. "## API example") to hold, as its first ```c++ block, exactly the
// lines of source_path between "// [START marker]" and "// [END marker]", and
// to mention mention (e.g. the Bazel label the example needs) somewhere. The
// section ends at the next heading of the same or a higher level outside a
// code block. REQUIRES: run by bazel test, with markdown_path and source_path
// in the test's data.
void ExpectReadmeShows(const std::string& markdown_path,
                       absl::string_view heading,
                       const std::string& source_path, absl::string_view marker,
                       absl::string_view mention);

// The same for the top-level README.md.
void ExpectReadmeShows(absl::string_view heading,
                       const std::string& source_path, absl::string_view marker,
                       absl::string_view mention);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_UTIL_TESTING_README_H_
