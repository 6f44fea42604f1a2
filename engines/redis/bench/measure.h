// redis_bench's measurements: every implementation (clients.h) loaded with
// each key count on one redis-server, then its memory, false-positive rate
// and operations per second, as the JSON object that --json saves and
// report.h prints.

#ifndef SSTFILTER_ENGINES_REDIS_BENCH_MEASURE_H_
#define SSTFILTER_ENGINES_REDIS_BENCH_MEASURE_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "engines/redis/redis_client.h"
#include "engines/redis/redis_server.h"
#include "nlohmann/json.hpp"

namespace sstfilter {
namespace bench {

// What to measure, from the command line.
struct Settings {
  std::vector<uint64_t> sizes;  // key counts, one run each
  double fpp = 0.01;
  uint64_t single_ops = 0;     // per single-mode figure and client
  uint64_t pipelined_ops = 0;  // per pipelined figure and client
  int rounds = 1;
};

// Every key count of settings against server, reached through redis: the
// server's version, the settings and one run per key count. A
// DataLossError when an implementation misses a key it was loaded with.
absl::StatusOr<nlohmann::json> MeasureAll(const test::RedisServer& server,
                                          const RedisOptions& redis,
                                          const Settings& settings);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_REDIS_BENCH_MEASURE_H_
