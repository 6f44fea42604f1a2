// The tree's pages (docs/, the READMEs, the tools' guides) say what was
// measured, never when a run was made or at which commit (the JSON of a run
// may carry its date; a page reads the same whenever it is read).

#include <regex>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tests/layout/source_tree.h"

namespace sstfilter::layout {
namespace {

bool IsMarkdown(const std::string& name) { return absl::EndsWith(name, ".md"); }

// A date (2026-11-25, 2026-11) or a commit id named as one (commit 3bbb719,
// `3bbb719`, at 3bbb719; an id with a letter, so that numbers are not ids).
const std::regex& DateOrCommit() {
  static const std::regex kDated(
      R"((\b20[0-9][0-9]-[01][0-9]\b)|(\bcommit `?[0-9a-f]{7,40}\b)|(`(?=[0-9]*[a-f])[0-9a-f]{7,40}`)|(\bat (?=[0-9]*[a-f])[0-9a-f]{7,40}\b))");
  return kDated;
}

TEST(DocsDatesTest, NoPageSaysWhenOrAtWhichCommit) {
  const std::filesystem::path root = SourceRoot("docs/development.md");
  ASSERT_FALSE(root.empty());
  int pages = 0;
  for (const std::string& path : SourceFiles(root, IsMarkdown)) {
    ++pages;
    int number = 0;
    for (absl::string_view line : absl::StrSplit(ReadFile(root / path), '\n')) {
      ++number;
      std::smatch match;
      const std::string text(line);
      if (std::regex_search(text, match, DateOrCommit())) {
        ADD_FAILURE() << path << ":" << number << ": \"" << match.str()
                      << "\" dates the page; say what was measured, not when";
      }
    }
  }
  // The tree has dozens of pages; none means the scan broke.
  EXPECT_GT(pages, 20);
}

TEST(DocsDatesScannerTest, CatchesDatesAndCommitsOnly) {
  for (const char* dated :
       {"## Zen 4, 2026-11-25", "runs of 2026-11", "at commit 3bbb719",
        "binaries of `df3b129`", "(2026-11-25 at 743da19)"}) {
    EXPECT_TRUE(std::regex_search(std::string(dated), DateOrCommit())) << dated;
  }
  for (const char* plain : {"10000000 keys", "RocksDB 9.7.4", "0x1234abcd",
                            "at 1000000 keys", "a table at 2 × 10^6"}) {
    EXPECT_FALSE(std::regex_search(std::string(plain), DateOrCommit()))
        << plain;
  }
}

}  // namespace
}  // namespace sstfilter::layout
