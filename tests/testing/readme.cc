#include "tests/testing/readme.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace test {

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

std::string Between(absl::string_view text, absl::string_view begin_line,
                    absl::string_view end_line, size_t from) {
  const size_t begin = text.find(absl::StrCat("\n", begin_line, "\n"), from);
  if (begin == absl::string_view::npos) return "";
  const size_t start = begin + begin_line.size() + 2;
  const size_t end = text.find(absl::StrCat("\n", end_line, "\n"), start - 1);
  if (end == absl::string_view::npos) return "";
  return std::string(text.substr(start, end + 1 - start));
}

}  // namespace test
}  // namespace sstfilter
