// ScalableBloomFilter::Save and Restore: a restored filter of several layers
// answers and measures as the saved one and goes on growing exactly as it
// would have; a full filter's error is not saved; every damaged, truncated,
// foreign or forged input is a DataLossError naming the problem; and the bytes
// of a small filter are pinned.
//
// To regenerate the golden values after a deliberate change of the saved
// layout (which needs a new format version, filter/internal/saved_filter.h):
// set kRegenerate to true, run
//   bazel test //inmemory/mutable:scalable_bloom_save_test --test_output=all
// paste the printed values, and set it back.

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "filter/testing/filter_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "inmemory/mutable/mutable_bloom.h"
#include "inmemory/mutable/scalable_bloom.h"
#include "inmemory/testing/saved_filters.h"
#include "util/testing/golden.h"

namespace sstfilter {
namespace {

using ::sstfilter::test::DoubleBytes;
using ::sstfilter::test::Fixed64Bytes;
using ::sstfilter::test::Forge;
using ::sstfilter::test::Keys16;
using ::testing::HasSubstr;
using ScalableBloomSaveTest = test::SavedFilterTest<ScalableBloomFilter>;

constexpr bool kRegenerate = false;

// Where the fields of a saved ScalableBloomFilter sit
// (inmemory/mutable/README.md): the options, the layer count, then layer 0.
constexpr size_t kFppAt = 16;
constexpr size_t kInitialKeysAt = 24;
constexpr size_t kGrowthAt = 32;
constexpr size_t kTighteningAt = 40;
constexpr size_t kLayersAt = 48;
constexpr size_t kFirstLayerAt = 56;
// Within a layer: its key count, then a MutableBloomFilter's shape and body.
constexpr size_t kLayerExpectedKeysAt = 8;
constexpr size_t kLayerFlagsAt = 25;
constexpr size_t kLayerBlocksAt = 32;
constexpr size_t kLayerBodyAt = 40;

std::unique_ptr<ScalableBloomFilter> Make(uint64_t initial_keys,
                                          double growth = 2.0,
                                          double tightening = 0.5,
                                          double fpp = 0.01) {
  ScalableBloomOptions options;
  options.fpp = fpp;
  options.initial_keys = initial_keys;
  options.growth = growth;
  options.tightening = tightening;
  absl::StatusOr<std::unique_ptr<ScalableBloomFilter>> filter =
      ScalableBloomFilter::Create(options);
  EXPECT_TRUE(filter.ok()) << filter.status();
  return *std::move(filter);
}

void AddAll(ScalableBloomFilter& filter, const std::vector<std::string>& keys) {
  for (const std::string& key : keys) ASSERT_TRUE(filter.Add(key).ok());
}

// The offset of layer i's fields in filter's saved bytes.
size_t LayerAt(const ScalableBloomFilter& filter, size_t i) {
  size_t at = kFirstLayerAt;
  for (size_t l = 0; l < i; ++l) {
    at += kLayerBodyAt + filter.Layers()[l].memory_bytes;
  }
  return at;
}

TEST_F(ScalableBloomSaveTest, SeveralLayersRestoreAndGrowAsSaved) {
  const struct {
    uint64_t initial_keys;
    double growth;
    double tightening;
    uint64_t keys;
  } kCases[] = {
      {100, 2.0, 0.5, 0},     {100, 2.0, 0.5, 50}, {100, 2.0, 0.5, 100},
      {100, 2.0, 0.5, 2000},  {7, 1.5, 0.8, 600},  {1, 4.0, 0.3, 300},
      {1000, 1.0, 0.9, 2500},
  };
  for (const auto& c : kCases) {
    SCOPED_TRACE(absl::StrCat(c.initial_keys, " initial, growth ", c.growth,
                              ", tightening ", c.tightening, ", ", c.keys,
                              " keys"));
    std::unique_ptr<ScalableBloomFilter> filter =
        Make(c.initial_keys, c.growth, c.tightening);
    AddAll(*filter, Keys16(0, 0, c.keys));
    std::vector<std::string> keys = Keys16(0, 0, c.keys);
    const std::vector<std::string> absent = Keys16(1, 0, 3000);
    keys.insert(keys.end(), absent.begin(), absent.end());
    std::unique_ptr<ScalableBloomFilter> restored =
        ExpectRestoresAlike(*filter, keys);

    // The same keys added to both: the same answers, layers made at the same
    // key, every layer within its capacity, the same bytes.
    const std::vector<std::string> more = Keys16(0, c.keys, 3 * c.keys + 50);
    for (const std::string& key : more) {
      const absl::StatusOr<bool> added = filter->Add(key);
      const absl::StatusOr<bool> restored_added = restored->Add(key);
      ASSERT_TRUE(added.ok() && restored_added.ok());
      ASSERT_EQ(*added, *restored_added);
      ASSERT_EQ(filter->NumLayers(), restored->NumLayers());
      ASSERT_TRUE(restored->MayContain(key));
    }
    for (const ScalableBloomFilter::LayerInfo& layer : restored->Layers()) {
      EXPECT_LE(layer.keys, layer.capacity);
    }
    keys.insert(keys.end(), more.begin(), more.end());
    const absl::Status alike =
        test::CheckRestored(*filter, *restored, /*saved=*/filter->Save(), keys);
    EXPECT_TRUE(alike.ok()) << alike;
  }
}

TEST_F(ScalableBloomSaveTest, AFullNewestLayerGrowsOnTheNextKey) {
  std::unique_ptr<ScalableBloomFilter> filter = Make(50);
  // Keys until the first layer holds its capacity (a key it already matched
  // is not added, so a few more than 50 may be needed).
  uint64_t next = 0;
  while (filter->Layers()[0].keys < 50) {
    ASSERT_TRUE(filter->Add(Keys16(0, next++, 1)[0]).ok());
  }
  ASSERT_EQ(filter->NumLayers(), 1u);
  std::unique_ptr<ScalableBloomFilter> restored =
      test::MustRestore<ScalableBloomFilter>(filter->Save());
  EXPECT_EQ(restored->Layers()[0].keys, 50u);
  // The next new key makes layer 1.
  for (;; ++next) {
    const std::string key = Keys16(0, next, 1)[0];
    if (restored->MayContain(key)) continue;
    ASSERT_TRUE(*restored->Add(key));
    break;
  }
  EXPECT_EQ(restored->NumLayers(), 2u);
  EXPECT_EQ(restored->Layers()[1].keys, 1u);
}

// The sticky error is not saved: a restored filter tries to grow again, and
// with every layer in use fails again the same way.
TEST_F(ScalableBloomSaveTest, AFullFiltersErrorIsMetAgainNotSaved) {
  std::unique_ptr<ScalableBloomFilter> filter = Make(1, 1.0, 0.9);
  absl::Status full;
  for (uint64_t i = 0; full.ok(); ++i) {
    full = filter->Add(Keys16(0, i, 1)[0]).status();
  }
  ASSERT_EQ(filter->NumLayers(), kMaxScalableLayers);
  ASSERT_TRUE(absl::IsResourceExhausted(full)) << full;
  const std::vector<std::string> absent = Keys16(1, 0, 1000);
  std::unique_ptr<ScalableBloomFilter> restored =
      ExpectRestoresAlike(*filter, absent);
  EXPECT_EQ(restored->NumLayers(), kMaxScalableLayers);
  for (const std::string& key : absent) {
    if (restored->MayContain(key)) continue;
    const absl::StatusOr<bool> added = restored->Add(key);
    EXPECT_TRUE(absl::IsResourceExhausted(added.status())) << added.status();
    EXPECT_THAT(std::string(added.status().message()),
                HasSubstr("kMaxScalableLayers"));
    break;
  }
}

TEST_F(ScalableBloomSaveTest, EveryTruncationAndBitFlipIsDataLoss) {
  std::unique_ptr<ScalableBloomFilter> filter = Make(2);
  AddAll(*filter, Keys16(0, 0, 4));
  ASSERT_EQ(filter->NumLayers(), 2u);
  ExpectDamageRefused(filter->Save());
}

TEST_F(ScalableBloomSaveTest, RefusesForeignAndDamagedBytes) {
  std::unique_ptr<ScalableBloomFilter> filter = Make(10);
  ASSERT_TRUE(filter->Add("hello").ok());
  const std::string saved = filter->Save();
  ExpectEnvelopeRefusals<MutableBloomFilter>(
      saved, /*cut=*/60, /*damaged_at=*/saved.size() - 10, /*flip=*/1);
}

TEST_F(ScalableBloomSaveTest, RefusesForgedFieldsNamingThem) {
  std::unique_ptr<ScalableBloomFilter> filter = Make(4);
  AddAll(*filter, Keys16(0, 0, 10));
  ASSERT_EQ(filter->NumLayers(), 2u);
  const std::string saved = filter->Save();
  ASSERT_TRUE(ScalableBloomFilter::Restore(Forge(saved, 0, "")).ok());
  ExpectRefused(Forge(saved, kFppAt, DoubleBytes(1.5)),
                "ScalableBloomOptions: fpp must be in (0, 1), got 1.5");
  ExpectRefused(Forge(saved, kFppAt, DoubleBytes(std::nan(""))), "got nan");
  ExpectRefused(Forge(saved, kInitialKeysAt, Fixed64Bytes(0)),
                "initial_keys must be at least 1, got 0");
  ExpectRefused(Forge(saved, kGrowthAt, DoubleBytes(0.5)),
                "growth must be a finite number at least 1, got 0.5");
  ExpectRefused(Forge(saved, kTighteningAt, DoubleBytes(1)),
                "tightening must be in (0, 1), got 1");
  ExpectRefused(Forge(saved, kLayersAt, Fixed64Bytes(0)),
                "layer count 0 outside [1, 64]");
  ExpectRefused(Forge(saved, kLayersAt, Fixed64Bytes(65)),
                "layer count 65 outside [1, 64]");
  // One layer said, two present.
  ExpectRefused(Forge(saved, kLayersAt, Fixed64Bytes(1)),
                "bytes after the last field");
  // Three layers said: layer 1 must then be full, and layer 2 is missing.
  ExpectRefused(Forge(saved, kLayersAt, Fixed64Bytes(3)),
                "layer 1: 6 keys of 8, yet a newer layer exists");
  ExpectRefused(Forge(Forge(saved, kLayersAt, Fixed64Bytes(3)),
                      LayerAt(*filter, 1), Fixed64Bytes(8)),
                "layer 2: truncated: no key count");
  // Layer 0 holds 4 keys of 4, layer 1 some of 8.
  ExpectRefused(Forge(saved, kFirstLayerAt, Fixed64Bytes(3)),
                "layer 0: 3 keys of 4, yet a newer layer exists");
  ExpectRefused(Forge(saved, kFirstLayerAt, Fixed64Bytes(5)),
                "layer 0: 5 keys, more than its capacity of 4");
  const size_t second = LayerAt(*filter, 1);
  ExpectRefused(Forge(saved, second, Fixed64Bytes(9)),
                "layer 1: 9 keys, more than its capacity of 8");
  // A layer's own fields, checked as MutableBloomFilter::Restore checks them.
  ExpectRefused(Forge(saved, second + kLayerBlocksAt, Fixed64Bytes(0)),
                "layer 1: 0 blocks, but 8 keys");
  ExpectRefused(Forge(saved, second + kLayerFlagsAt, std::string(1, '\0')),
                "layer 1: saved without self_checksum");
  // Capacities follow the options: growth 3 makes layer 1 hold 12 keys.
  ExpectRefused(Forge(saved, kGrowthAt, DoubleBytes(3)),
                "layer 1: sized for 8 keys, but the options give it a "
                "capacity of 12");
  ExpectRefused(
      Forge(saved, kFirstLayerAt + kLayerExpectedKeysAt, Fixed64Bytes(5)),
      "layer 0: sized for 5 keys, but the options give it a "
      "capacity of 4");
  // At growth 10^300 layer 1 would hold more keys than a layer can.
  ExpectRefused(Forge(saved, kGrowthAt, DoubleBytes(1e300)),
                "layer 1 would hold 4e+300 keys, more than 2^63");
}

TEST_F(ScalableBloomSaveTest, GoldenBytes) {
  std::unique_ptr<ScalableBloomFilter> tiny = Make(1);
  ASSERT_TRUE(tiny->Add("hello").ok());
  ASSERT_TRUE(tiny->Add("world").ok());
  ASSERT_EQ(tiny->NumLayers(), 2u);
  test::CheckGolden(
      kRegenerate, "{hello, world}, 2 layers",
      absl::BytesToHexString(tiny->Save()),
      "53465356010200000c010000000000007b14ae47e17a843f0100000000000000"
      "0000000000000040000000000000e03f02000000000000000100000000000000"
      "010000000000000000003eee744f274007010000000000000100000000000000"
      "0000000000000000000000000000000000000000000020000400401000000008"
      "0000000010000000100000000000000000000000000000000000000000000000"
      "010000000000000002000000000000000000c08e7fac2a400801000000000000"
      "0100000000000000000000000000400000000000000200000000000000000001"
      "0000000000000000000000000000080000400000040000040000008000000000"
      "00000000000000000b23ae24");
}

}  // namespace
}  // namespace sstfilter
