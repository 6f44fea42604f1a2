#include "bench/measure.h"

#include <time.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <optional>
#include <thread>

#include "filter/filter_arena.h"
#include "xxhash.h"

namespace sstfilter {
namespace bench {
namespace {

// Bytes per cache line touched by the memory floor.
constexpr size_t kLineBytes = 64;
constexpr size_t kLineWords = kLineBytes / sizeof(uint64_t);

}  // namespace

size_t CheckThreads(uint64_t total_keys) {
  constexpr uint64_t kKeysPerThread = 1'000'000;  // below this, one thread
  const size_t hardware = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<size_t>(
      std::clamp<uint64_t>(total_keys / kKeysPerThread, 1, hardware));
}

double GenerateKeysCpuNanos(const Workload& w, KeyChunk* chunk) {
  uint64_t sum = 0;
  const double start = ThreadCpuNanos();
  for (size_t f = 0; f < w.num_filters; ++f) {
    for (uint64_t j = 0; j < w.keys_per_filter; j += KeyChunk::kCapacity) {
      chunk->Fill(
          w.kind, w.first_index(f) + j,
          std::min<uint64_t>(KeyChunk::kCapacity, w.keys_per_filter - j));
      sum += chunk->size();
    }
  }
  const double ns = ThreadCpuNanos() - start;
  KeepResult(sum);
  return ns;
}

uint64_t DigestFilters(const std::vector<BuiltFilter>& filters) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  for (const BuiltFilter& filter : filters) {
    const uint64_t size = filter.bytes.size();
    XXH3_64bits_update(state, &size, sizeof(size));
    XXH3_64bits_update(state, filter.bytes.data(), filter.bytes.size());
  }
  const uint64_t digest = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return digest;
}

MemoryFloorBuffer::MemoryFloorBuffer(size_t bytes, bool huge_pages)
    : lines_(std::max<size_t>(1, bytes / kLineBytes)) {
  const size_t num_words = lines_ * kLineWords;
  uint64_t* words;
  if (huge_pages) {
    arena_.emplace();
    words = reinterpret_cast<uint64_t*>(
        arena_->Allocate(num_words * sizeof(uint64_t)));
  } else {
    heap_.resize(num_words);
    words = heap_.data();
  }
  // Filled, so that its pages are mapped before the timing.
  std::fill(words, words + num_words, 1);
  words_ = words;
}

uint64_t MemoryFloorBuffer::LoadLines(MemoryAccess access,
                                      const uint32_t* random32,
                                      size_t n) const {
  const size_t lines = lines_;
  const auto line_of = [lines](uint32_t r) {
    return static_cast<size_t>((uint64_t{r} * lines) >> 32);
  };
  const uint64_t* const words = words_;
  uint64_t sum = 0;
  if (access == MemoryAccess::kIndependent) {
    for (size_t i = 0; i < n; ++i) {
      sum += words[line_of(random32[i]) * kLineWords];
    }
  } else if (access == MemoryAccess::kDependent) {
    for (size_t i = 0; i < n; ++i) {
      sum += words[line_of(random32[i]) * kLineWords];
      QueryFence();
    }
  } else {
    for (size_t i = 0; i + kBatchSize <= n; i += kBatchSize) {
      size_t at[kBatchSize];
      for (int b = 0; b < kBatchSize; ++b) {
        at[b] = line_of(random32[i + b]) * kLineWords;
        __builtin_prefetch(words + at[b]);
      }
      for (int b = 0; b < kBatchSize; ++b) sum += words[at[b]];
    }
  }
  return sum;
}

}  // namespace bench
}  // namespace sstfilter
