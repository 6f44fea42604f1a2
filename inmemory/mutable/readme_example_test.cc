// inmemory/mutable/README.md's examples, compiled and run. The code between
// each pair of START and END markers must equal the first code block of its
// section of that document (ReadmeShowsThisCode checks), so the document
// cannot drift from code that builds and works.

// [START mutable_bloom_example]
#include <iostream>
#include <memory>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "filter/bloom/bloom.h"
#include "inmemory/mutable/mutable_bloom.h"

// A memtable's filter at false-positive rate fpp: two threads add keys at
// once, without a lock; then the flush turns it into the table's filter,
// which the native policy reads, without hashing a key again.
absl::Status MutableBloomExample(double fpp, std::ostream& out) {
  absl::StatusOr<sstfilter::MutableBloomFilter> filter =
      sstfilter::MutableBloomFilter::Create(sstfilter::FilterOptions::Fpp(fpp),
                                            /*expected_keys=*/1000);
  if (!filter.ok()) return filter.status();  // InvalidArgumentError naming fpp
  std::thread writer([&] { filter->Add("apple"); });
  filter->Add("banana");
  writer.join();
  out << "cherry new: " << filter->Add("cherry") << "\n";    // 1: bits changed
  out << "cherry again: " << filter->Add("cherry") << "\n";  // 0
  out << "apple: " << filter->MayContain("apple") << "\n";   // 1

  const std::string table_filter = filter->Freeze();  // the native format
  absl::StatusOr<std::unique_ptr<const sstfilter::FilterPolicy>> policy =
      sstfilter::NewBloomFilterPolicy(sstfilter::FilterOptions::Fpp(fpp));
  if (!policy.ok()) return policy.status();
  std::unique_ptr<sstfilter::FilterReader> reader =
      (*policy)->NewReader(table_filter);  // table_filter must outlive reader
  // Added keys match; others do not, except with probability fpp.
  out << "table, banana: " << reader->MayMatch("banana") << "\n";  // 1
  out << "table, durian: " << reader->MayMatch("durian") << "\n";  // 0
  return absl::OkStatus();
}
// [END mutable_bloom_example]

// [START scalable_bloom_example]
#include <iostream>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "inmemory/mutable/scalable_bloom.h"

// A set of unknown size: 100 times more keys than the first layer was made
// for, and the false-positive rate over all of them stays below fpp.
absl::Status ScalableBloomExample(double fpp, std::ostream& out) {
  sstfilter::ScalableBloomOptions options;
  options.fpp = fpp;            // the bound over all keys, however many
  options.initial_keys = 1000;  // the first layer's; each next one holds 2x
  absl::StatusOr<std::unique_ptr<sstfilter::ScalableBloomFilter>> filter =
      sstfilter::ScalableBloomFilter::Create(options);
  if (!filter.ok()) return filter.status();  // InvalidArgumentError naming fpp
  for (int i = 0; i < 100000; ++i) {
    absl::StatusOr<bool> added = (*filter)->Add("key" + std::to_string(i));
    if (!added.ok()) return added.status();  // only if no layer can be made
  }
  out << "layers: " << (*filter)->NumLayers() << "\n";                    // 7
  out << "key42: " << (*filter)->MayContain("key42") << "\n";             // 1
  out << "rate below fpp: " << ((*filter)->ExpectedFpp() < fpp) << "\n";  // 1
  return absl::OkStatus();
}
// [END scalable_bloom_example]

// [START save_restore_example]
#include <iostream>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "inmemory/mutable/mutable_bloom.h"

// A filter kept across restarts: saved (other threads may go on adding
// meanwhile), then made again from the bytes, with the same answers, and
// taking more keys. Damaged bytes are an error, never a wrong filter.
absl::Status SaveRestoreExample(std::ostream& out) {
  absl::StatusOr<sstfilter::MutableBloomFilter> filter =
      sstfilter::MutableBloomFilter::Create(sstfilter::FilterOptions::Fpp(0.01),
                                            /*expected_keys=*/1000);
  if (!filter.ok()) return filter.status();
  filter->Add("apple");
  const std::string bytes = filter->Save();  // Guava's writeTo

  absl::StatusOr<sstfilter::MutableBloomFilter> restored =
      sstfilter::MutableBloomFilter::Restore(bytes);  // Guava's readFrom
  if (!restored.ok()) return restored.status();  // DataLossError saying why
  out << "apple: " << restored->MayContain("apple") << "\n";  // 1
  restored->Add("banana");
  out << "banana: " << restored->MayContain("banana") << "\n";  // 1

  std::string damaged = bytes;
  damaged[100] ^= 1;  // one bit of the body
  out << sstfilter::MutableBloomFilter::Restore(damaged).status().message()
      << "\n";  // saved MutableBloomFilter: CRC32C mismatch
  return absl::OkStatus();
}
// [END save_restore_example]

#include <sstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "util/testing/readme.h"

namespace sstfilter {
namespace {

TEST(ReadmeExampleTest, MutableBloomRuns) {
  std::ostringstream out;
  const absl::Status status = MutableBloomExample(0.01, out);
  ASSERT_TRUE(status.ok()) << status;
  // "durian" happens not to be a false positive of this particular filter.
  EXPECT_EQ(out.str(),
            "cherry new: 1\ncherry again: 0\napple: 1\ntable, banana: 1\n"
            "table, durian: 0\n");
}

TEST(ReadmeExampleTest, ScalableBloomRuns) {
  std::ostringstream out;
  const absl::Status status = ScalableBloomExample(0.01, out);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(out.str(), "layers: 7\nkey42: 1\nrate below fpp: 1\n");
}

TEST(ReadmeExampleTest, SaveRestoreRuns) {
  std::ostringstream out;
  const absl::Status status = SaveRestoreExample(out);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(out.str(),
            "apple: 1\nbanana: 1\nsaved MutableBloomFilter: CRC32C mismatch\n");
}

TEST(ReadmeExampleTest, ExamplesReportBadOptions) {
  for (auto* example : {&MutableBloomExample, &ScalableBloomExample}) {
    std::ostringstream out;
    const absl::Status status = (*example)(1.5, out);
    EXPECT_TRUE(absl::IsInvalidArgument(status)) << status;
    EXPECT_THAT(std::string(status.message()), testing::HasSubstr("1.5"));
    EXPECT_EQ(out.str(), "");
  }
}

// Each subsection shows its code and names the target it needs.
TEST(ReadmeExampleTest, ReadmeShowsThisCode) {
  test::ExpectReadmeShows(
      "inmemory/mutable/README.md", "### A memtable's filter",
      "inmemory/mutable/readme_example_test.cc", "mutable_bloom_example",
      "//inmemory/mutable:mutable_bloom");
  test::ExpectReadmeShows(
      "inmemory/mutable/README.md", "### A set of unknown size",
      "inmemory/mutable/readme_example_test.cc", "scalable_bloom_example",
      "//inmemory/mutable:scalable_bloom");
  test::ExpectReadmeShows(
      "inmemory/mutable/README.md", "## Saving and restoring",
      "inmemory/mutable/readme_example_test.cc", "save_restore_example",
      "//inmemory/mutable:mutable_bloom");
}

}  // namespace
}  // namespace sstfilter
