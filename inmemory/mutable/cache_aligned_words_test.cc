#include "inmemory/mutable/cache_aligned_words.h"

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace mutable_internal {
namespace {

constexpr uint64_t kHugePageBytes = uint64_t{2} << 20;

// The VmFlags line of /proc/self/smaps for the mapping holding address, or ""
// where there is no such file.
std::string VmFlagsOf(uintptr_t address) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    const std::vector<std::string> fields = absl::StrSplit(line, ' ');
    const std::vector<std::string> range = absl::StrSplit(fields[0], '-');
    uint64_t begin = 0;
    uint64_t end = 0;
    if (range.size() == 2 && absl::SimpleHexAtoi(range[0], &begin) &&
        absl::SimpleHexAtoi(range[1], &end)) {
      inside = begin <= address && address < end;
    } else if (inside && absl::StartsWith(line, "VmFlags:")) {
      return line;
    }
  }
  return "";
}

// VmFlagsOf(address), or "" where the kernel has no transparent huge pages.
std::string VmFlagsWhereHugePagesExist(uintptr_t address) {
  if (!std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled")) return "";
  return VmFlagsOf(address);
}

// MADV_HUGEPAGE shows as "hg" in a mapping's flags.
bool AskedForHugePages(const std::string& flags) {
  return absl::StrContains(flags + " ", " hg ");
}

TEST(CacheAlignedWordsTest, SmallArraysStartOnACacheLineAndAreZero) {
  absl::StatusOr<CacheAlignedWords> words = CacheAlignedWords::Allocate(8 * 3);
  ASSERT_TRUE(words.ok()) << words.status();
  EXPECT_EQ(reinterpret_cast<uintptr_t>(words->data()) % 64, 0u);
  for (uint64_t i = 0; i < words->size(); ++i) EXPECT_EQ(words->data()[i], 0u);
}

TEST(CacheAlignedWordsTest, LargeArraysStartOnAHugePageAndAskForHugePages) {
  const uint64_t num_words = 3 * kHugePageBytes / 8 + 8;
  absl::StatusOr<CacheAlignedWords> words =
      CacheAlignedWords::Allocate(num_words);
  ASSERT_TRUE(words.ok()) << words.status();
  const auto address = reinterpret_cast<uintptr_t>(words->data());
  EXPECT_EQ(address % kHugePageBytes, 0u);
  EXPECT_EQ(words->data()[num_words - 1], 0u);
  const std::string flags = VmFlagsWhereHugePagesExist(address);
  if (flags.empty()) GTEST_SKIP() << "no transparent huge pages or smaps here";
  EXPECT_TRUE(AskedForHugePages(flags)) << flags;
}

TEST(CacheAlignedWordsTest, ALastPartialHugePageAsksForOneWhenCheap) {
  // 3.5 huge pages: rounding up to 4 costs a seventh more, within a quarter.
  const uint64_t num_words = 7 * kHugePageBytes / 2 / 8;
  absl::StatusOr<CacheAlignedWords> words =
      CacheAlignedWords::Allocate(num_words);
  ASSERT_TRUE(words.ok()) << words.status();
  EXPECT_EQ(words->data()[num_words - 1], 0u);
  const std::string flags = VmFlagsWhereHugePagesExist(
      reinterpret_cast<uintptr_t>(&words->data()[num_words - 1]));
  if (flags.empty()) GTEST_SKIP() << "no transparent huge pages or smaps here";
  EXPECT_TRUE(AskedForHugePages(flags)) << flags;
}

TEST(CacheAlignedWordsTest, RefusesCountsThatAreNotWholeCacheLines) {
  EXPECT_EQ(CacheAlignedWords::Allocate(0).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CacheAlignedWords::Allocate(9).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace mutable_internal
}  // namespace sstfilter
