// When a seek is held to one prefix (SeekPrefix), case by case: the prefix
// seek, bounds at and past the prefix's end, extractors without a full
// length, short targets, other comparators, and prefixes of 0xff bytes.

#include "engines/rocksdb/presence/seek_prefix.h"

#include <memory>
#include <optional>
#include <string>

#include "gtest/gtest.h"
#include "rocksdb/comparator.h"
#include "rocksdb/options.h"
#include "rocksdb/slice_transform.h"

namespace sstfilter {
namespace presence_internal {
namespace {

using Prefix = std::optional<absl::string_view>;

class SeekPrefixTest : public ::testing::Test {
 protected:
  Prefix Forward(const std::string& target, const std::string& upper,
                 const rocksdb::SliceTransform& extractor) {
    rocksdb::Slice bound(upper);
    rocksdb::ReadOptions options;
    options.iterate_upper_bound = &bound;
    return SeekPrefix(options, extractor, rocksdb::BytewiseComparator(), target,
                      SeekDirection::kForward);
  }
  Prefix Backward(const std::string& target, const std::string& lower,
                  const rocksdb::SliceTransform& extractor) {
    rocksdb::Slice bound(lower);
    rocksdb::ReadOptions options;
    options.iterate_lower_bound = &bound;
    return SeekPrefix(options, extractor, rocksdb::BytewiseComparator(), target,
                      SeekDirection::kBackward);
  }

  std::unique_ptr<const rocksdb::SliceTransform> fixed3_{
      rocksdb::NewFixedPrefixTransform(3)};
  std::unique_ptr<const rocksdb::SliceTransform> capped3_{
      rocksdb::NewCappedPrefixTransform(3)};
  std::unique_ptr<const rocksdb::SliceTransform> noop_{
      rocksdb::NewNoopTransform()};
};

TEST_F(SeekPrefixTest, PrefixSameAsStartHoldsAnySeekToItsPrefix) {
  rocksdb::ReadOptions options;
  options.prefix_same_as_start = true;
  EXPECT_EQ(SeekPrefix(options, *fixed3_, rocksdb::BytewiseComparator(),
                       "abcdef", SeekDirection::kForward),
            Prefix("abc"));
  EXPECT_EQ(SeekPrefix(options, *fixed3_, rocksdb::BytewiseComparator(), "ab",
                       SeekDirection::kForward),
            std::nullopt);  // outside the extractor's domain
}

TEST_F(SeekPrefixTest, AnUpperBoundUpToThePrefixEndHoldsTheSeek) {
  EXPECT_EQ(Forward("abcdef", "abd", *fixed3_), Prefix("abc"));
  EXPECT_EQ(Forward("abcdef", "abcz", *fixed3_), Prefix("abc"));
  EXPECT_EQ(Forward("abcdef", "abd\x01", *fixed3_), std::nullopt);
  EXPECT_EQ(Forward("abcdef", "abe", *fixed3_), std::nullopt);
  EXPECT_EQ(Forward("abcdef", "abd", *capped3_), Prefix("abc"));
}

TEST_F(SeekPrefixTest, ALowerBoundFromThePrefixHoldsTheSeek) {
  EXPECT_EQ(Backward("abcdef", "abc", *fixed3_), Prefix("abc"));
  EXPECT_EQ(Backward("abcdef", "abcd", *fixed3_), Prefix("abc"));
  EXPECT_EQ(Backward("abcdef", "abb\xff", *fixed3_), std::nullopt);
}

TEST_F(SeekPrefixTest, ATargetShorterThanTheFullLengthIsNotHeld) {
  // A capped prefix of a short key is the key, but longer keys in the range
  // have longer prefixes.
  EXPECT_EQ(Forward("ab", "ab\xff", *capped3_), std::nullopt);
  EXPECT_EQ(Backward("ab", "ab", *capped3_), std::nullopt);
}

TEST_F(SeekPrefixTest, AnExtractorWithoutAFullLengthHoldsNoBoundedSeek) {
  EXPECT_EQ(Forward("abc", "abd", *noop_), std::nullopt);
}

TEST_F(SeekPrefixTest, OnlyTheBytewiseComparatorHoldsABoundedSeek) {
  rocksdb::Slice bound("abd");
  rocksdb::ReadOptions options;
  options.iterate_upper_bound = &bound;
  EXPECT_EQ(SeekPrefix(options, *fixed3_, rocksdb::ReverseBytewiseComparator(),
                       "abcdef", SeekDirection::kForward),
            std::nullopt);
}

TEST_F(SeekPrefixTest, APrefixOfOnlyFfBytesHoldsEveryUpperBound) {
  const std::string ff(3, '\xff');
  EXPECT_EQ(Forward(ff + "x", ff + "\xff\xff", *fixed3_), Prefix(ff));
  EXPECT_EQ(Forward("ab\xff"
                    "x",
                    "ac", *fixed3_),
            Prefix("ab\xff"));
  EXPECT_EQ(Forward("ab\xff"
                    "x",
                    "ac\x01", *fixed3_),
            std::nullopt);
}

TEST_F(SeekPrefixTest, ASeekWithoutABoundIsNotHeld) {
  EXPECT_EQ(SeekPrefix(rocksdb::ReadOptions(), *fixed3_,
                       rocksdb::BytewiseComparator(), "abcdef",
                       SeekDirection::kForward),
            std::nullopt);
}

}  // namespace
}  // namespace presence_internal
}  // namespace sstfilter
