#include "bench/timing.h"

#include <time.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <utility>

namespace sstfilter {
namespace bench {
namespace {

std::atomic<uint64_t> g_sink{0};

}  // namespace

double NanosSince(Clock::time_point start) {
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count();
}

double ThreadCpuNanos() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

double TimerOverheadNanos() {
  static const double overhead = [] {
    constexpr int kSamples = 1001;
    std::vector<double> samples;
    for (int i = 0; i < kSamples; ++i) {
      const Clock::time_point start = Clock::now();
      samples.push_back(NanosSince(start));
    }
    return Median(std::move(samples));
  }();
  return overhead;
}

double Median(std::vector<double> values) {
  values.erase(std::remove_if(values.begin(), values.end(),
                              [](double v) { return std::isnan(v); }),
               values.end());
  if (values.empty()) return kNotMeasured;
  std::sort(values.begin(), values.end());
  const size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid]
                                : (values[mid - 1] + values[mid]) / 2;
}

void KeepResult(uint64_t checksum) {
  g_sink.fetch_add(checksum, std::memory_order_relaxed);
}

}  // namespace bench
}  // namespace sstfilter
