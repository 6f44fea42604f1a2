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

#include <sstream>

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
  test::ExpectReadmeShows("## API example", "tests/readme_example_test.cc",
                          "readme_example", "//filter:bloom");
}

}  // namespace
}  // namespace sstfilter
