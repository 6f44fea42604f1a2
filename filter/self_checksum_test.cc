// Format version 2 of sstfilter's own families (filter/format_version_2.md):
// every single-bit flip and every truncation of a checked filter gives "may
// match" for every key that was added, on both read paths (a reader object, and
// LevelDB's one-call KeyMayMatch); a reader reports the damage; the stored CRC
// is the one RocksDB's own CRC32C computes; no checked filter is a power of
// two bytes long; version 1 stays readable.

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "filter/bloom/bloom.h"
#include "filter/burr/burr.h"
#include "filter/filter_policy.h"
#include "filter/format_registry.h"
#include "filter/hybrid/hybrid.h"
#include "filter/leveldb/leveldb_bloom.h"
#include "filter/range/range_filter.h"
#include "filter/range/range_key.h"
#include "filter/rocksdb/rocksdb_bloom.h"
#include "filter/testing/filter_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "util/coding.h"

// Exported by librocksdb (util/crc32c.h in RocksDB 7.8.3), not in its public
// headers: the oracle.
namespace rocksdb {
namespace crc32c {
extern uint32_t Extend(uint32_t init_crc, const char* data, size_t n);
}  // namespace crc32c
}  // namespace rocksdb

namespace sstfilter {
namespace {

// LevelDB's and RocksDB's CRC mask, written from their util/crc32c.h.
uint32_t MaskedCrc(uint32_t crc) {
  return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

using PolicyFactory = absl::StatusOr<std::unique_ptr<const FilterPolicy>> (*)(
    const FilterOptions&);

struct Family {
  const char* checked_name;
  const char* version1_name;
  PolicyFactory factory;
};

// The hybrid policy of one family.
template <FilterFamily kFamily>
absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewHybrid(
    const FilterOptions& options) {
  HybridOptions hybrid;
  hybrid.family = kFamily;
  return NewHybridFilterPolicy(options, hybrid);
}

const Family kFamilies[] = {
    {"sstfilter.LocalBloom2", "sstfilter.LocalBloom1", &NewBloomFilterPolicy},
    {"sstfilter.BumpedRibbon2", "sstfilter.BumpedRibbon1",
     &NewBurrFilterPolicy},
    {"sstfilter.Hybrid2", "sstfilter.Hybrid1",
     &NewHybrid<FilterFamily::kNative>},
    {"sstfilter.Hybrid2", "sstfilter.Hybrid1",
     &NewHybrid<FilterFamily::kCompact>},
    // Its point reader here; its range reader in
    // EveryFlipAndTruncationOfARangeFilterMatchesRangesHoldingKeys.
    {"sstfilter.Grafite2", "sstfilter.Grafite1", &NewGrafiteFilterPolicy},
};

std::vector<std::string> Keys(int n, int salt) {
  std::vector<std::string> keys;
  for (int i = 0; i < n; ++i)
    keys.push_back(absl::StrFormat("k%d-%d", salt, i));
  return keys;
}

// Calls check(damaged, what) for every single-bit flip and every truncation
// of filter, what saying which.
template <typename Check>
void ForEachFlipAndTruncation(const std::string& filter, Check check) {
  for (size_t bit = 0; bit < 8 * filter.size(); ++bit) {
    std::string flipped = filter;
    flipped[bit / 8] ^= static_cast<char>(1 << (bit % 8));
    check(flipped, absl::StrCat("bit ", bit, " flipped"));
  }
  for (size_t size = 0; size < filter.size(); ++size) {
    check(filter.substr(0, size), absl::StrCat("truncated to ", size));
  }
}

// Damaged bytes in a fresh buffer of exactly their size, so that ASan sees a
// read past the end.
void ExpectEveryKeyMayMatch(const FilterPolicy& policy,
                            const std::string& damaged,
                            const std::vector<std::string>& keys,
                            const std::string& what) {
  const std::unique_ptr<char[]> copy(new char[damaged.size()]);
  std::copy(damaged.begin(), damaged.end(), copy.get());
  const absl::string_view bytes(copy.get(), damaged.size());
  const std::unique_ptr<FilterReader> reader = policy.Format().NewReader(bytes);
  for (const std::string& key : keys) {
    ASSERT_TRUE(policy.KeyMayMatch(key, bytes)) << what << ", key " << key;
    ASSERT_TRUE(reader->MayMatch(key)) << what << ", key " << key;
  }
  EXPECT_TRUE(absl::IsDataLoss(reader->Corruption())) << what;
  EXPECT_TRUE(absl::IsDataLoss(policy.Format().Verify(bytes))) << what;
}

TEST(SelfChecksumTest, EveryFlipAndTruncationAnswersMayMatch) {
  for (const Family& family : kFamilies) {
    const auto policy = *family.factory(FilterOptions::Fpp(0.01));
    ASSERT_STREQ(policy->Name(), family.checked_name);
    // LevelDB's per-2 KB filters hold tens of keys; every bit of those.
    for (int n : {0, 1, 2, 7, 40, 90}) {
      const std::vector<std::string> keys = Keys(n, n);
      const std::string filter = test::BuildFilter(*policy, keys);
      SCOPED_TRACE(absl::StrCat(family.checked_name, ", ", n, " keys, ",
                                filter.size(), " bytes"));
      const auto intact = policy->Format().NewReader(filter);
      ASSERT_TRUE(intact->Corruption().ok());
      ASSERT_TRUE(policy->Format().Verify(filter).ok());
      for (const std::string& key : keys) {
        ASSERT_TRUE(intact->MayMatch(key));
        ASSERT_TRUE(policy->KeyMayMatch(key, filter));
      }
      // The probe keys: every added key, or some absent ones for the empty
      // set, whose intact filter rejects them.
      const std::vector<std::string> probes = n > 0 ? keys : Keys(20, -1);
      ForEachFlipAndTruncation(
          filter, [&](const std::string& damaged, const std::string& what) {
            ExpectEveryKeyMayMatch(*policy, damaged, probes, what);
          });
    }
  }
}

// The range filter's own reader, given the format name a table stores the
// filter under (NewRangeFilterReaderFor, what RocksDB's scans use), of every
// flip and truncation of a version-2 filter: every key, and every range
// holding one, may match; and while the bytes still carry a checked filter's
// marker, or are too short to carry one, the reader reports the damage.
TEST(SelfChecksumTest,
     EveryFlipAndTruncationOfARangeFilterMatchesRangesHoldingKeys) {
  const auto policy = *NewGrafiteFilterPolicy(FilterOptions::Fpp(0.01));
  ASSERT_STREQ(policy->Name(), "sstfilter.Grafite2");
  FilterOptions version1 = FilterOptions::Fpp(0.01);
  version1.self_checksum = false;
  // Bytes this short hold no version-1 filter either: without the name they
  // would read as an empty version-1 filter.
  const size_t version1_trailer =
      test::BuildFilter(**NewGrafiteFilterPolicy(version1), {}).size();
  for (int n : {0, 1, 2, 7, 40, 90}) {
    const std::vector<std::string> keys = Keys(n, n);
    const std::string filter = test::BuildFilter(*policy, keys);
    SCOPED_TRACE(absl::StrCat(n, " keys, ", filter.size(), " bytes"));
    ASSERT_TRUE(
        NewRangeFilterReaderFor(policy->Name(), filter)->Corruption().ok());
    int damaged_cases = 0;
    ForEachFlipAndTruncation(
        filter, [&](const std::string& damaged, const std::string& what) {
          ++damaged_cases;
          // A fresh buffer of exactly the damaged size, for ASan.
          const std::unique_ptr<char[]> copy(new char[damaged.size()]);
          std::copy(damaged.begin(), damaged.end(), copy.get());
          const absl::string_view bytes(copy.get(), damaged.size());
          const std::unique_ptr<RangeFilterReader> reader =
              NewRangeFilterReaderFor(policy->Name(), bytes);
          for (const std::string& key : keys) {
            const uint64_t code = RangeKeyCode(key);
            ASSERT_TRUE(reader->MayMatch(key)) << what << ", key " << key;
            ASSERT_TRUE(reader->RangeMayMatch(key, key)) << what << ", " << key;
            ASSERT_TRUE(reader->RangeMayMatchBefore(key, key + '\0'))
                << what << ", " << key;
            for (uint64_t reach : {uint64_t{1}, uint64_t{1000}}) {
              ASSERT_TRUE(reader->CodeRangeMayMatch(code - reach, code + reach))
                  << what << ", " << key << " +-" << reach;
              ASSERT_TRUE(reader->RangeMayMatch(KeyOfRangeCode(code - reach),
                                                KeyOfRangeCode(code + reach)))
                  << what << ", " << key << " +-" << reach;
            }
          }
          const bool marked =
              bytes.size() >= 2 &&
              (static_cast<uint8_t>(bytes[bytes.size() - 2]) == 0xC2 ||
               static_cast<uint8_t>(bytes[bytes.size() - 2]) == 0xC3);
          if (marked || bytes.size() < version1_trailer) {
            ASSERT_TRUE(absl::IsDataLoss(reader->Corruption())) << what;
            ASSERT_TRUE(
                absl::IsDataLoss(VerifyRangeFilterFor(policy->Name(), bytes)))
                << what;
          }
        });
    EXPECT_EQ(damaged_cases, 9 * static_cast<int>(filter.size()));
  }
}

// A name that is not a range filter format is an error naming it, and its
// reader matches everything.
TEST(SelfChecksumTest, ARangeReaderOfAnotherFormatMatchesEverything) {
  const auto policy = *NewGrafiteFilterPolicy(FilterOptions::Fpp(0.01));
  const std::string filter = test::BuildFilter(*policy, Keys(40, 1));
  const absl::Status status =
      VerifyRangeFilterFor("sstfilter.LocalBloom2", filter);
  EXPECT_TRUE(absl::IsInvalidArgument(status)) << status;
  EXPECT_THAT(std::string(status.message()),
              testing::HasSubstr("sstfilter.LocalBloom2"));
  const std::unique_ptr<RangeFilterReader> reader =
      NewRangeFilterReaderFor("sstfilter.LocalBloom2", filter);
  EXPECT_TRUE(reader->RangeMayMatch("a", "b"));
  EXPECT_TRUE(reader->MayMatch("absent"));
}

// A filter of a few thousand keys: a dense sample of its bits.
TEST(SelfChecksumTest, FlipsInALargeFilterAnswerMayMatch) {
  for (const Family& family : kFamilies) {
    const auto policy = *family.factory(FilterOptions::Fpp(0.01));
    const std::vector<std::string> keys = Keys(3000, 7);
    const std::string filter = test::BuildFilter(*policy, keys);
    for (size_t bit = 0; bit < 8 * filter.size(); bit += 61) {
      std::string flipped = filter;
      flipped[bit / 8] ^= static_cast<char>(1 << (bit % 8));
      ExpectEveryKeyMayMatch(*policy, flipped, keys,
                             absl::StrCat(family.checked_name, " bit ", bit));
    }
  }
}

// The CRC field holds RocksDB's CRC32C (an implementation independent of ours)
// of every other byte, masked as table block trailers mask theirs.
TEST(SelfChecksumTest, StoredCrcIsTheCrc32cOfTheOtherBytes) {
  for (const Family& family : kFamilies) {
    const auto policy = *family.factory(FilterOptions::Fpp(0.02));
    for (int n : {0, 3, 100, 2000}) {
      const std::string filter = test::BuildFilter(*policy, Keys(n, 3));
      ASSERT_GE(filter.size(), 7u);
      const size_t crc_at = filter.size() - 6;
      uint32_t crc = rocksdb::crc32c::Extend(0, filter.data(), crc_at);
      crc = rocksdb::crc32c::Extend(crc, filter.data() + crc_at + 4, 2);
      EXPECT_EQ(DecodeFixed32(filter.data() + crc_at), MaskedCrc(crc))
          << family.checked_name << ", " << n << " keys";
      const uint8_t marker = static_cast<uint8_t>(filter[filter.size() - 2]);
      EXPECT_TRUE(marker == 0xC2 || marker == 0xC3) << int{marker};
    }
  }
}

bool IsPowerOfTwo(size_t n) { return (n & (n - 1)) == 0; }

// LevelDB answers an empty filter slice "no" without asking the policy, and
// one flipped offset bit empties a slice only if its length is a power of two.
TEST(SelfChecksumTest, NoFilterIsAPowerOfTwoBytesLong) {
  for (const Family& family : kFamilies) {
    const auto policy = *family.factory(FilterOptions::BitsPerKey(8));
    int padded = 0;
    for (int n = 0; n < 400; ++n) {
      const std::string filter = test::BuildFilter(*policy, Keys(n, 11));
      EXPECT_FALSE(IsPowerOfTwo(filter.size()))
          << family.checked_name << ", " << n << " keys: " << filter.size();
      padded += static_cast<uint8_t>(filter[filter.size() - 2]) == 0xC3;
      for (const std::string& key : Keys(n, 11)) {
        ASSERT_TRUE(policy->KeyMayMatch(key, filter));
      }
    }
    // The padded layout is exercised, not only defined (the native filter's
    // size moves a byte at a time; the compact filter's in larger steps).
    if (family.factory == &NewBloomFilterPolicy) {
      EXPECT_GT(padded, 0);
    }
  }
}

// Version 2 is version 1 plus a trailer: the same answers, and version-1
// filters (self_checksum = false) stay readable under their own name.
TEST(SelfChecksumTest, VersionOneStaysReadableAndAnswersTheSame) {
  for (const Family& family : kFamilies) {
    FilterOptions options = FilterOptions::Fpp(0.01);
    const auto checked = *family.factory(options);
    options.self_checksum = false;
    const auto plain = *family.factory(options);
    EXPECT_STREQ(plain->Name(), family.version1_name);
    const FilterFormat* v1 = FindFilterFormat(family.version1_name);
    const FilterFormat* v2 = FindFilterFormat(family.checked_name);
    ASSERT_NE(v1, nullptr);
    ASSERT_NE(v2, nullptr);
    const std::vector<std::string> keys = Keys(500, 5);
    const std::string filter1 = test::BuildFilter(*plain, keys);
    const std::string filter2 = test::BuildFilter(*checked, keys);
    EXPECT_EQ(filter2.substr(0, filter1.size()), filter1);
    // Six bytes of trailer, seven with the pad byte.
    const bool padded =
        static_cast<uint8_t>(filter2[filter2.size() - 2]) == 0xC3;
    EXPECT_EQ(filter2.size() - filter1.size(), padded ? 7u : 6u);
    const auto reader1 = v1->NewReader(filter1);
    const auto reader2 = v2->NewReader(filter2);
    for (const std::string& key : Keys(5000, 6)) {
      ASSERT_EQ(reader1->MayMatch(key), reader2->MayMatch(key)) << key;
      ASSERT_EQ(v1->KeyMayMatch(key, filter1), v2->KeyMayMatch(key, filter2));
    }
    EXPECT_EQ(reader1->ExpectedFpp(), reader2->ExpectedFpp());
    // Each version's reader refuses the other's bytes with a "may match".
    EXPECT_TRUE(v2->NewReader(filter1)->MayMatch("absent"));
    EXPECT_TRUE(v2->KeyMayMatch("absent", filter1));
    EXPECT_TRUE(v1->NewReader(filter2)->MayMatch("absent"));
  }
}

// Describe says a version-2 filter carries a checksum, damaged or not;
// Verify, the one integrity check, says whether it matches, and a reader's
// Corruption() repeats what Verify said when the reader was made.
TEST(SelfChecksumTest, DescribeSaysChecksummedAndVerifyChecks) {
  const auto policy = *NewBloomFilterPolicy(FilterOptions::Fpp(0.01));
  const FilterFormat& format = policy->Format();
  std::string filter = test::BuildFilter(*policy, Keys(100, 1));
  FilterFacts facts = format.Describe(filter);
  EXPECT_TRUE(facts.checksummed);
  EXPECT_EQ(facts.num_keys, 100);
  EXPECT_TRUE(format.Verify(filter).ok());
  EXPECT_TRUE(format.NewReader(filter)->Corruption().ok());
  filter[3] ^= 1;
  facts = format.Describe(filter);
  EXPECT_TRUE(facts.checksummed);
  EXPECT_TRUE(absl::IsDataLoss(format.Verify(filter)));
  EXPECT_TRUE(absl::IsDataLoss(format.NewReader(filter)->Corruption()));
  // A version-1 filter stores none.
  FilterOptions v1 = FilterOptions::Fpp(0.01);
  v1.self_checksum = false;
  const auto unchecked = *NewBloomFilterPolicy(v1);
  EXPECT_FALSE(unchecked->Format()
                   .Describe(test::BuildFilter(*unchecked, Keys(100, 1)))
                   .checksummed);
}

TEST(SelfChecksumTest, FormatsWithoutRoomForItRejectTrue) {
  FilterOptions options = FilterOptions::BitsPerKey(10);
  options.self_checksum = true;
  for (PolicyFactory factory :
       {&NewLevelDbFilterPolicy, &NewRocksDbFastBloomFilterPolicy,
        &NewRocksDbLegacyBloomFilterPolicy}) {
    const auto policy = factory(options);
    ASSERT_FALSE(policy.ok());
    EXPECT_TRUE(absl::IsInvalidArgument(policy.status()));
    EXPECT_NE(policy.status().message().find("self_checksum"),
              absl::string_view::npos)
        << policy.status();
  }
  options.self_checksum = false;
  EXPECT_TRUE(NewLevelDbFilterPolicy(options).ok());
}

}  // namespace
}  // namespace sstfilter
