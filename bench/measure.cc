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

double MeasureHashFloor(const QuerySet& queries) {
  uint64_t sum = 0;
  KeyChunk chunk;
  const double ns = ForEachBlock(
      queries, &chunk,
      [&sum](const absl::string_view* keys, const uint32_t*, size_t n) {
        for (size_t i = 0; i < n; ++i) sum += Hash64(keys[i]);
      });
  KeepResult(sum);
  return ns;
}

namespace {

double MeasureMemoryFloor(const uint64_t* words, size_t lines,
                          const std::vector<uint32_t>& random32,
                          MemoryAccess access) {
  const auto line_of = [lines](uint32_t r) {
    return static_cast<size_t>((uint64_t{r} * lines) >> 32);
  };
  // Timed in blocks of kQueryBlock, median over blocks, as the queries are.
  const double overhead = TimerOverheadNanos();
  std::vector<double> per_query;
  uint64_t sum = 0;
  for (size_t block = 0; block + kQueryBlock <= random32.size();
       block += kQueryBlock) {
    const uint32_t* random = random32.data() + block;
    const Clock::time_point start = Clock::now();
    if (access == MemoryAccess::kIndependent) {
      for (size_t i = 0; i < kQueryBlock; ++i) {
        sum += words[line_of(random[i]) * kLineWords];
      }
    } else if (access == MemoryAccess::kDependent) {
      for (size_t i = 0; i < kQueryBlock; ++i) {
        sum += words[line_of(random[i]) * kLineWords];
        QueryFence();
      }
    } else {
      for (size_t i = 0; i < kQueryBlock; i += kBatchSize) {
        size_t at[kBatchSize];
        for (int b = 0; b < kBatchSize; ++b) {
          at[b] = line_of(random[i + b]) * kLineWords;
          __builtin_prefetch(words + at[b]);
        }
        for (int b = 0; b < kBatchSize; ++b) sum += words[at[b]];
      }
    }
    per_query.push_back((NanosSince(start) - overhead) / kQueryBlock);
  }
  KeepResult(sum);
  return Median(std::move(per_query));
}

}  // namespace

void MeasureMemoryFloors(size_t buffer_bytes,
                         const std::vector<uint32_t>& random32, bool huge_pages,
                         RepResult* result) {
  const size_t lines = std::max<size_t>(1, buffer_bytes / kLineBytes);
  const size_t num_words = lines * kLineWords;
  std::vector<uint64_t> heap;
  std::optional<FilterArena> arena;
  uint64_t* words;
  if (huge_pages) {
    arena.emplace();
    words = reinterpret_cast<uint64_t*>(
        arena->Allocate(num_words * sizeof(uint64_t)));
  } else {
    heap.resize(num_words);
    words = heap.data();
  }
  // Filled, so that its pages are mapped before the timing.
  std::fill(words, words + num_words, 1);
  result->memory_floor_ns =
      MeasureMemoryFloor(words, lines, random32, MemoryAccess::kIndependent);
  result->memory_floor_dependent_ns =
      MeasureMemoryFloor(words, lines, random32, MemoryAccess::kDependent);
  result->memory_floor_batched_ns =
      MeasureMemoryFloor(words, lines, random32, MemoryAccess::kBatched);
}

}  // namespace bench
}  // namespace sstfilter
