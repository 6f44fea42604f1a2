// The reader of any RocksDB full filter (rocksdb_reader.h): the trailer's
// decision table case by case, each with why it answers as it does and
// checked against RocksDB's own reader wherever RocksDB reads safely; the
// readers on random bytes (total, within bounds under ASan, and equal to
// RocksDB); and what DescribeRocksDbFilter reports.

#include "filter/rocksdb/rocksdb_reader.h"

#include <sys/mman.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "filter/rocksdb/rocksdb_oracle.h"
#include "filter/rocksdb/rocksdb_test_util.h"
#include "gtest/gtest.h"
#include "tests/testing/random.h"
#include "util/coding.h"

namespace sstfilter {
namespace rocksdb_test {
namespace {

enum class Answer {
  kNo,     // every key: false
  kYes,    // every key: true
  kProbe,  // depends on the key (both answers occur)
  kRare,   // depends on the key, but a match is rarer than 2^-20
};

// Whether RocksDB's reader is asked too.
enum class RocksDb {
  kSame,         // identical answers
  kUnsafeToAsk,  // RocksDB would read past the filter: not asked
};

struct TrailerCase {
  const char* why;
  std::string filter;
  RocksDbFilterFormat format;
  Answer answer;
  RocksDb rocksdb;
};

std::string Bytes(std::initializer_list<int> bytes) {
  std::string s;
  for (int b : bytes) s.push_back(static_cast<char>(b));
  return s;
}

// A FastLocalBloom trailer: 0xFF, sub-implementation, block/k byte, two
// reserved bytes.
std::string NewBloomTrailer(int sub_impl, int block_and_k, int b3, int b4) {
  return Bytes({0xFF, sub_impl, block_and_k, b3, b4});
}

std::string LegacyTrailer(int k, uint32_t lines) {
  std::string trailer(1, static_cast<char>(k));
  PutFixed32(&trailer, lines);
  return trailer;
}

std::string RibbonTrailer(int seed, uint32_t blocks) {
  return Bytes({0xFE, seed, static_cast<int>(blocks & 0xff),
                static_cast<int>((blocks >> 8) & 0xff),
                static_cast<int>(blocks >> 16)});
}

std::vector<TrailerCase> TrailerCases() {
  test::Random rng(0x7a1e);
  std::vector<std::string> keys;
  for (int i = 0; i < 1000; ++i) keys.push_back("key" + std::to_string(i));
  const std::string fast =
      BuildFilter(*MakePolicy(rocksdb_test::Format::kFastLocalBloom,
                              FilterOptions::BitsPerKey(10)),
                  keys);
  const std::string legacy =
      BuildFilter(*MakePolicy(rocksdb_test::Format::kLegacyBloom,
                              FilterOptions::BitsPerKey(10)),
                  keys);
  const std::string ribbon =
      test::RocksDbBuildFilter(test::RocksDbBuilderKind::kRibbon, 10, keys);
  // A random body: half its bits set, so probes both hit and miss.
  const std::string line = rng.Bytes(64);
  const std::string lines3 = rng.Bytes(192);
  return {
      // Too short to hold a key.
      {"empty: RocksDB's Ribbon builder writes no bytes for no keys", "",
       RocksDbFilterFormat::kAlwaysFalse, Answer::kNo, RocksDb::kSame},
      {"5 bytes, FastLocalBloom of no keys: what RocksDB writes for none",
       NewBloomTrailer(0, 6, 0, 0), RocksDbFilterFormat::kAlwaysFalse,
       Answer::kNo, RocksDb::kSame},
      {"5 bytes, legacy Bloom of no keys: k and a line count of 0",
       LegacyTrailer(6, 0), RocksDbFilterFormat::kAlwaysFalse, Answer::kNo,
       RocksDb::kSame},
      {"5 bytes of 0xFF: the length is checked before any trailer byte",
       std::string(5, '\xff'), RocksDbFilterFormat::kAlwaysFalse, Answer::kNo,
       RocksDb::kSame},
      {"1 byte", "\x06", RocksDbFilterFormat::kAlwaysFalse, Answer::kNo,
       RocksDb::kSame},
      // First trailer byte 0.
      {"marker 0: zero probes cannot reject a key",
       Bytes({0xAB, 0, 0, 0, 0, 0}), RocksDbFilterFormat::kAlwaysTrue,
       Answer::kYes, RocksDb::kSame},
      {"marker 0 after a full line: still zero probes",
       line + Bytes({0, 1, 0, 0, 0}), RocksDbFilterFormat::kAlwaysTrue,
       Answer::kYes, RocksDb::kSame},
      // 0xFF: the FastLocalBloom family.
      {"FastLocalBloom as RocksDB writes it", fast,
       RocksDbFilterFormat::kFastLocalBloom, Answer::kProbe, RocksDb::kSame},
      {"FastLocalBloom, k = 0: reserved", line + NewBloomTrailer(0, 0, 0, 0),
       RocksDbFilterFormat::kAlwaysTrue, Answer::kYes, RocksDb::kSame},
      {"FastLocalBloom, k = 31: reserved", line + NewBloomTrailer(0, 31, 0, 0),
       RocksDbFilterFormat::kAlwaysTrue, Answer::kYes, RocksDb::kSame},
      {"FastLocalBloom, k = 30: the largest k read (8 bits of 512 clear)",
       Bytes({0}) + std::string(63, '\xff') + NewBloomTrailer(0, 30, 0, 0),
       RocksDbFilterFormat::kFastLocalBloom, Answer::kProbe, RocksDb::kSame},
      {"block-size field 1 (128-byte blocks): reserved",
       line + line + NewBloomTrailer(0, 0x20 | 6, 0, 0),
       RocksDbFilterFormat::kAlwaysTrue, Answer::kYes, RocksDb::kSame},
      {"block-size field 7: reserved",
       line + NewBloomTrailer(0, 0xE0 | 6, 0, 0),
       RocksDbFilterFormat::kAlwaysTrue, Answer::kYes, RocksDb::kSame},
      {"sub-implementation 1: reserved", line + NewBloomTrailer(1, 6, 0, 0),
       RocksDbFilterFormat::kAlwaysTrue, Answer::kYes, RocksDb::kSame},
      {"sub-implementation 0x80: reserved",
       line + NewBloomTrailer(0x80, 6, 0, 0), RocksDbFilterFormat::kAlwaysTrue,
       Answer::kYes, RocksDb::kSame},
      {"fourth trailer byte nonzero: reserved (a future hash seed)",
       line + NewBloomTrailer(0, 6, 1, 0), RocksDbFilterFormat::kAlwaysTrue,
       Answer::kYes, RocksDb::kSame},
      {"fifth trailer byte nonzero: reserved (a future hash seed)",
       line + NewBloomTrailer(0, 6, 0, 0x80), RocksDbFilterFormat::kAlwaysTrue,
       Answer::kYes, RocksDb::kSame},
      {"FastLocalBloom body of 1 byte: RocksDB would probe 64 bytes from it",
       Bytes({0xFF}) + NewBloomTrailer(0, 6, 0, 0),
       RocksDbFilterFormat::kAlwaysTrue, Answer::kYes, RocksDb::kUnsafeToAsk},
      {"FastLocalBloom body of 63 bytes: shorter than one line",
       line.substr(0, 63) + NewBloomTrailer(0, 6, 0, 0),
       RocksDbFilterFormat::kAlwaysTrue, Answer::kYes, RocksDb::kUnsafeToAsk},
      {"FastLocalBloom body of 64 + 10 bytes: RocksDB probes the whole line "
       "and ignores the rest",
       line + line.substr(0, 10) + NewBloomTrailer(0, 6, 0, 0),
       RocksDbFilterFormat::kFastLocalBloom, Answer::kProbe, RocksDb::kSame},
      // 0xFE: Ribbon.
      {"Ribbon as RocksDB writes it", ribbon, RocksDbFilterFormat::kRibbon,
       Answer::kProbe, RocksDb::kSame},
      {"Ribbon with 0 blocks: reserved (no keys has a shorter encoding)",
       lines3 + RibbonTrailer(0, 0), RocksDbFilterFormat::kAlwaysTrue,
       Answer::kYes, RocksDb::kSame},
      {"Ribbon with 1 block: not supported by RocksDB",
       lines3 + RibbonTrailer(0, 1), RocksDbFilterFormat::kAlwaysTrue,
       Answer::kYes, RocksDb::kSame},
      {"Ribbon, 2 blocks of one 16-byte column each",
       line.substr(0, 32) + RibbonTrailer(7, 2), RocksDbFilterFormat::kRibbon,
       Answer::kProbe, RocksDb::kSame},
      {"Ribbon, 2 blocks but no whole 16-byte segment: no column to reject",
       line.substr(0, 15) + RibbonTrailer(7, 2), RocksDbFilterFormat::kRibbon,
       Answer::kYes, RocksDb::kSame},
      {"Ribbon, 2 blocks and 3 segments: the first block has no column, so "
       "keys starting there match",
       line.substr(0, 48) + RibbonTrailer(200, 2), RocksDbFilterFormat::kRibbon,
       Answer::kProbe, RocksDb::kSame},
      {"Ribbon, more segments than 32 columns use: the rest is ignored",
       rng.Bytes(2 * 40 * 16) + RibbonTrailer(1, 2),
       RocksDbFilterFormat::kRibbon, Answer::kRare, RocksDb::kSame},
      // Other negative markers.
      {"marker 0x80: reserved", line + Bytes({0x80, 0, 0, 0, 0}),
       RocksDbFilterFormat::kAlwaysTrue, Answer::kYes, RocksDb::kSame},
      {"marker 0xC0: reserved", line + Bytes({0xC0, 1, 2, 3, 4}),
       RocksDbFilterFormat::kAlwaysTrue, Answer::kYes, RocksDb::kSame},
      {"marker 0xFD: reserved", line + Bytes({0xFD, 0, 6, 0, 0}),
       RocksDbFilterFormat::kAlwaysTrue, Answer::kYes, RocksDb::kSame},
      // 1..127: legacy Bloom.
      {"legacy Bloom as RocksDB writes it", legacy,
       RocksDbFilterFormat::kLegacyBloom, Answer::kProbe, RocksDb::kSame},
      {"legacy, k = 127: RocksDB reads every positive signed k",
       std::string(64, '\xff') + LegacyTrailer(127, 1),
       RocksDbFilterFormat::kLegacyBloom, Answer::kYes, RocksDb::kSame},
      {"legacy, 3 lines of 64 bytes", lines3 + LegacyTrailer(2, 3),
       RocksDbFilterFormat::kLegacyBloom, Answer::kProbe, RocksDb::kSame},
      {"legacy, 0 lines: no line size solves lines * size = body",
       lines3 + LegacyTrailer(2, 0), RocksDbFilterFormat::kAlwaysTrue,
       Answer::kYes, RocksDb::kSame},
      {"legacy, 5 lines of a 192-byte body: does not divide",
       lines3 + LegacyTrailer(2, 5), RocksDbFilterFormat::kAlwaysTrue,
       Answer::kYes, RocksDb::kSame},
      {"legacy, 2 lines of 96 bytes: not a power of two",
       lines3 + LegacyTrailer(2, 2), RocksDbFilterFormat::kAlwaysTrue,
       Answer::kYes, RocksDb::kSame},
      {"legacy, 1 line of 192 bytes: not a power of two",
       lines3 + LegacyTrailer(2, 1), RocksDbFilterFormat::kAlwaysTrue,
       Answer::kYes, RocksDb::kSame},
      {"legacy, 1 line of 128 bytes: a line size from another machine",
       line + line + LegacyTrailer(2, 1), RocksDbFilterFormat::kLegacyBloom,
       Answer::kProbe, RocksDb::kSame},
      {"legacy, 64 lines of 1 byte: lines of 8 bits",
       line + LegacyTrailer(1, 64), RocksDbFilterFormat::kLegacyBloom,
       Answer::kProbe, RocksDb::kSame},
      {"legacy, 2^26 + 1 lines of a 64-byte body: RocksDB's 32-bit lines * 64 "
       "matches and it would probe 2^26 lines",
       line + LegacyTrailer(2, (1u << 26) + 1),
       RocksDbFilterFormat::kAlwaysTrue, Answer::kYes, RocksDb::kUnsafeToAsk},
  };
}

// Keys to ask every case: 300 random ones of 0..40 bytes and some fixed ones.
std::vector<std::string> CaseQueries() {
  test::Random rng(0x9e75);
  std::vector<std::string> keys = QueryKeys(300, &rng);
  keys.insert(keys.end(), {"", "key0", "key999", std::string(300, 'x')});
  return keys;
}

TEST(RocksDbReaderTest, TrailerDecisionTable) {
  const std::vector<std::string> queries = CaseQueries();
  const std::vector<absl::string_view> views(queries.begin(), queries.end());
  const std::unique_ptr<const FilterPolicy> policy = MakePolicy(
      rocksdb_test::Format::kFastLocalBloom, FilterOptions::BitsPerKey(10));
  for (const TrailerCase& c : TrailerCases()) {
    SCOPED_TRACE(c.why);
    const PrivateCopy bytes(c.filter);
    const RocksDbFilterInfo info = DescribeRocksDbFilter(bytes.view());
    EXPECT_EQ(RocksDbFilterFormatName(info.format),
              std::string(RocksDbFilterFormatName(c.format)))
        << info.reason;
    const std::unique_ptr<FilterReader> reader =
        NewRocksDbFilterReader(bytes.view());
    std::unique_ptr<bool[]> batched(new bool[views.size()]);
    reader->MayMatch(views, batched.get());
    size_t positives = 0;
    for (size_t i = 0; i < views.size(); ++i) {
      const bool answer = reader->MayMatch(views[i]);
      ASSERT_EQ(batched[i], answer) << absl::CEscape(views[i]);
      ASSERT_EQ(policy->KeyMayMatch(views[i], bytes.view()), answer);
      positives += answer;
    }
    const double fpp = reader->ExpectedFpp();
    switch (c.answer) {
      case Answer::kNo:
        EXPECT_EQ(positives, 0u);
        EXPECT_EQ(fpp, 0.0);
        break;
      case Answer::kYes:
        EXPECT_EQ(positives, views.size());
        EXPECT_EQ(fpp, 1.0);
        break;
      case Answer::kProbe:
        EXPECT_GT(positives, 0u);
        EXPECT_LT(positives, views.size());
        EXPECT_GT(fpp, 0.0);
        EXPECT_LT(fpp, 1.0);
        break;
      case Answer::kRare:
        EXPECT_EQ(positives, 0u);
        EXPECT_GT(fpp, 0.0);
        EXPECT_LT(fpp, std::ldexp(1.0, -20));
        break;
    }
    if (c.rocksdb == RocksDb::kUnsafeToAsk) continue;
    const test::RocksDbOracleReader rocksdb(bytes.view());
    for (size_t i = 0; i < views.size(); ++i) {
      ASSERT_EQ(batched[i], rocksdb.MayMatch(views[i]))
          << absl::CEscape(views[i]);
    }
  }
}

// Filters too large to build: only the trailer is read (anonymous memory,
// untouched but for the last page), and both answer "may match".
TEST(RocksDbReaderTest, HugeFiltersAreMayMatch) {
  struct Mapping {
    explicit Mapping(size_t n) : size(n) {
      data = static_cast<char*>(
          mmap(nullptr, n, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
    }
    ~Mapping() {
      if (data != MAP_FAILED) munmap(data, size);
    }
    size_t size;
    char* data;
  };
  // One legacy line of 2^28 bytes: RocksDB's (1 << 31) - 1 mask overflows an
  // int.
  {
    const size_t body = size_t{1} << 28;
    Mapping m(body + 5);
    ASSERT_NE(m.data, MAP_FAILED);
    const std::string trailer = LegacyTrailer(6, 1);
    std::copy(trailer.begin(), trailer.end(), m.data + body);
    const RocksDbFilterInfo info =
        DescribeRocksDbFilter(absl::string_view(m.data, m.size));
    EXPECT_EQ(info.format, RocksDbFilterFormat::kAlwaysTrue) << info.reason;
    EXPECT_TRUE(NewRocksDbFilterReader(absl::string_view(m.data, m.size))
                    ->MayMatch("key"));
  }
  // 2^32 + 6 bytes: RocksDB takes the length modulo 2^32 (6 bytes), a filter
  // this large is no filter RocksDB writes.
  {
    const size_t size = (size_t{1} << 32) + 6;
    Mapping m(size);
    ASSERT_NE(m.data, MAP_FAILED);
    const std::string trailer = NewBloomTrailer(0, 6, 0, 0);
    std::copy(trailer.begin(), trailer.end(), m.data + size - 5);
    const RocksDbFilterInfo info =
        DescribeRocksDbFilter(absl::string_view(m.data, m.size));
    EXPECT_EQ(info.format, RocksDbFilterFormat::kAlwaysTrue) << info.reason;
  }
}

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
