#include "util/version.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

// The string and the macros say the same version: a release that bumps one
// and forgets the other fails here. A pre-release adds "-" and its name.
TEST(VersionTest, StringMatchesTheMacros) {
  const std::string release =
      absl::StrCat(SSTFILTER_VERSION_MAJOR, ".", SSTFILTER_VERSION_MINOR, ".",
                   SSTFILTER_VERSION_PATCH);
  const std::string version = kVersionString;
  EXPECT_TRUE(version == release || (absl::StartsWith(version, release + "-") &&
                                     version.size() > release.size() + 1))
      << version << " is not release " << release << " or a pre-release of it";
}

// CHANGELOG.md's newest release (its first "## " heading) is this version, so
// a release never ships without its entry.
TEST(VersionTest, ChangelogStartsWithThisVersion) {
  const std::string path =
      absl::StrCat(std::getenv("TEST_SRCDIR"), "/",
                   std::getenv("TEST_WORKSPACE"), "/CHANGELOG.md");
  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << path;
  std::stringstream text;
  text << in.rdbuf();
  for (absl::string_view line : absl::StrSplit(text.str(), '\n')) {
    if (absl::StartsWith(line, "## ")) {
      EXPECT_TRUE(absl::StartsWith(line, absl::StrCat("## ", kVersionString)))
          << "CHANGELOG.md's newest entry is \"" << line << "\", not "
          << kVersionString;
      return;
    }
  }
  ADD_FAILURE() << "CHANGELOG.md has no release heading";
}

}  // namespace
}  // namespace sstfilter
