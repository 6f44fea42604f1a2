#include "util/asymmetric_fence.h"

#include <atomic>
#include <cstdint>
#include <thread>

#include "gtest/gtest.h"

namespace sstfilter {
namespace {

constexpr uint32_t kMaxDelay = 63;

// Dekker's pattern, the one the fences exist for: in round r each thread
// stores r into its own flag, fences, and loads the other's flag. Without a
// barrier on each side, both loads can miss the other's store (each store
// still sits in its core's store buffer); with LightFence on one side and
// HeavyFence on the other, at least one load must see round r. Each side
// waits a varying few cycles before its store, so that over the rounds the
// two stores and loads interleave every way, the racy way included.
// A few dozen cycles that the compiler keeps.
void Spin(uint32_t iterations) {
  for (volatile uint32_t i = 0; i < iterations; i = i + 1) {
  }
}

// Spins before a side's store in round r: varying with the round, and apart
// for the two sides.
uint32_t Delay(uint64_t r, uint64_t side) {
  return static_cast<uint32_t>(((r * 0x9E3779B97F4A7C15u) >> (40 + 8 * side)) &
                               kMaxDelay);
}

TEST(AsymmetricFenceTest, OneSideAlwaysSeesTheOther) {
  constexpr uint64_t kRounds = 50'000;
  std::atomic<uint64_t> light_flag{0};
  std::atomic<uint64_t> heavy_flag{0};
  std::atomic<uint64_t> round{0};
  std::atomic<uint64_t> light_done{0};
  std::atomic<uint64_t> heavy_done{0};
  uint64_t both_missed = 0;
  uint64_t light_missed = 0;

  std::thread light([&] {
    for (uint64_t r = 1; r <= kRounds; ++r) {
      while (round.load(std::memory_order_acquire) < r) {
      }
      Spin(Delay(r, 0));
      light_flag.store(r, std::memory_order_relaxed);
      LightFence();
      const bool saw = heavy_flag.load(std::memory_order_relaxed) >= r;
      light_done.store(saw ? r : r | (uint64_t{1} << 63),
                       std::memory_order_release);
      while (heavy_done.load(std::memory_order_acquire) < r) {
      }
    }
  });
  for (uint64_t r = 1; r <= kRounds; ++r) {
    round.store(r, std::memory_order_release);
    Spin(Delay(r, 1));
    heavy_flag.store(r, std::memory_order_relaxed);
    HeavyFence();
    const bool saw = light_flag.load(std::memory_order_relaxed) >= r;
    uint64_t light_result;
    while (((light_result = light_done.load(std::memory_order_acquire)) &
            ~(uint64_t{1} << 63)) < r) {
    }
    const bool light_saw_heavy = (light_result >> 63) == 0;
    if (!light_saw_heavy) ++light_missed;
    if (!saw && !light_saw_heavy) ++both_missed;
    heavy_done.store(r, std::memory_order_release);
  }
  light.join();
  EXPECT_EQ(both_missed, 0u)
      << "of " << kRounds << " rounds; the light side "
      << "missed the heavy side's store in " << light_missed;
}

}  // namespace
}  // namespace sstfilter
