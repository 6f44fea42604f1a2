// README.md's API example, compiled and run. The code between the START and END
// markers must equal the example block in README.md (ReadmeShowsThisCode
// checks), so the README cannot drift from code that builds and works.

// [START readme_example]
#include <iostream>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "filter/bloom/bloom.h"

// Builds a filter for three keys at false-positive rate fpp, then asks it about
// two keys. Invalid options come back as an error status, never a crash.
absl::Status FilterExample(double fpp, std::ostream& out) {
  absl::StatusOr<std::unique_ptr<const sstfilter::FilterPolicy>> policy =
      sstfilter::NewBloomFilterPolicy(sstfilter::FilterOptions::Fpp(fpp));
  if (!policy.ok()) return policy.status();  // InvalidArgumentError naming fpp

  std::unique_ptr<sstfilter::FilterBuilder> builder = (*policy)->NewBuilder();
  for (const char* key : {"apple", "banana", "cherry"}) builder->AddKey(key);
  std::string filter;  // store these bytes, and (*policy)->Name(), in the table
  builder->Finish(&filter);

  std::unique_ptr<sstfilter::FilterReader> reader =
      (*policy)->NewReader(filter);  // filter must outlive reader
  out << "apple: " << reader->MayMatch("apple") << "\n";  // 1: added keys match
  out << "durian: " << reader->MayMatch("durian") << "\n";  // 0, or 1 w.p. fpp
  return absl::OkStatus();
}
// [END readme_example]

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

TEST(ReadmeExampleTest, Runs) {
  std::ostringstream out;
  const absl::Status status = FilterExample(0.01, out);
  ASSERT_TRUE(status.ok()) << status;
  // "durian" happens not to be a false positive of this particular filter.
  EXPECT_EQ(out.str(), "apple: 1\ndurian: 0\n");
}

TEST(ReadmeExampleTest, ReportsBadOptions) {
  std::ostringstream out;
  const absl::Status status = FilterExample(1.5, out);
  EXPECT_TRUE(absl::IsInvalidArgument(status)) << status;
  EXPECT_THAT(std::string(status.message()), testing::HasSubstr("1.5"));
  EXPECT_EQ(out.str(), "");
}

// Reads a file of this workspace from the test's runfiles.
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

// The text strictly between the first line equal to begin_line after position
// from, and the next line equal to end_line; empty if either is missing.
std::string Between(absl::string_view text, absl::string_view begin_line,
                    absl::string_view end_line, size_t from = 0) {
  const size_t begin = text.find(absl::StrCat("\n", begin_line, "\n"), from);
  if (begin == absl::string_view::npos) return "";
  const size_t start = begin + begin_line.size() + 2;
  const size_t end = text.find(absl::StrCat("\n", end_line, "\n"), start - 1);
  if (end == absl::string_view::npos) return "";
  return std::string(text.substr(start, end + 1 - start));
}

TEST(ReadmeExampleTest, ReadmeShowsThisCode) {
  const std::string readme = ReadRunfile("README.md");
  const std::string source = ReadRunfile("tests/readme_example_test.cc");
  const std::string code =
      Between(source, "// [START readme_example]", "// [END readme_example]");
  ASSERT_THAT(code, testing::HasSubstr("NewBloomFilterPolicy"));

  const size_t section = readme.find("\n## API example\n");
  ASSERT_NE(section, std::string::npos) << "README.md lost its API example";
  EXPECT_EQ(Between(readme, "```c++", "```", section), code)
      << "README.md's API example differs from tests/readme_example_test.cc; "
         "copy the code between the markers into README.md";
  // The BUILD snippet names the target the example needs.
  EXPECT_THAT(readme.substr(section), testing::HasSubstr("//filter:bloom"));
}

}  // namespace
}  // namespace sstfilter
