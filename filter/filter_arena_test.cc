#include "filter/filter_arena.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

constexpr size_t kMiB = size_t{1} << 20;

// The mode in /sys/kernel/mm/transparent_hugepage/enabled, the bracketed word
// ("always", "madvise" or "never"); empty where the file does not exist.
std::string TransparentHugePageMode() {
  std::ifstream file("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  std::getline(file, line);
  const size_t open = line.find('[');
  const size_t close = line.find(']');
  if (open == std::string::npos || close == std::string::npos) return "";
  return line.substr(open + 1, close - open - 1);
}

TEST(FilterArenaTest, CopiesAreAlignedAndKeepTheirBytes) {
  test::Random rng(7);
  FilterArena arena;
  // Sizes across every case: empty, under a line, lines, across a region's
  // end, and larger than a region.
  const std::vector<size_t> sizes = {0,        1,        63,       64,
                                     65,       12'345,   kMiB / 3, kMiB,
                                     kMiB + 1, 3 * kMiB, 100,      5 * kMiB};
  std::vector<std::string> originals;
  std::vector<absl::string_view> copies;
  for (int round = 0; round < 4; ++round) {
    for (size_t size : sizes) {
      originals.push_back(rng.Bytes(size));
      copies.push_back(arena.Copy(originals.back()));
    }
  }
  size_t held = 0;
  for (size_t i = 0; i < copies.size(); ++i) {
    EXPECT_EQ(
        reinterpret_cast<uintptr_t>(copies[i].data()) % FilterArena::kAlignment,
        0u)
        << i;
    // Later copies must not have overwritten earlier ones.
    EXPECT_EQ(copies[i], originals[i]) << i;
    held += originals[i].size();
  }
  // Doubling regions: what is mapped stays within twice what is held plus
  // one region.
  EXPECT_GE(arena.MappedBytes(), held);
  EXPECT_LE(arena.MappedBytes(), 2 * held + FilterArena::kHugePageBytes);
}

TEST(FilterArenaTest, AllocationsDoNotOverlap) {
  FilterArena arena;
  std::vector<std::pair<char*, size_t>> blocks;
  for (size_t size = 0; size < 300'000; size = size * 3 + 17) {
    char* at = arena.Allocate(size);
    std::memset(at, 0xab, size);
    blocks.emplace_back(at, size);
  }
  std::sort(blocks.begin(), blocks.end());
  for (size_t i = 1; i < blocks.size(); ++i) {
    EXPECT_NE(blocks[i - 1].first, blocks[i].first);
    EXPECT_LE(blocks[i - 1].first + blocks[i - 1].second, blocks[i].first);
  }
}

TEST(FilterArenaTest, ThreadsCopyIntoOneArena) {
  FilterArena arena;
  constexpr int kThreads = 4;
  constexpr int kCopiesPerThread = 200;
  std::vector<std::vector<std::pair<std::string, absl::string_view>>> copies(
      kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      test::Random rng(100 + t);
      for (int i = 0; i < kCopiesPerThread; ++i) {
        std::string bytes = rng.Bytes(rng.Uniform(40'000));
        const absl::string_view copy = arena.Copy(bytes);
        copies[t].emplace_back(std::move(bytes), copy);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    for (const auto& [original, copy] : copies[t]) {
      ASSERT_EQ(copy, original) << "thread " << t;
    }
  }
}

TEST(FilterArenaTest, HugePagesOnlyWhenAskedFor) {
  const std::string mode = TransparentHugePageMode();
  if (mode != "madvise" && mode != "always") {
    GTEST_SKIP() << "transparent huge pages are '" << mode << "' here";
  }
  test::Random rng(11);
  const std::string filter = rng.Bytes(8 * kMiB);

  FilterArena advised;
  EXPECT_EQ(advised.Copy(filter), filter);
  // The kernel grants huge pages at the first touch of each aligned 2 MiB
  // span when one is free; 8 MiB spans at least three of them.
  EXPECT_GT(advised.HugePageBytes(), 0u);
  EXPECT_LE(advised.HugePageBytes(), advised.MappedBytes());

  if (mode == "madvise") {
    FilterArena plain(FilterArena::Options{/*huge_pages=*/false});
    EXPECT_EQ(plain.Copy(filter), filter);
    EXPECT_EQ(plain.HugePageBytes(), 0u);
  }
}

}  // namespace
}  // namespace sstfilter
