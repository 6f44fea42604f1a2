// MutableBloomFilter::Save and Restore: a restored filter answers and measures
// as the saved one, takes more keys, keeps its frozen format; every damaged,
// truncated, foreign or forged input is a DataLossError naming the problem;
// and the bytes of a small filter are pinned.
//
// To regenerate the golden values after a deliberate change of the saved
// layout (which needs a new format version, filter/internal/saved_filter.h):
// set kRegenerate to true, run
//   bazel test //inmemory/mutable:mutable_bloom_save_test --test_output=all
// paste the printed values, and set it back.

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "filter/bloom/bloom_format.h"
#include "filter/testing/filter_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "inmemory/counting/counting_bloom.h"
#include "inmemory/mutable/mutable_bloom.h"
#include "inmemory/mutable/mutable_test_util.h"
#include "inmemory/mutable/scalable_bloom.h"
#include "inmemory/testing/saved_filters.h"
#include "util/testing/golden.h"

namespace sstfilter {
namespace {

using ::sstfilter::mutable_test::Make;
using ::sstfilter::test::DoubleBytes;
using ::sstfilter::test::Fixed64Bytes;
using ::sstfilter::test::Forge;
using ::sstfilter::test::Keys16;
using MutableBloomSaveTest = test::SavedFilterTest<MutableBloomFilter>;

constexpr bool kRegenerate = false;

// Where the fields of a saved MutableBloomFilter sit
// (inmemory/mutable/README.md).
constexpr size_t kExpectedKeysAt = 16;
constexpr size_t kBitsPerKeyAt = 24;
constexpr size_t kProbesAt = 32;
constexpr size_t kFlagsAt = 33;
constexpr size_t kZerosAt = 34;
constexpr size_t kBlocksAt = 40;
constexpr size_t kBodyAt = 48;

// Added keys, then as many absent ones.
std::vector<std::string> AddedAndAbsent(const std::vector<std::string>& added,
                                        uint64_t absent) {
  std::vector<std::string> keys = added;
  const std::vector<std::string> others = Keys16(1, 0, absent);
  keys.insert(keys.end(), others.begin(), others.end());
  return keys;
}

TEST_F(MutableBloomSaveTest, RestoredFiltersAnswerAndMeasureAsSaved) {
  const FilterOptions options[] = {
      FilterOptions::Fpp(0.01), FilterOptions::Fpp(1e-5),
      FilterOptions::BitsPerKey(1), FilterOptions::BitsPerKey(7.3),
      FilterOptions::BitsPerKey(100)};
  for (const FilterOptions& option : options) {
    for (uint64_t expected : {1, 100, 3000}) {
      // No key, half the expected count, and twice it.
      for (uint64_t count : {uint64_t{0}, expected / 2, 2 * expected}) {
        SCOPED_TRACE(absl::StrCat(expected, " expected, ", count, " added, ",
                                  option.fpp.value_or(0), " fpp, ",
                                  option.bits_per_key.value_or(0), " bits"));
        MutableBloomFilter filter = Make(option, expected);
        const std::vector<std::string> added = Keys16(0, 0, count);
        for (const std::string& key : added) filter.Add(key);
        ExpectRestoresAlike(filter, AddedAndAbsent(added, 2000));
      }
    }
  }
}

TEST_F(MutableBloomSaveTest, RestoredFilterTakesMoreKeys) {
  MutableBloomFilter filter = Make(FilterOptions::Fpp(0.01), 1000);
  const std::vector<std::string> first = Keys16(0, 0, 500);
  const std::vector<std::string> second = Keys16(0, 500, 500);
  for (const std::string& key : first) filter.Add(key);
  MutableBloomFilter restored =
      ExpectRestoresAlike(filter, AddedAndAbsent(first, 2000));
  for (const std::string& key : second) {
    EXPECT_EQ(restored.Add(key), filter.Add(key));
    EXPECT_TRUE(restored.MayContain(key));
  }
  const std::vector<std::string> keys =
      AddedAndAbsent(Keys16(0, 0, 1000), 5000);
  const absl::Status alike = test::CompareRestored(filter, restored, keys);
  EXPECT_TRUE(alike.ok()) << alike;
  EXPECT_TRUE(restored.Union(filter).ok());
}

TEST_F(MutableBloomSaveTest, Version1FilterStaysVersion1) {
  MutableBloomFilter filter =
      Make(test::Version1(FilterOptions::BitsPerKey(10)), 200);
  for (const std::string& key : Keys16(0, 0, 150)) filter.Add(key);
  const MutableBloomFilter restored =
      ExpectRestoresAlike(filter, AddedAndAbsent(Keys16(0, 0, 150), 2000));
  EXPECT_STREQ(restored.FrozenFormatName(), bloom::kLocalBloomName);
  EXPECT_EQ(restored.Freeze(), filter.Freeze());
}

TEST_F(MutableBloomSaveTest, EveryTruncationAndBitFlipIsDataLoss) {
  MutableBloomFilter filter = Make(FilterOptions::BitsPerKey(10), 40);
  for (const std::string& key : Keys16(0, 0, 30)) filter.Add(key);
  ExpectDamageRefused(filter.Save());
}

TEST_F(MutableBloomSaveTest, RefusesEmptyForeignAndDamagedBytesNamingWhy) {
  MutableBloomFilter filter = Make(FilterOptions::BitsPerKey(10), 40);
  filter.Add("hello");
  const std::string saved = filter.Save();
  ExpectEnvelopeRefusals<CountingBloomFilter>(
      saved, /*cut=*/37, /*damaged_at=*/kBodyAt + 3, /*flip=*/0x10);
  ExpectRefused(saved.substr(0, 10), "truncated: 10 bytes, fewer than the 16");
  ExpectRefused(saved + "x",
                absl::StrCat(saved.size() + 1, " bytes, header says ",
                             saved.size(), ": trailing bytes"));
  ExpectRefused("SFSX" + saved.substr(4), "not a saved filter");
  std::string version = saved;
  version[4] = 7;
  ExpectRefused(version, "unsupported version 7");
  ExpectRefused(test::SmallSaved<ScalableBloomFilter>(),
                "wrong kind: ScalableBloomFilter bytes");
  std::string unknown = saved;
  unknown[5] = 9;
  ExpectRefused(unknown, "wrong kind: unknown kind 9 bytes");
}

// Bytes behind a valid CRC, as a fuzzer or an attacker can make them: every
// field is checked on its own.
TEST_F(MutableBloomSaveTest, RefusesForgedFieldsNamingThem) {
  MutableBloomFilter filter = Make(FilterOptions::BitsPerKey(10), 40);
  filter.Add("hello");
  const std::string saved = filter.Save();
  ASSERT_TRUE(MutableBloomFilter::Restore(Forge(saved, 0, "")).ok());
  ExpectRefused(Forge(saved, kProbesAt, std::string(1, '\0')),
                "probe count 0 outside [1, 30]");
  ExpectRefused(Forge(saved, kProbesAt, "\x1f"),
                "probe count 31 outside [1, 30]");
  ExpectRefused(Forge(saved, kExpectedKeysAt, Fixed64Bytes(0)),
                "expected keys 0");
  ExpectRefused(Forge(saved, kBitsPerKeyAt, DoubleBytes(std::nan(""))),
                "bits/key nan outside [1, 100]");
  ExpectRefused(Forge(saved, kBitsPerKeyAt,
                      DoubleBytes(std::numeric_limits<double>::infinity())),
                "bits/key inf outside");
  ExpectRefused(Forge(saved, kBitsPerKeyAt, DoubleBytes(0.5)),
                "bits/key 0.5 outside");
  ExpectRefused(Forge(saved, kFlagsAt, "\x03"), "unknown flags 0x3");
  ExpectRefused(Forge(saved, kZerosAt + 5, "\x01"), "nonzero reserved bytes");
  // One block is what 40 keys at 10 bits/key make.
  ExpectRefused(Forge(saved, kBlocksAt, Fixed64Bytes(2)),
                "2 blocks, but 40 keys at 10 bits/key make 1");
  // 100 keys at 10 bits/key make 2 blocks: consistent, but the body is one.
  ExpectRefused(Forge(Forge(saved, kBlocksAt, Fixed64Bytes(2)), kExpectedKeysAt,
                      Fixed64Bytes(100)),
                "truncated: a body of 128 bytes, 64 left");
  ExpectRefused(Forge(saved, kExpectedKeysAt, Fixed64Bytes(uint64_t{1} << 62)),
                "kMaxMutableBloomBytes");
  ExpectRefused(Forge(saved, saved.size() - 4, "extra"),
                "5 bytes after the last field");
  // The total says fewer bytes than the fields need.
  ExpectRefused(Forge(saved.substr(0, kProbesAt) + "crc.", kProbesAt, ""),
                "truncated: 16 bytes, fewer than the 32 of a filter's shape");
  ExpectRefused(Forge(saved.substr(0, 16) + "crc.", 16, ""),
                "truncated: 0 bytes, fewer than the 32");
}

TEST_F(MutableBloomSaveTest, GoldenBytes) {
  MutableBloomFilter tiny = Make(FilterOptions::BitsPerKey(10), 2);
  tiny.Add("hello");
  tiny.Add("world");
  test::CheckGolden(
      kRegenerate, "{hello, world}", absl::BytesToHexString(tiny.Save()),
      "5346535601010000740000000000000002000000000000000000000000002440"
      "0601000000000000010000000000000000000000000040000000000000020000"
      "0000000000002000040000100000000800000000100008001040000004000000"
      "00000080000000000000000000000000f03cd717");
  MutableBloomFilter v1 = Make(test::Version1(FilterOptions::Fpp(0.01)), 60);
  for (const std::string& key : Keys16(0, 0, 60)) v1.Add(key);
  test::CheckGolden(
      kRegenerate, "version 1, 60 keys", absl::BytesToHexString(v1.Save()),
      "5346535601010000b4000000000000003c000000000000000000df8a02d62340"
      "060000000000000002000000000000007dda12940027098071352e0060471241"
      "01b782118de88461d40740d342da130020c0c1f401a80873540824c01c484918"
      "840c5f49d23343d3523531105648888b3800482c42509443011201442890dc80"
      "3107171020c233909021008081058531888010002821093065428a0008804482"
      "26205000232000180a9cc10880810006ca9e869f");
}

}  // namespace
}  // namespace sstfilter
