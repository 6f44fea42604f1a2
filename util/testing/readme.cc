#include "util/testing/readme.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
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

// The number of '#' that open a markdown heading line ("## Title": 2), or 0.
int HeadingLevel(absl::string_view line) {
  const size_t hashes = line.find_first_not_of('#');
  if (hashes == 0 || hashes == absl::string_view::npos || line[hashes] != ' ') {
    return 0;
  }
  return static_cast<int>(hashes);
}

// The lines of text from the line equal to heading up to the next heading of
// the same or a higher level (fewer '#'), skipping fenced code blocks, whose
// lines may start with '#'. Empty if there is no such heading line.
std::string Section(absl::string_view text, absl::string_view heading) {
  const int level = HeadingLevel(heading);
  std::string section;
  bool inside = false;
  bool in_code = false;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (!inside) {
      inside = line == heading;
    } else if (absl::StartsWith(line, "```")) {
      in_code = !in_code;
    } else if (!in_code && HeadingLevel(line) > 0 &&
               HeadingLevel(line) <= level) {
      break;
    }
    if (inside) absl::StrAppend(&section, "\n", line);
  }
  return section.empty() ? "" : absl::StrCat(section, "\n");
}

}  // namespace

void ExpectReadmeShows(const std::string& markdown_path,
                       absl::string_view heading,
                       const std::string& source_path, absl::string_view marker,
                       absl::string_view mention) {
  const std::string code =
      Between(ReadRunfile(source_path), absl::StrCat("// [START ", marker, "]"),
              absl::StrCat("// [END ", marker, "]"), 0);
  ASSERT_NE(code, "") << source_path << " has no code marked " << marker;

  const std::string section = Section(ReadRunfile(markdown_path), heading);
  ASSERT_NE(section, "") << markdown_path << " lost its " << heading;
  EXPECT_EQ(Between(section, "```c++", "```", 0), code)
      << markdown_path << "'s example under " << heading << " differs from "
      << source_path << "; copy the code between the markers into "
      << markdown_path;
  EXPECT_THAT(section, testing::HasSubstr(std::string(mention)))
      << markdown_path << ", " << heading;
}

void ExpectReadmeShows(absl::string_view heading,
                       const std::string& source_path, absl::string_view marker,
                       absl::string_view mention) {
  ExpectReadmeShows("README.md", heading, source_path, marker, mention);
}

}  // namespace test
}  // namespace sstfilter
