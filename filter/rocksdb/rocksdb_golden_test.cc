// Golden bytes of the RocksDB Bloom policies (rocksdb_bloom.h): any change to
// a value below is a change of RocksDB's on-disk format as we write it.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "filter/filter_policy.h"
#include "filter/rocksdb/rocksdb_bloom.h"
#include "filter/rocksdb/rocksdb_test_util.h"
#include "gtest/gtest.h"
#include "util/hash.h"
#include "util/testing/golden.h"

namespace sstfilter {
namespace rocksdb_test {
namespace {

// Golden values below are part of the on-disk format (RocksDB's: the
// differential test checks the same bytes against RocksDB). To regenerate them
// after a deliberate change: set kRegenerate to true, run
//   bazel test //filter/rocksdb:rocksdb_golden_test --test_output=all
// paste the printed values, and set it back (while it is on, the test fails).
constexpr bool kRegenerate = false;

// Frozen from filters verified byte-identical to RocksDB 7.8.3's: the bytes of
// a small filter, then for the keys "key0".."key999", Hash64 (util/hash.h) of
// the whole filter, its size, and the first false positives among "absent0",
// "absent1", ... .
TEST(RocksDbBloomGoldenTest, SmallFilterBytes) {
  // No keys: the trailer alone.
  test::CheckGolden(
      kRegenerate, "FastLocalBloom {}",
      absl::BytesToHexString(BuildFilter(
          *MakePolicy(Format::kFastLocalBloom, FilterOptions::BitsPerKey(10)),
          {})),
      std::string("ff00060000"));
  test::CheckGolden(
      kRegenerate, "LegacyBloom {}",
      absl::BytesToHexString(BuildFilter(
          *MakePolicy(Format::kLegacyBloom, FilterOptions::BitsPerKey(10)),
          {})),
      std::string("0600000000"));

  const std::vector<std::string> keys = {"hello", "world"};
  const std::string fast = BuildFilter(
      *MakePolicy(Format::kFastLocalBloom, FilterOptions::BitsPerKey(10)),
      keys);
  const std::string legacy = BuildFilter(
      *MakePolicy(Format::kLegacyBloom, FilterOptions::BitsPerKey(10)), keys);
  // One 64-byte line; trailer FF 00 06 00 00.
  test::CheckGolden(
      kRegenerate, "FastLocalBloom {hello, world}",
      absl::BytesToHexString(fast),
      std::string("00000001004100000000000002000002000200008000000000000000"
                  "000000000000000000000000020800000000400000000000000040000000"
                  "080000000000ff00060000"));
  // 20 bits in one 64-byte line (an odd count); trailer 06, fixed32 1.
  test::CheckGolden(
      kRegenerate, "LegacyBloom {hello, world}", absl::BytesToHexString(legacy),
      std::string("00000001000000000040004000000000100000000000000000000000"
                  "000000100000000004000000010000000000400000000000001000000100"
                  "0000440000000601000000"));
}

struct FilterGolden {
  Format format;
  double bits_per_key;
  uint64_t filter_hash;
  size_t filter_size;
  std::vector<int> first_false_positives;
};

std::vector<FilterGolden> FilterGoldens() {
  return {
      {Format::kFastLocalBloom, 1, 0xa9dcf96c59fb0317, 133, {0, 1, 3, 5, 8}},
      {Format::kFastLocalBloom, 5, 0x0ab728f090b2d5cb, 645, {0, 1, 7, 8, 14}},
      {Format::kFastLocalBloom,
       9.5,
       0x89eeea64fc6c253b,
       1221,
       {5, 72, 413, 458, 663}},
      {Format::kFastLocalBloom,
       10,
       0xb3a1887ce94dc851,
       1285,
       {75, 318, 369, 458, 594}},
      {Format::kFastLocalBloom,
       23.4,
       0xf5c948c0334cacf7,
       2949,
       {54583, 90717, 91423, 114941, 124371}},
      {Format::kFastLocalBloom, 50, 0x0c64afa6ecd5470d, 6277, {}},
      {Format::kLegacyBloom, 1, 0xb011142b077d4656, 197, {1, 2, 5, 6, 7}},
      {Format::kLegacyBloom, 5, 0x5d58277398e97246, 709, {7, 55, 68, 69, 82}},
      {Format::kLegacyBloom,
       10,
       0x38df3f1e4c5398c7,
       1349,
       {32, 67, 709, 790, 792}},
      {Format::kLegacyBloom,
       23.4,
       0x5214c72c41e0d52c,
       2885,
       {465, 988, 1209, 1967, 2119}},
      {Format::kLegacyBloom,
       50,
       0x258e8a2ca44cb77d,
       6341,
       {465, 698, 988, 1209, 2065}},
  };
}

TEST(RocksDbBloomGoldenTest, WholeFilters) {
  std::vector<std::string> keys;
  for (int i = 0; i < 1000; ++i) keys.push_back(absl::StrCat("key", i));
  for (const FilterGolden& golden : FilterGoldens()) {
    const std::unique_ptr<const FilterPolicy> policy = MakePolicy(
        golden.format, FilterOptions::BitsPerKey(golden.bits_per_key));
    const std::string filter = BuildFilter(*policy, keys);
    const std::unique_ptr<FilterReader> reader = policy->NewReader(filter);
    std::vector<int> false_positives;
    for (int i = 0; false_positives.size() < 5 && i < 1000000; ++i) {
      if (reader->MayMatch(absl::StrCat("absent", i))) {
        false_positives.push_back(i);
      }
    }
    test::CheckGolden(
        kRegenerate,
        absl::StrCat(FormatName(golden.format), " at ", golden.bits_per_key),
        test::FilterGoldenRow(Hash64(filter), filter.size(), false_positives),
        test::FilterGoldenRow(golden.filter_hash, golden.filter_size,
                              golden.first_false_positives));
  }
}

}  // namespace
}  // namespace rocksdb_test
}  // namespace sstfilter
