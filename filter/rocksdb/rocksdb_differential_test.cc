// RocksDB 7.8.3 in the same process as the oracle (rocksdb_oracle.h): for
// many key sets and bits/key, our FastLocalBloom and legacy Bloom bytes are
// RocksDB's bytes; RocksDB's reader finds every added key in our filters; and
// on 100,000 other keys our reader answers exactly as RocksDB's, single and
// batched, for RocksDB's Ribbon filters too. Also hand-made filters RocksDB
// never writes but reads: legacy filters with lines of other sizes, and bodies
// of random bytes.

#include <malloc.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "filter/filter_policy.h"
#include "filter/rocksdb/rocksdb_oracle.h"
#include "filter/rocksdb/rocksdb_reader.h"
#include "filter/rocksdb/rocksdb_test_util.h"
#include "gtest/gtest.h"
#include "util/coding.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace rocksdb_test {
namespace {

constexpr Format kFormats[] = {Format::kFastLocalBloom, Format::kLegacyBloom};
constexpr KeyShape kShapes[] = {KeyShape::kRandom, KeyShape::kSequentialText,
                                KeyShape::kSequentialBinary,
                                KeyShape::kRepeats};
constexpr size_t kQueries = 100000;

// The first byte where two filters differ, for the failure message.
size_t FirstDifference(const std::string& a, const std::string& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  return i;
}

// Integer and fractional settings, including RocksDB's rounding edges
// (25.502: k falls from 12 to 11; 99.999: the last millibit below the cap).
TEST(RocksDbDifferentialTest, BytesAreRocksDbs) {
  constexpr uint64_t kSeed = 0xb17e5;
  SCOPED_TRACE(testing::Message() << "random seed " << kSeed);
  test::Random rng(kSeed);
  for (Format format : kFormats) {
    for (double bits : {1.0, 1.5, 2.5, 5.0, 7.77, 9.9, 10.0, 16.0, 23.4, 25.502,
                        50.0, 99.999, 100.0}) {
      const std::unique_ptr<const FilterPolicy> policy =
          MakePolicy(format, FilterOptions::BitsPerKey(bits));
      for (KeyShape shape : kShapes) {
        for (size_t n : {0, 1, 2, 100, 1000, 100000}) {
          SCOPED_TRACE(testing::Message()
                       << FormatName(format) << ", " << bits << " bits/key, "
                       << n << " " << KeyShapeName(shape) << " keys");
          const std::vector<std::string> keys = MakeKeys(shape, n, &rng);
          const std::string ours = BuildFilter(*policy, keys);
          const std::string theirs =
              test::RocksDbBuildFilter(OracleKind(format), bits, keys);
          if (n == 0 && test::kRocksDbBuildsNothingForNoKeys) {
            // Both read as a filter that matches nothing.
            EXPECT_TRUE(theirs.empty());
            EXPECT_FALSE(policy->KeyMayMatch("any key", ours));
            continue;
          }
          ASSERT_EQ(ours.size(), theirs.size());
          ASSERT_TRUE(ours == theirs)
              << "first difference at byte " << FirstDifference(ours, theirs)
              << " of " << ours.size();
        }
      }
    }
  }
}

// Our answers and RocksDB's on the same bytes, for every query, single and
// batched on both sides. Returns the number of positive answers.
size_t ExpectSameAnswers(absl::string_view filter,
                         const std::vector<std::string>& queries) {
  const PrivateCopy bytes(filter);
  const std::unique_ptr<FilterReader> ours =
      NewRocksDbFilterReader(bytes.view());
  const test::RocksDbOracleReader theirs(bytes.view());
  const std::vector<absl::string_view> views(queries.begin(), queries.end());
  std::unique_ptr<bool[]> ours_batched(new bool[views.size()]);
  std::unique_ptr<bool[]> theirs_batched(new bool[views.size()]);
  ours->MayMatch(views, ours_batched.get());
  theirs.MayMatch(views, theirs_batched.get());
  size_t positives = 0;
  for (size_t i = 0; i < views.size(); ++i) {
    const bool answer = ours->MayMatch(views[i]);
    if (answer != theirs.MayMatch(views[i]) || answer != ours_batched[i] ||
        answer != theirs_batched[i]) {
      ADD_FAILURE() << "query " << i << " (" << absl::CEscape(views[i])
                    << "): ours " << answer << ", batched " << ours_batched[i]
                    << "; RocksDB " << theirs.MayMatch(views[i]) << ", batched "
                    << theirs_batched[i];
      return positives;
    }
    positives += answer;
  }
  return positives;
}

TEST(RocksDbDifferentialTest, RocksDbReadsOurFiltersAndAnswersAsWeDo) {
  constexpr uint64_t kSeed = 0x4ead5;
  SCOPED_TRACE(testing::Message() << "random seed " << kSeed);
  test::Random rng(kSeed);
  const std::vector<std::string> queries = QueryKeys(kQueries, &rng);
  size_t positives = 0;
  size_t answers = 0;
  for (Format format : kFormats) {
    for (double bits : {1.0, 5.0, 9.9, 10.0, 16.0, 23.4, 50.0}) {
      const std::unique_ptr<const FilterPolicy> policy =
          MakePolicy(format, FilterOptions::BitsPerKey(bits));
      for (KeyShape shape : {KeyShape::kRandom, KeyShape::kSequentialBinary}) {
        for (size_t n : {1, 2, 100, 1000, 100000}) {
          SCOPED_TRACE(testing::Message()
                       << FormatName(format) << ", " << bits << " bits/key, "
                       << n << " " << KeyShapeName(shape) << " keys");
          const std::vector<std::string> keys = MakeKeys(shape, n, &rng);
          const std::string filter = BuildFilter(*policy, keys);
          const PrivateCopy bytes(filter);
          const test::RocksDbOracleReader rocksdb(bytes.view());
          const std::unique_ptr<FilterReader> ours =
              NewRocksDbFilterReader(bytes.view());
          for (const std::string& key : keys) {
            ASSERT_TRUE(rocksdb.MayMatch(key)) << absl::CEscape(key);
            ASSERT_TRUE(ours->MayMatch(key)) << absl::CEscape(key);
          }
          positives += ExpectSameAnswers(filter, queries);
          answers += queries.size();
          if (HasFailure()) return;
        }
      }
    }
  }
  // Both answers were compared many times.
  EXPECT_GT(positives, answers / 100);
  EXPECT_LT(positives, answers / 2);
}

// Ribbon filters are RocksDB's to write: read them exactly as RocksDB does.
// RocksDB writes a FastLocalBloom instead for very small key sets (fewer than
// 1,024 slots, when that is smaller), so some of these filters are Blooms.
TEST(RocksDbDifferentialTest, RibbonAnswersAsRocksDb) {
  constexpr uint64_t kSeed = 0x41bb0;
  SCOPED_TRACE(testing::Message() << "random seed " << kSeed);
  test::Random rng(kSeed);
  const std::vector<std::string> queries = QueryKeys(kQueries, &rng);
  int ribbons = 0;
  for (double bits : {1.0, 5.0, 7.0, 10.0, 16.0, 23.4, 50.0}) {
    for (KeyShape shape : {KeyShape::kRandom, KeyShape::kSequentialText}) {
      for (size_t n : {1, 2, 100, 1000, 100000}) {
        SCOPED_TRACE(testing::Message()
                     << "Ribbon, " << bits << " bits/key, " << n << " "
                     << KeyShapeName(shape) << " keys");
        const std::vector<std::string> keys = MakeKeys(shape, n, &rng);
        const std::string filter = test::RocksDbBuildFilter(
            test::RocksDbBuilderKind::kRibbon, bits, keys);
        const PrivateCopy bytes(filter);
        ribbons += DescribeRocksDbFilter(bytes.view()).format ==
                   RocksDbFilterFormat::kRibbon;
        const std::unique_ptr<FilterReader> ours =
            NewRocksDbFilterReader(bytes.view());
        for (const std::string& key : keys) {
          ASSERT_TRUE(ours->MayMatch(key)) << absl::CEscape(key);
        }
        ExpectSameAnswers(filter, queries);
        if (HasFailure()) return;
      }
    }
  }
  EXPECT_GE(ribbons, 28);
}

// With optimize_filters_for_memory (RocksDB 9's default) RocksDB rounds each
// filter's size to what the allocator gives it, and evens out the rates of a
// policy's filters (a filter rounded up lets a later one be smaller): other
// sizes than bits/key gives, so other bytes, which its reader and ours read
// alike. With glibc's allocator the sizes move once a filter comes from mmap,
// in whole pages: at its default threshold, which glibc raises to the largest
// block a process has freed (here, the earlier tests' key sets), so the test
// fixes it.
TEST(RocksDbDifferentialTest, FiltersSizedForMemoryAnswerAsRocksDb) {
  constexpr int kGlibcDefaultMmapThreshold = 128 * 1024;  // bytes
  // A sanitizer's allocator ignores mallopt (it returns 0) and sizes need not
  // move under it; the answers are compared all the same.
  const bool glibc_allocator =
      mallopt(M_MMAP_THRESHOLD, kGlibcDefaultMmapThreshold) == 1;
  constexpr uint64_t kSeed = 0x0f3e;
  SCOPED_TRACE(testing::Message() << "random seed " << kSeed);
  test::Random rng(kSeed);
  const std::vector<std::string> queries = QueryKeys(kQueries, &rng);
  size_t resized = 0;
  for (test::RocksDbBuilderKind kind :
       {test::RocksDbBuilderKind::kFastLocalBloom,
        test::RocksDbBuilderKind::kLegacyBloom,
        test::RocksDbBuilderKind::kRibbon}) {
    for (double bits : {5.0, 10.0, 16.0}) {
      test::RocksDbFilterSeries series(
          kind, bits, test::RocksDbFilterSizing::kOptimizeForMemory);
      for (size_t n : {1, 100, 3000, 200000, 1000, 100, 3000, 50000, 1000}) {
        SCOPED_TRACE(testing::Message()
                     << "builder " << static_cast<int>(kind) << ", " << bits
                     << " bits/key, " << n << " keys");
        const std::vector<std::string> keys =
            MakeKeys(KeyShape::kRandom, n, &rng);
        const std::string filter = series.Build(keys);
        resized +=
            filter.size() != test::RocksDbBuildFilter(kind, bits, keys).size();
        const PrivateCopy bytes(filter);
        const std::unique_ptr<FilterReader> ours =
            NewRocksDbFilterReader(bytes.view());
        for (const std::string& key : keys) {
          ASSERT_TRUE(ours->MayMatch(key)) << absl::CEscape(key);
        }
        ExpectSameAnswers(filter, queries);
        if (HasFailure()) return;
      }
    }
  }
  // The option took effect: some filters have sizes bits/key alone does not
  // give.
  if (glibc_allocator) {
    EXPECT_GT(resized, 0u);
  }
}

// RocksDB's estimate for Ribbon (each solution column halves the rate) against
// the rate measured on 10^6 absent keys: within 10% (sampling error 1% at 10
// bits/key, 3% at 16).
TEST(RocksDbDifferentialTest, RibbonExpectedFppTracksTheMeasuredRate) {
  test::Random rng(0xe4f1);
  const std::vector<std::string> keys =
      MakeKeys(KeyShape::kRandom, 100000, &rng);
  // Absent keys: 16 random bytes (short random keys repeat, and the added
  // set holds every 1-byte key).
  std::vector<std::string> queries;
  for (int i = 0; i < 1000000; ++i) queries.push_back(rng.Bytes(16));
  for (double bits : {5.0, 10.0, 16.0}) {
    SCOPED_TRACE(testing::Message() << bits << " bits/key");
    const std::string filter =
        test::RocksDbBuildFilter(test::RocksDbBuilderKind::kRibbon, bits, keys);
    const std::unique_ptr<FilterReader> reader = NewRocksDbFilterReader(filter);
    ASSERT_EQ(DescribeRocksDbFilter(filter).format,
              RocksDbFilterFormat::kRibbon);
    size_t positives = 0;
    for (const std::string& key : queries) positives += reader->MayMatch(key);
    const double measured =
        static_cast<double>(positives) / static_cast<double>(queries.size());
    EXPECT_NEAR(reader->ExpectedFpp(), measured, 0.1 * measured);
  }
}

// RocksDB on other machines (CACHE_LINE_SIZE 128 or 256) writes legacy lines
// of that size, and every RocksDB reads them by dividing the body by the line
// count. Random bodies, half the bits set, every power-of-two line size from 1
// to 1,024 bytes, several line counts and k.
TEST(RocksDbDifferentialTest, LegacyLinesOfEverySizeAnswerAsRocksDb) {
  constexpr uint64_t kSeed = 0x11e5;
  SCOPED_TRACE(testing::Message() << "random seed " << kSeed);
  test::Random rng(kSeed);
  const std::vector<std::string> queries = QueryKeys(20000, &rng);
  for (uint32_t line_bytes = 1; line_bytes <= 1024; line_bytes *= 2) {
    for (uint32_t lines : {1u, 2u, 3u, 65u}) {
      for (int k : {1, 2, 6, 30, 127}) {
        SCOPED_TRACE(testing::Message() << lines << " lines of " << line_bytes
                                        << " bytes, k = " << k);
        const std::string filter =
            rng.Bytes(size_t{lines} * line_bytes) + LegacyTrailer(k, lines);
        const RocksDbFilterInfo info = DescribeRocksDbFilter(filter);
        ASSERT_EQ(info.format, RocksDbFilterFormat::kLegacyBloom);
        ASSERT_EQ(info.line_bytes, line_bytes);
        const size_t positives = ExpectSameAnswers(filter, queries);
        if (HasFailure()) return;
        // At k <= 6, about 1/2^k of the queries match: both answers occur.
        if (k <= 6 && line_bytes * lines >= 8) {
          EXPECT_GT(positives, 0u);
          EXPECT_LT(positives, queries.size());
        }
      }
    }
  }
}

// Bodies of random bytes behind valid trailers (FastLocalBloom at every k,
// legacy at k up to 127): the probe rules alone decide, on bytes no builder
// wrote.
TEST(RocksDbDifferentialTest, RandomBodiesAnswerAsRocksDb) {
  constexpr uint64_t kSeed = 0xb0d1e5;
  SCOPED_TRACE(testing::Message() << "random seed " << kSeed);
  test::Random rng(kSeed);
  const std::vector<std::string> queries = QueryKeys(5000, &rng);
  for (int round = 0; round < 200; ++round) {
    const uint32_t lines = static_cast<uint32_t>(rng.Range(1, 40));
    std::string body = rng.Bytes(size_t{lines} * 64);
    // Dense bodies, so that high k still matches sometimes.
    for (char& c : body) c = static_cast<char>(c | rng.Bytes(1)[0]);
    std::string filter;
    if (round % 2 == 0) {
      const int k = static_cast<int>(rng.Range(1, 30));
      filter = body + NewBloomTrailer(0, k, 0, 0);
      ASSERT_EQ(DescribeRocksDbFilter(filter).format,
                RocksDbFilterFormat::kFastLocalBloom);
    } else {
      const int k = static_cast<int>(rng.Range(1, 127));
      filter = body + LegacyTrailer(k, lines);
      ASSERT_EQ(DescribeRocksDbFilter(filter).format,
                RocksDbFilterFormat::kLegacyBloom);
    }
    SCOPED_TRACE(testing::Message()
                 << "round " << round << ", trailer "
                 << absl::BytesToHexString(filter.substr(filter.size() - 5)));
    ExpectSameAnswers(filter, queries);
    if (HasFailure()) return;
  }
}

}  // namespace
}  // namespace rocksdb_test
}  // namespace sstfilter
