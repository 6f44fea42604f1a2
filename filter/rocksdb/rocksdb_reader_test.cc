// The reader of any RocksDB full filter (rocksdb_reader.h) on random bytes:
// total, within bounds under ASan, the same single and batched, and equal to
// RocksDB's reader wherever RocksDB reads safely; and what
// DescribeRocksDbFilter reports of the filters RocksDB writes.
// rocksdb_trailer_test.cc holds the decision table case by case.

#include "filter/rocksdb/rocksdb_reader.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "filter/rocksdb/rocksdb_oracle.h"
#include "filter/rocksdb/rocksdb_test_util.h"
#include "gtest/gtest.h"
#include "util/coding.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace rocksdb_test {
namespace {

TEST(RocksDbReaderTest, DescribeReportsTheTrailer) {
  std::vector<std::string> keys;
  for (int i = 0; i < 1000; ++i) keys.push_back("key" + std::to_string(i));

  const std::string fast =
      BuildFilter(*MakePolicy(rocksdb_test::Format::kFastLocalBloom,
                              FilterOptions::BitsPerKey(10)),
                  keys);
  RocksDbFilterInfo info = DescribeRocksDbFilter(fast);
  EXPECT_EQ(info.format, RocksDbFilterFormat::kFastLocalBloom);
  EXPECT_STREQ(RocksDbFilterFormatName(info.format), "FastLocalBloom");
  EXPECT_EQ(info.filter_bytes, fast.size());
  EXPECT_EQ(info.body_bytes, 1280u);  // 10,000 bits in whole 64-byte lines
  EXPECT_EQ(info.marker, 0xFF);
  EXPECT_EQ(info.num_probes, 6);
  EXPECT_EQ(info.num_lines, 20u);
  EXPECT_EQ(info.line_bytes, 64u);

  const std::string legacy =
      BuildFilter(*MakePolicy(rocksdb_test::Format::kLegacyBloom,
                              FilterOptions::BitsPerKey(10)),
                  keys);
  info = DescribeRocksDbFilter(legacy);
  EXPECT_STREQ(RocksDbFilterFormatName(info.format), "LegacyBloom");
  EXPECT_EQ(info.marker, 6);
  EXPECT_EQ(info.num_probes, 6);
  EXPECT_EQ(info.num_lines, 21u);  // ceil(10,000 / 512) = 20, made odd
  EXPECT_EQ(info.body_bytes, 21u * 64);

  const std::string ribbon =
      test::RocksDbBuildFilter(test::RocksDbBuilderKind::kRibbon, 10, keys);
  info = DescribeRocksDbFilter(ribbon);
  EXPECT_STREQ(RocksDbFilterFormatName(info.format), "Ribbon");
  EXPECT_EQ(info.marker, 0xFE);
  // A slot per key and a few percent more, in whole 128-slot blocks.
  EXPECT_GE(info.ribbon_blocks * 128, 1000u);
  EXPECT_LE(info.ribbon_blocks * 128, 1200u);
  EXPECT_EQ(info.ribbon_seed, static_cast<uint8_t>(ribbon[ribbon.size() - 4]));

  EXPECT_STREQ(RocksDbFilterFormatName(DescribeRocksDbFilter("").format),
               "AlwaysFalse");
  EXPECT_STREQ(RocksDbFilterFormatName(
                   DescribeRocksDbFilter(Bytes({1, 0x80, 0, 0, 0, 0})).format),
               "AlwaysTrue");
}

// Whether RocksDB 7.8.3 reads these bytes without reading past them: the two
// cases DescribeRocksDbFilter turns into "may match" that random bytes reach
// (the others need filters of 256 MB and more).
bool RocksDbReadsSafely(absl::string_view filter) {
  if (filter.size() <= 5) return true;
  const size_t body = filter.size() - 5;
  const uint8_t marker = static_cast<uint8_t>(filter[body]);
  const uint8_t k = static_cast<uint8_t>(filter[body + 2]) & 0x1F;
  if (marker == 0xFF && filter[body + 1] == 0 &&
      (static_cast<uint8_t>(filter[body + 2]) >> 5) == 0 && k >= 1 && k <= 30 &&
      filter[body + 3] == 0 && filter[body + 4] == 0 && body < 64) {
    return false;  // FastLocalBloom probing 64 bytes of a shorter body
  }
  if (marker >= 1 && marker <= 127) {
    const uint64_t lines = DecodeFixed32(filter.data() + body + 1);
    if (lines * 64 != body && ((lines * 64) & 0xffffffff) == body) {
      return false;  // legacy line count matching only modulo 2^32
    }
  }
  return true;
}

// Random bytes, and random bodies behind trailers drawn to reach every branch
// of the table: no crash, no read outside the filter (ASan), the same answer
// single, batched and through KeyMayMatch, ExpectedFpp a probability, and
// RocksDB's answers wherever RocksDB reads safely.
TEST(RocksDbReaderTest, TotalOnRandomBytesAndAgreesWithRocksDb) {
  constexpr uint64_t kSeed = 0x707a1;
  SCOPED_TRACE(testing::Message() << "random seed " << kSeed);
  test::Random rng(kSeed);
  const std::vector<std::string> queries = QueryKeys(64, &rng);
  const std::vector<absl::string_view> views(queries.begin(), queries.end());
  const std::unique_ptr<const FilterPolicy> policy = MakePolicy(
      rocksdb_test::Format::kLegacyBloom, FilterOptions::BitsPerKey(10));
  const int markers[] = {0x00, 0x01, 0x06, 0x1E, 0x7F, 0x80, 0xFD, 0xFE, 0xFF};
  size_t formats_seen[5] = {0, 0, 0, 0, 0};
  for (int round = 0; round < 20000; ++round) {
    std::string filter =
        rng.Bytes(rng.OneIn(16) ? rng.Range(0, 5) : rng.Range(6, 300));
    const size_t body = filter.size() - std::min<size_t>(filter.size(), 5);
    switch (filter.size() > 5 ? round % 5 : 0) {
      case 0:  // the random bytes as they are
        break;
      case 1:  // a valid FastLocalBloom trailer (k = 1..30)
        filter.replace(body, 5, NewBloomTrailer(0, rng.Range(1, 30), 0, 0));
        break;
      case 2:  // a legacy trailer whose line count divides the body, or not
        if (rng.OneIn(2)) {
          const uint32_t lines = static_cast<uint32_t>(rng.Range(1, 5));
          const size_t line_bytes = size_t{1} << rng.Range(0, 6);
          filter = rng.Bytes(lines * line_bytes) +
                   LegacyTrailer(static_cast<int>(rng.Range(1, 127)), lines);
        } else {
          filter.replace(
              body, 5,
              LegacyTrailer(static_cast<int>(rng.Range(1, 127)),
                            static_cast<uint32_t>(rng.Range(0, body + 1))));
        }
        break;
      case 3:  // a Ribbon trailer of 2..65,537 blocks, whatever the body
        filter.replace(
            body, 5,
            RibbonTrailer(static_cast<int>(rng.Uniform(256)),
                          static_cast<uint32_t>(rng.Range(2, 65537))));
        break;
      case 4:  // a chosen marker and fields near the valid ones
        filter[body] = static_cast<char>(markers[rng.Uniform(9)]);
        if (rng.OneIn(2)) filter[body + 1] = 0;
        if (rng.OneIn(2)) {
          filter[body + 2] = static_cast<char>(rng.Range(0, 31));
        }
        if (rng.OneIn(2)) filter[body + 3] = filter[body + 4] = 0;
        break;
    }
    SCOPED_TRACE(testing::Message() << "round " << round << ": "
                                    << absl::BytesToHexString(filter));
    const PrivateCopy bytes(filter);
    const RocksDbFilterInfo info = DescribeRocksDbFilter(bytes.view());
    ++formats_seen[static_cast<int>(info.format)];
    const std::unique_ptr<FilterReader> reader =
        NewRocksDbFilterReader(bytes.view());
    if (round % 16 == 0) {  // the legacy reader's samples 2^16 probes
      const double fpp = reader->ExpectedFpp();
      ASSERT_GE(fpp, 0.0);
      ASSERT_LE(fpp, 1.0);
    }
    bool batched[64];
    reader->MayMatch(views, batched);
    const bool ask_rocksdb = RocksDbReadsSafely(bytes.view());
    std::unique_ptr<test::RocksDbOracleReader> rocksdb;
    if (ask_rocksdb) {
      rocksdb = std::make_unique<test::RocksDbOracleReader>(bytes.view());
    }
    for (size_t i = 0; i < views.size(); ++i) {
      const bool answer = reader->MayMatch(views[i]);
      ASSERT_EQ(answer, batched[i]);
      ASSERT_EQ(answer, policy->KeyMayMatch(views[i], bytes.view()));
      if (!ask_rocksdb) continue;
      const bool theirs = rocksdb->MayMatch(views[i]);
      ASSERT_EQ(answer, theirs) << absl::CEscape(views[i]);
    }
  }
  // Every format was reached many times.
  for (int f = 0; f < 5; ++f) {
    EXPECT_GT(formats_seen[f], 200u)
        << RocksDbFilterFormatName(static_cast<RocksDbFilterFormat>(f));
  }
}

}  // namespace
}  // namespace rocksdb_test
}  // namespace sstfilter
