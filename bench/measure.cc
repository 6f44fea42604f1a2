#include "bench/measure.h"

#include <atomic>
#include <cstring>

#include "xxhash.h"

namespace sstfilter {
namespace bench {
namespace {

constexpr size_t kLineBytes =
    64;  // bytes per cache line touched by the memory floor
constexpr size_t kLineWords = kLineBytes / sizeof(uint64_t);

std::atomic<uint64_t> g_sink{0};
volatile size_t g_zero = 0;

}  // namespace

double NanosSince(Clock::time_point start) {
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count();
}

void KeepResult(uint64_t checksum) {
  g_sink.fetch_add(checksum, std::memory_order_relaxed);
}

size_t OpaqueZero() { return g_zero; }

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
  const Clock::time_point start = Clock::now();
  for (size_t i = 0; i < queries.keys.size(); ++i)
    sum += Hash64(queries.keys[i]);
  const double ns = NanosSince(start);
  KeepResult(sum);
  return ns / static_cast<double>(queries.keys.size());
}

double MeasureMemoryFloor(size_t buffer_bytes,
                          const std::vector<uint32_t>& random32, bool batched) {
  const size_t lines = std::max<size_t>(1, buffer_bytes / kLineBytes);
  std::vector<uint64_t> buffer(lines * kLineWords,
                               1);  // written: pages are mapped
  const uint64_t* words = buffer.data();
  const auto line_of = [lines](uint32_t r) {
    return static_cast<size_t>((uint64_t{r} * lines) >> 32);
  };
  const size_t n = random32.size();
  uint64_t sum = 0;
  const Clock::time_point start = Clock::now();
  if (!batched) {
    for (size_t i = 0; i < n; ++i)
      sum += words[line_of(random32[i]) * kLineWords];
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
  const double ns = NanosSince(start);
  KeepResult(sum);
  return ns / static_cast<double>(n);
}

}  // namespace bench
}  // namespace sstfilter
