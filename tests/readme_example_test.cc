// README.md's API example (examples/readme/filter_example.cc), run. That the
// README shows exactly that file's code between its markers is checked here
// too, so the README cannot drift from code that builds and works.

#include <sstream>

#include "examples/readme/filter_example.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "util/testing/readme.h"

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

// The BUILD snippet in that section names the target the example needs.
TEST(ReadmeExampleTest, ReadmeShowsThisCode) {
  test::ExpectReadmeShows("## API example", "examples/readme/filter_example.cc",
                          "readme_example", "//filter:bloom");
}

}  // namespace
}  // namespace sstfilter
