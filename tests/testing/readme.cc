#include "tests/testing/readme.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace test {
namespace {

// The contents of a file of this workspace, read from the test's runfiles.
std::string ReadRunfile(const std::string& path) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  EXPECT_NE(srcdir, nullptr) << "run me with bazel test";
  if (srcdir == nullptr) return "";
  const std::string full = std::string(srcdir) + "/" +
                           (workspace != nullptr ? workspace : "sstfilter") +
                           "/" + path;
  std::ifstream in(full, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << full;
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

// The text strictly between the first line equal to begin_line and the next
// line equal to end_line; empty if either is missing.
std::string Between(absl::string_view text, absl::string_view begin_line,
                    absl::string_view end_line) {
  const size_t begin = text.find(absl::StrCat("\n", begin_line, "\n"));
  if (begin == absl::string_view::npos) return "";
  const size_t start = begin + begin_line.size() + 2;
  const size_t end = text.find(absl::StrCat("\n", end_line, "\n"), start - 1);
  if (end == absl::string_view::npos) return "";
  return std::string(text.substr(start, end + 1 - start));
}

}  // namespace

std::string ReadmeSection(absl::string_view heading) {
  const std::string readme = ReadRunfile("README.md");
  const size_t begin = readme.find(absl::StrCat("\n", heading, "\n"));
  EXPECT_NE(begin, std::string::npos) << "README.md has no " << heading;
  if (begin == std::string::npos) return "";
  const size_t end = readme.find("\n## ", begin + 1);
  return readme.substr(begin, end == std::string::npos ? end : end - begin + 1);
}

std::string FirstCppBlock(absl::string_view text) {
  return Between(text, "```c++", "```");
}

std::string MarkedCode(const std::string& path, absl::string_view marker) {
  return Between(ReadRunfile(path), absl::StrCat("// [START ", marker, "]"),
                 absl::StrCat("// [END ", marker, "]"));
}

}  // namespace test
}  // namespace sstfilter
