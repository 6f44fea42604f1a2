// The extractors against RocksDB 7.8.3's own slice transforms: the same names
// (as RocksDB records them in a table's properties), domains and prefixes.

#include "filter/prefix_extractor.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "rocksdb/slice_transform.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

constexpr size_t kMaxKeyBytes = 24;
constexpr int kKeysPerLength = 200;

void ExpectSameAsRocksDb(const PrefixExtractor& ours,
                         const rocksdb::SliceTransform& theirs) {
  EXPECT_EQ(ours.Name(), theirs.AsString());
  test::Random random(ours.Name().size());
  for (size_t n = 0; n <= kMaxKeyBytes; ++n) {
    for (int i = 0; i < kKeysPerLength; ++i) {
      const std::string key = random.Bytes(n);
      ASSERT_EQ(ours.InDomain(key), theirs.InDomain(key))
          << ours.Name() << ", key of " << n << " bytes";
      if (!ours.InDomain(key)) continue;
      const absl::string_view prefix = ours.Transform(key);
      EXPECT_EQ(prefix, theirs.Transform(key).ToString()) << ours.Name();
      EXPECT_EQ(prefix.data(), key.data()) << "a view of the key";
    }
  }
}

TEST(PrefixExtractorTest, FixedMatchesRocksDb) {
  for (size_t length : {0, 1, 3, 8, 16}) {
    std::unique_ptr<const rocksdb::SliceTransform> theirs(
        rocksdb::NewFixedPrefixTransform(length));
    ExpectSameAsRocksDb(*NewFixedPrefixExtractor(length), *theirs);
  }
}

TEST(PrefixExtractorTest, CappedMatchesRocksDb) {
  for (size_t cap : {0, 1, 3, 8, 16}) {
    std::unique_ptr<const rocksdb::SliceTransform> theirs(
        rocksdb::NewCappedPrefixTransform(cap));
    ExpectSameAsRocksDb(*NewCappedPrefixExtractor(cap), *theirs);
  }
}

TEST(PrefixExtractorTest, FromNameRebuildsEachExtractor) {
  for (const std::string& name : {std::string("rocksdb.FixedPrefix.8"),
                                  std::string("rocksdb.FixedPrefix.0"),
                                  std::string("rocksdb.CappedPrefix.12")}) {
    absl::StatusOr<std::unique_ptr<const PrefixExtractor>> extractor =
        PrefixExtractorFromName(name);
    ASSERT_TRUE(extractor.ok()) << extractor.status();
    EXPECT_EQ((*extractor)->Name(), name);
  }
  ASSERT_TRUE(PrefixExtractorFromName("rocksdb.CappedPrefix.3").ok());
  EXPECT_EQ(
      (*PrefixExtractorFromName("rocksdb.CappedPrefix.3"))->Transform("ab"),
      "ab");
}

TEST(PrefixExtractorTest, FromNameRefusesOtherNames) {
  for (const char* name : {"nullptr", "", "rocksdb.Noop", "rocksdb.FixedPrefix",
                           "rocksdb.FixedPrefix.", "rocksdb.FixedPrefix.08",
                           "rocksdb.FixedPrefix.-1", "rocksdb.FixedPrefix.8x",
                           "rocksdb.CappedPrefix. 3", "fixed:8",
                           "rocksdb.FixedPrefix.99999999999999999999999"}) {
    absl::StatusOr<std::unique_ptr<const PrefixExtractor>> extractor =
        PrefixExtractorFromName(name);
    EXPECT_TRUE(absl::IsNotFound(extractor.status())) << "'" << name << "'";
    if (!extractor.ok()) {
      EXPECT_NE(extractor.status().message().find(name), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace sstfilter
