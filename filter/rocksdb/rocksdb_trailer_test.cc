// The trailer's decision table (filter/rocksdb/README.md), case by case: each
// says why it answers as it does, and is checked against RocksDB's own reader
// wherever RocksDB reads safely. Also filters too large to build, of which only
// the trailer is read.

#include <sys/mman.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "filter/rocksdb/rocksdb_oracle.h"
#include "filter/rocksdb/rocksdb_reader.h"
#include "filter/rocksdb/rocksdb_test_util.h"
#include "gtest/gtest.h"
#include "util/testing/random.h"

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

}  // namespace
}  // namespace rocksdb_test
}  // namespace sstfilter
