#include "tests/testing/readme.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace test {
namespace {

// A file of this workspace from the test's runfiles; empty, with a test
// failure, if it cannot be read.
std::string ReadRunfile(const std::string& path) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  EXPECT_NE(srcdir, nullptr) << "run me with bazel test";
  if (srcdir == nullptr) return "";
  const std::string full = absl::StrCat(
      srcdir, "/", workspace != nullptr ? workspace : "sstfilter", "/", path);
  std::ifstream in(full, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << full;
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

// The text strictly between the first line equal to begin_line after position
// from, and the next line equal to end_line; empty if either is missing.
std::string Between(absl::string_view text, absl::string_view begin_line,
                    absl::string_view end_line, size_t from) {
  const size_t begin = text.find(absl::StrCat("\n", begin_line, "\n"), from);
  if (begin == absl::string_view::npos) return "";
  const size_t start = begin + begin_line.size() + 2;
  const size_t end = text.find(absl::StrCat("\n", end_line, "\n"), start - 1);
  if (end == absl::string_view::npos) return "";
  return std::string(text.substr(start, end + 1 - start));
}

}  // namespace

void ExpectReadmeShows(absl::string_view heading,
                       const std::string& source_path, absl::string_view marker,
                       absl::string_view mention) {
  const std::string code =
      Between(ReadRunfile(source_path), absl::StrCat("// [START ", marker, "]"),
              absl::StrCat("// [END ", marker, "]"), 0);
  ASSERT_NE(code, "") << source_path << " has no code marked " << marker;

  const std::string readme = ReadRunfile("README.md");
  const size_t begin = readme.find(absl::StrCat("\n", heading, "\n"));
  ASSERT_NE(begin, std::string::npos) << "README.md lost its " << heading;
  const std::string section =
      readme.substr(begin, readme.find("\n## ", begin + 1) - begin);
  EXPECT_EQ(Between(section, "```c++", "```", 0), code)
      << "README.md's example under " << heading << " differs from "
      << source_path << "; copy the code between the markers into README.md";
  EXPECT_THAT(section, testing::HasSubstr(std::string(mention)));
}

}  // namespace test
}  // namespace sstfilter
