// Public headers state rules, not runs. A header comment that names a format
// literally goes stale the day the default format changes (refer to the
// constant, e.g. kLocalBloomName, instead); a timing or a date in a header is
// a measurement of one machine on one day, which belongs under docs/ where
// the benchmark that produced it regenerates it. This test scans the comments
// of every public header of the library's layers and fails on either, and
// holds every header's opening comment short.

#include <cctype>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "tests/layout/source_tree.h"

namespace sstfilter::layout {
namespace {

// The library's layers: what users include. Tools, benchmarks and tests are
// not included by anyone and may quote what they measure.
constexpr const char* kLibraryFolders[] = {"util/", "filter/", "inmemory/",
                                           "table/", "engines/"};

bool IsHeader(const std::string& name) { return absl::EndsWith(name, ".h"); }

// Headers users include: in a library folder, not internal, not test helpers.
bool IsPublicHeader(const std::string& path) {
  bool in_library = false;
  for (const char* folder : kLibraryFolders) {
    in_library = in_library || absl::StartsWith(path, folder);
  }
  return in_library && !absl::StrContains(path, "/internal/") &&
         !absl::StrContains(path, "/testing/") &&
         !absl::EndsWith(path, "_test_util.h");
}

// The comment text of each line: what follows "//", and what lies between
// "/*" and "*/" (a block may span lines), outside string and character
// literals. A quote after a letter or digit is a digit separator (1'000).
std::vector<std::pair<int, std::string>> Comments(const std::string& text) {
  std::vector<std::pair<int, std::string>> comments;
  int number = 1;
  bool in_block = false;
  char quote = 0;       // the quote of the literal open, if any
  std::string on_line;  // this line's comment text so far
  bool commented = false;
  const auto end_line = [&] {
    if (commented) comments.emplace_back(number, on_line);
    on_line.clear();
    commented = in_block;
    ++number;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (c == '\n') {
      quote = 0;
      end_line();
    } else if (in_block) {
      if (c == '*' && next == '/') {
        in_block = false;
        ++i;
      } else {
        on_line += c;
      }
    } else if (quote != 0) {
      if (c == '\\') {
        ++i;
      } else if (c == quote) {
        quote = 0;
      }
    } else if (c == '"' ||
               (c == '\'' && !(i > 0 && std::isalnum(static_cast<unsigned char>(
                                            text[i - 1]))))) {
      quote = c;
    } else if (c == '/' && next == '/') {
      const size_t end = text.find('\n', i);
      const size_t stop = end == std::string::npos ? text.size() : end;
      on_line += text.substr(i + 2, stop - i - 2);
      commented = true;
      i = stop - 1;
    } else if (c == '/' && next == '*') {
      in_block = true;
      commented = true;
      ++i;
    }
  }
  if (commented) comments.emplace_back(number, on_line);
  return comments;
}

// A persisted format name: sstfilter's own (a family and its version) and the
// engines' ("leveldb.BuiltinBloomFilter2", "rocksdb.BuiltinBloomFilter").
const std::regex& FormatName() {
  static const std::regex kName(
      R"((sstfilter\.[A-Z][A-Za-z]*[0-9]+|leveldb\.BuiltinBloomFilter|rocksdb\.BuiltinBloomFilter))");
  return kName;
}

// A duration with its unit ("200 ns", "0.3 s", "about 2 seconds") or a date.
const std::regex& TimingOrDate() {
  static const std::regex kTiming(
      R"((\b[0-9]+(\.[0-9]+)?\s*(ns|us|µs|ms|s|sec|secs|seconds?|minutes?|hours?)\b)|(\b20[0-9][0-9]-[01][0-9]\b)|(\b(January|February|March|April|May|June|July|August|September|October|November|December) 20[0-9][0-9]\b))");
  return kTiming;
}

TEST(HeadersTest, CommentsNameNoFormatAndQuoteNoTiming) {
  const std::filesystem::path root = SourceRoot("README.md");
  ASSERT_FALSE(root.empty());
  int headers = 0;
  for (const std::string& path : SourceFiles(root, IsHeader)) {
    if (!IsPublicHeader(path)) continue;
    ++headers;
    for (const auto& [line, comment] : Comments(ReadFile(root / path))) {
      std::smatch match;
      if (std::regex_search(comment, match, FormatName())) {
        ADD_FAILURE() << path << ":" << line << ": names the format \""
                      << match.str() << "\" literally; refer to its constant";
      }
      if (std::regex_search(comment, match, TimingOrDate())) {
        ADD_FAILURE() << path << ":" << line << ": quotes \"" << match.str()
                      << "\"; a measurement belongs under docs/";
      }
    }
  }
  // The library has dozens of public headers; none means the scan broke.
  EXPECT_GT(headers, 30);
}

// A header opens with what it is for and at most one short example, in ten
// lines (STYLE.md, after Abseil); the why, the internals and the figures go to
// its package README, and each symbol's contract to the symbol.
constexpr int kMostOpeningLines = 10;

// The lines of the comment a file opens with: the run of "//" lines before
// its first line that is not one (blank lines before the comment aside).
int OpeningLines(const std::string& text) {
  int lines = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (absl::StartsWith(line, "//")) {
      ++lines;
    } else if (lines > 0 || !absl::StripAsciiWhitespace(line).empty()) {
      break;
    }
  }
  return lines;
}

TEST(HeadersTest, EveryHeaderOpensWithAShortComment) {
  const std::filesystem::path root = SourceRoot("README.md");
  ASSERT_FALSE(root.empty());
  int headers = 0;
  for (const std::string& path : SourceFiles(root, IsHeader)) {
    ++headers;
    const int lines = OpeningLines(ReadFile(root / path));
    EXPECT_LE(lines, kMostOpeningLines)
        << path << " opens with " << lines
        << " comment lines; move the why to its package README";
  }
  EXPECT_GT(headers, 100);
}

// The scanner itself: what it must catch and what it must let through.
TEST(HeadersScannerTest, CatchesNamesAndTimingsInCommentsOnly) {
  const auto comments = Comments(
      "constexpr char kName[] = \"sstfilter.LocalBloom2\";  // the name\n"
      "// Name(): \"sstfilter.LocalBloom1\".\n"
      "// a call costs about 200 ns; a build 0.3 s\n"
      "// k probes, 64 bytes, 2 seconds\n"
      "int x;  // run of 2026-11 on one machine\n");
  ASSERT_EQ(comments.size(), 5u);
  EXPECT_FALSE(std::regex_search(comments[0].second, FormatName()));
  EXPECT_TRUE(std::regex_search(comments[1].second, FormatName()));
  EXPECT_TRUE(std::regex_search(comments[2].second, TimingOrDate()));
  EXPECT_TRUE(std::regex_search(comments[3].second, TimingOrDate()));
  EXPECT_TRUE(std::regex_search(comments[4].second, TimingOrDate()));
  EXPECT_FALSE(std::regex_search(
      std::string(" 64 bytes, k = 6 probes, 32 keys"), TimingOrDate()));
}

TEST(HeadersScannerTest, CountsTheOpeningCommentOnly) {
  EXPECT_EQ(OpeningLines("\n// one\n//\n// three\n#ifndef X\n// later\n"), 3);
  EXPECT_EQ(OpeningLines("#ifndef X\n// later\n"), 0);
  EXPECT_EQ(OpeningLines("// one\n\n// after a blank line\n"), 1);
}

TEST(HeadersScannerTest, ReadsBlockCommentsAndSkipsLiterals) {
  const auto comments = Comments(
      "/* measured at 200 ns\n"
      "   on one machine */ int x;\n"
      "char c = '/'; const char* s = \"// 5 ms\"; int y = 1'000;  /* 3 s */\n"
      "int z;\n");
  ASSERT_EQ(comments.size(), 3u);
  EXPECT_EQ(comments[0], std::make_pair(1, std::string(" measured at 200 ns")));
  EXPECT_EQ(comments[1], std::make_pair(2, std::string("   on one machine ")));
  EXPECT_EQ(comments[2], std::make_pair(3, std::string(" 3 s ")));
}

}  // namespace
}  // namespace sstfilter::layout
