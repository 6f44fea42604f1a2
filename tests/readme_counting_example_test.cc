// The examples of the counting filter (inmemory/counting/README.md) and of
// typed keys (docs/typed_keys.md), compiled and run. The code between each pair
// of START and END markers must equal the example block of its document's
// section (ReadmeShowsThisCode checks).

// [START readme_counting_example]
#include <iostream>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "inmemory/counting/counting_bloom.h"

// A set whose members come and go: sessions added at login, removed at
// logout. Invalid options come back as an error status, never a crash.
absl::Status CountingExample(double fpp, std::ostream& out) {
  absl::StatusOr<sstfilter::CountingBloomFilter> sessions =
      sstfilter::CountingBloomFilter::Create(sstfilter::FilterOptions::Fpp(fpp),
                                             /*expected_keys=*/100000);
  if (!sessions.ok()) return sessions.status();  // InvalidArgumentError

  sessions->Add("alice");
  sessions->Add("bob");
  out << "remove alice: " << sessions->Remove("alice") << "\n";  // 1
  out << "alice: " << sessions->MayContain("alice") << "\n";  // 0, 1 w.p. fpp
  out << "bob: " << sessions->MayContain("bob") << "\n";  // 1: still present
  // Never added, and its counters show it: refused, nothing changes.
  out << "remove carol: " << sessions->Remove("carol") << "\n";  // 0
  out << "bytes: " << sessions->MemoryBytes() << "\n";  // 5.4 bytes per key
  return absl::OkStatus();
}
// [END readme_counting_example]

// [START readme_typed_key_example]
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "filter/bloom/bloom.h"
#include "filter/typed_key.h"

// Keys of (user id, table, day offset) in a native filter: encode the fields
// instead of formatting them into a string by hand.
absl::Status TypedKeyExample(std::ostream& out) {
  absl::StatusOr<std::unique_ptr<const sstfilter::FilterPolicy>> policy =
      sstfilter::NewBloomFilterPolicy(sstfilter::FilterOptions::Fpp(0.01));
  if (!policy.ok()) return policy.status();
  std::unique_ptr<sstfilter::FilterBuilder> builder = (*policy)->NewBuilder();
  std::string key;  // one buffer for every key
  for (uint64_t user = 1; user <= 3; ++user) {
    key.clear();
    sstfilter::AppendKey(&key, user, "cart", int32_t{-1});
    builder->AddKey(key);
  }
  std::string filter;
  builder->Finish(&filter);
  std::unique_ptr<sstfilter::FilterReader> reader =
      (*policy)->NewReader(filter);

  // The same values held in other types give the same key.
  const std::string cart = "cart";
  out << "(2, cart, -1): "
      << reader->MayMatch(sstfilter::EncodeKey(uint64_t{2}, cart, -1))  // 1
      << "\n";
  // ("car", "t") is not ("cart"): fields never run into each other.
  out << "(2, car, t, -1): "
      << reader->MayMatch(sstfilter::EncodeKey(uint64_t{2}, "car", "t", -1))
      << "\n";  // 0, or 1 w.p. 1%
  out << absl::BytesToHexString(
             sstfilter::EncodeKey(uint64_t{42}, "user", int32_t{-1}))
      << "\n";  // 18000000000000002a 30757365720001 247fffffff
  return absl::OkStatus();
}
// [END readme_typed_key_example]

#include <sstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "util/testing/readme.h"

namespace sstfilter {
namespace {

TEST(ReadmeCountingExampleTest, Runs) {
  std::ostringstream out;
  const absl::Status status = CountingExample(0.01, out);
  ASSERT_TRUE(status.ok()) << status;
  // "alice" happens not to be a false positive of this filter once removed.
  EXPECT_EQ(out.str(),
            "remove alice: 1\nalice: 0\nbob: 1\nremove carol: 0\n"
            "bytes: 542400\n");
}

TEST(ReadmeCountingExampleTest, ReportsBadOptions) {
  std::ostringstream out;
  const absl::Status status = CountingExample(1.5, out);
  EXPECT_TRUE(absl::IsInvalidArgument(status)) << status;
  EXPECT_THAT(std::string(status.message()), testing::HasSubstr("1.5"));
  EXPECT_EQ(out.str(), "");
}

TEST(ReadmeTypedKeyExampleTest, Runs) {
  std::ostringstream out;
  const absl::Status status = TypedKeyExample(out);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(out.str(),
            "(2, cart, -1): 1\n(2, car, t, -1): 0\n"
            "18000000000000002a30757365720001247fffffff\n");
}

TEST(ReadmeCountingExampleTest, ReadmeShowsThisCode) {
  test::ExpectReadmeShows("inmemory/counting/README.md", "## Example",
                          "tests/readme_counting_example_test.cc",
                          "readme_counting_example", "//inmemory/counting");
  test::ExpectReadmeShows("docs/typed_keys.md", "## Example",
                          "tests/readme_counting_example_test.cc",
                          "readme_typed_key_example", "//filter:typed_key");
}

}  // namespace
}  // namespace sstfilter
