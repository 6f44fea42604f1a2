// CountingBloomFilter::Save and Restore: a restored filter equals the saved
// one (counters, counts, answers, statistics), and Add and Remove carry on as
// in the original, saturated counters included; every damaged, truncated,
// foreign or forged input is a DataLossError naming the problem; and the bytes
// of a small filter are pinned.
//
// To regenerate the golden values after a deliberate change of the saved
// layout (which needs a new format version, filter/internal/saved_filter.h):
// set kRegenerate to true, run
//   bazel test //inmemory/counting:counting_bloom_save_test --test_output=all
// paste the printed values, and set it back.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "filter/filter_policy.h"
#include "filter/testing/filter_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "inmemory/counting/counting_bloom.h"
#include "inmemory/counting/counting_layout.h"
#include "inmemory/mutable/mutable_bloom.h"
#include "inmemory/testing/saved_filters.h"
#include "util/testing/golden.h"

namespace sstfilter {
namespace {

using ::sstfilter::test::Fixed64Bytes;
using ::sstfilter::test::Forge;
using ::sstfilter::test::Keys16;
using CountingBloomSaveTest = test::SavedFilterTest<CountingBloomFilter>;

constexpr bool kRegenerate = false;

// Where the fields of a saved CountingBloomFilter sit
// (inmemory/counting/README.md).
constexpr size_t kExpectedKeysAt = 16;
constexpr size_t kNumKeysAt = 24;
constexpr size_t kSaturatedAt = 32;
constexpr size_t kProbesAt = 40;
constexpr size_t kZerosAt = 41;
constexpr size_t kBlocksAt = 48;
constexpr size_t kCountersAt = 56;

CountingBloomFilter Make(const FilterOptions& options, uint64_t expected_keys) {
  absl::StatusOr<CountingBloomFilter> filter =
      CountingBloomFilter::Create(options, expected_keys);
  EXPECT_TRUE(filter.ok()) << filter.status();
  return *std::move(filter);
}

// Every key of set 0 below `added` and as many of set 1.
std::vector<std::string> QueryKeys(uint64_t added) {
  std::vector<std::string> keys = Keys16(0, 0, added);
  const std::vector<std::string> absent = Keys16(1, 0, added + 1000);
  keys.insert(keys.end(), absent.begin(), absent.end());
  return keys;
}

TEST_F(CountingBloomSaveTest, RestoredFiltersEqualTheSavedOnes) {
  const FilterOptions options[] = {
      FilterOptions::Fpp(0.01), FilterOptions::Fpp(0.2),
      FilterOptions::BitsPerKey(1), FilterOptions::BitsPerKey(100)};
  for (const FilterOptions& option : options) {
    for (uint64_t expected : {0, 1, 100, 3000}) {
      SCOPED_TRACE(absl::StrCat(expected, " expected, ", option.fpp.value_or(0),
                                " fpp, ", option.bits_per_key.value_or(0),
                                " counters"));
      CountingBloomFilter filter = Make(option, expected);
      // Twice the expected keys, then every third removed.
      const uint64_t added = 2 * expected + 3;
      const std::vector<std::string> keys = Keys16(0, 0, added);
      for (const std::string& key : keys) filter.Add(key);
      for (size_t i = 0; i < keys.size(); i += 3) filter.Remove(keys[i]);
      CountingBloomFilter restored =
          ExpectRestoresAlike(filter, QueryKeys(added));
      // Both go on alike: removes of the remaining keys, adds of new ones.
      for (size_t i = 1; i < keys.size(); i += 3) {
        ASSERT_EQ(restored.Remove(keys[i]), filter.Remove(keys[i]));
      }
      for (const std::string& key : Keys16(2, 0, expected)) {
        filter.Add(key);
        restored.Add(key);
      }
      EXPECT_TRUE(restored == filter);
      for (size_t i = 2; i < keys.size(); i += 3) {
        ASSERT_TRUE(restored.MayContain(keys[i]));
      }
    }
  }
}

TEST_F(CountingBloomSaveTest, SaturatedCountersStaySaturated) {
  // One block: a key added 20 times saturates its counters.
  CountingBloomFilter filter = Make(FilterOptions::BitsPerKey(10), 1);
  for (int i = 0; i < 20; ++i) filter.Add("hot");
  filter.Add("cold");
  ASSERT_GT(filter.NumSaturated(), 0u);
  CountingBloomFilter restored = ExpectRestoresAlike(filter, QueryKeys(10));
  for (int i = 0; i < 20; ++i) {
    ASSERT_EQ(restored.Remove("hot"), filter.Remove("hot"));
  }
  EXPECT_TRUE(restored.MayContain("hot"));  // saturated: never back to zero
  EXPECT_TRUE(restored.Remove("cold"));
  EXPECT_TRUE(filter.Remove("cold"));
  EXPECT_TRUE(restored == filter);
  EXPECT_EQ(restored.NumKeys(), 0u);
}

TEST_F(CountingBloomSaveTest, EveryTruncationAndBitFlipIsDataLoss) {
  CountingBloomFilter filter = Make(FilterOptions::BitsPerKey(10), 10);
  for (const std::string& key : Keys16(0, 0, 8)) filter.Add(key);
  for (int i = 0; i < 16; ++i) filter.Add("hot");  // a saturated counter
  ASSERT_GT(filter.NumSaturated(), 0u);
  ExpectDamageRefused(filter.Save());
}

TEST_F(CountingBloomSaveTest, RefusesForeignAndDamagedBytes) {
  CountingBloomFilter filter = Make(FilterOptions::Fpp(0.01), 10);
  filter.Add("hello");
  const std::string saved = filter.Save();
  ExpectEnvelopeRefusals<MutableBloomFilter>(
      saved, /*cut=*/37, /*damaged_at=*/kCountersAt + 1, /*flip=*/2);
}

TEST_F(CountingBloomSaveTest, RefusesForgedFieldsNamingThem) {
  // 100 keys at 10 counters/key: 8 blocks.
  CountingBloomFilter filter = Make(FilterOptions::BitsPerKey(10), 100);
  for (const std::string& key : Keys16(0, 0, 50)) filter.Add(key);
  const std::string saved = filter.Save();
  ASSERT_TRUE(CountingBloomFilter::Restore(Forge(saved, 0, "")).ok());
  const int k = filter.NumProbes();
  ExpectRefused(Forge(saved, kExpectedKeysAt, Fixed64Bytes(0)),
                "expected keys 0");
  ExpectRefused(Forge(saved, kProbesAt, std::string(1, '\0')),
                "probe count 0 outside [1, 30]");
  ExpectRefused(Forge(saved, kProbesAt, "\xff"),
                "probe count 255 outside [1, 30]");
  ExpectRefused(Forge(saved, kZerosAt + 6, "\x01"), "nonzero reserved bytes");
  // 100 keys take 1 to 79 blocks at 1 to 100 counters/key.
  ExpectRefused(Forge(saved, kBlocksAt, Fixed64Bytes(80)),
                "80 blocks, outside the 1 to 79 that 100 keys at 1 to 100 "
                "counters/key make");
  ExpectRefused(Forge(saved, kExpectedKeysAt, Fixed64Bytes(10000)),
                "8 blocks, outside the 79 to 7813");
  ExpectRefused(Forge(saved, kBlocksAt, Fixed64Bytes(9)),
                "576 bytes of counters expected, 512 present");
  ExpectRefused(Forge(saved, saved.size() - 4, "more"),
                "512 bytes of counters expected, 516 present");
  ExpectRefused(Forge(saved, kSaturatedAt, Fixed64Bytes(1)),
                "1 saturated counters recorded, 0 at 15");
  ExpectRefused(Forge(saved, kNumKeysAt, Fixed64Bytes(51)),
                absl::StrCat("counters sum to ", 50 * k, ", not 51 keys times ",
                             k, " probes"));
  // A counter raised to 15 and recorded as saturated: consistent, accepted
  // (the key count cannot be checked once a counter has saturated).
  std::string raised(1, static_cast<char>(saved[kCountersAt] | 0x0f));
  const absl::StatusOr<CountingBloomFilter> saturated =
      CountingBloomFilter::Restore(Forge(Forge(saved, kCountersAt, raised),
                                         kSaturatedAt, Fixed64Bytes(1)));
  ASSERT_TRUE(saturated.ok()) << saturated.status();
  EXPECT_EQ(saturated->NumSaturated(), 1u);
  for (uint64_t keys : {uint64_t{0}, uint64_t{1} << 40, ~uint64_t{0}}) {
    const absl::StatusOr<CountingBloomFilter> counted =
        CountingBloomFilter::Restore(
            Forge(Forge(Forge(saved, kCountersAt, raised), kSaturatedAt,
                        Fixed64Bytes(1)),
                  kNumKeysAt, Fixed64Bytes(keys)));
    ASSERT_TRUE(counted.ok()) << counted.status();
    EXPECT_GE(counted->ExpectedFpp(), 0.0) << keys;
    EXPECT_LE(counted->ExpectedFpp(), 1.0) << keys;
  }
  ExpectRefused(Forge(saved, kCountersAt, raised),
                "0 saturated counters recorded, 1 at 15");
  ExpectRefused(Forge(saved.substr(0, kBlocksAt) + "crc.", kBlocksAt, ""),
                "truncated: 32 bytes, fewer than the 40 of the sizes and "
                "counts");
}

TEST_F(CountingBloomSaveTest, GoldenBytes) {
  CountingBloomFilter tiny = Make(FilterOptions::BitsPerKey(10), 2);
  tiny.Add("hello");
  tiny.Add("world");
  tiny.Add("world");
  ASSERT_TRUE(tiny.Remove("hello"));
  test::CheckGolden(
      kRegenerate, "{world, world}", absl::BytesToHexString(tiny.Save()),
      "53465356010300007c0000000000000002000000000000000200000000000000"
      "0000000000000000060000000000000001000000000000000000000000002000"
      "0000000000020000000000000000000000000000000000000000000000000200"
      "002000000200000000000020000000000000000000000000856358ea");
}

}  // namespace
}  // namespace sstfilter
