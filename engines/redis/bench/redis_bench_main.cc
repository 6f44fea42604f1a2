// redis_bench: a Bloom filter shared through Redis, three ways, against one
// local redis-server this program starts (engines/redis/redis_server.h):
//   sstfilter   RedisBloomFilter: one EVALSHA per add, one GETRANGE of a
//               64-byte block per query
//   set         a Redis set: SADD / SISMEMBER
//   k-command   the textbook Redis Bloom filter: one bitmap, k SETBIT / GETBIT
//               commands per key at positions h1 + i * h2 (Kirsch and
//               Mitzenmacher), m and k optimal for the rate
// What it measures is in measure.cc; the implementations in clients.cc, the
// flags in flags.cc; its tables are docs/render_redis_bench.cc's.
//
// Progress goes to stderr, the table to stdout. Exit status 0; 1 when the
// server fails; 2 for a bad flag; 3 when an implementation
// misses a key it was loaded with.

#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "docs/renderers.h"
#include "engines/redis/bench/flags.h"
#include "engines/redis/bench/measure.h"
#include "engines/redis/redis_client.h"
#include "engines/redis/redis_server.h"
#include "nlohmann/json.hpp"

namespace sstfilter {
namespace bench {
namespace {

constexpr int kErrorExit = 1;
constexpr int kUsageExit = 2;
constexpr int kFalseNegativeExit = 3;  // a loaded key was not found

int Main(int argc, char** argv) {
  if (absl::Status flags = ParseFlags(argc, argv); !flags.ok()) {
    std::cerr << "redis_bench: " << flags.message() << "\n";
    return kUsageExit;
  }
  const Output output = ReadOutput();
  const absl::StatusOr<Settings> settings = ReadSettings();
  if (!settings.ok()) {
    std::cerr << "redis_bench: " << settings.status().message() << "\n";
    return kUsageExit;
  }

  test::RedisServerOptions server_options;
  server_options.persistent = false;  // memory and speed of the data alone
  absl::StatusOr<std::unique_ptr<test::RedisServer>> server =
      test::RedisServer::Start(server_options);
  if (!server.ok()) {
    std::cerr << "redis_bench: " << server.status() << "\n";
    return kErrorExit;
  }
  RedisOptions redis;
  redis.endpoints = {(*server)->endpoint()};
  redis.command_timeout = absl::Seconds(30);

  const absl::StatusOr<nlohmann::json> out =
      MeasureAll(**server, redis, *settings);
  if (!out.ok()) {
    std::cerr << "redis_bench: " << out.status().message() << "\n";
    return absl::IsDataLoss(out.status()) ? kFalseNegativeExit : kErrorExit;
  }
  if (!output.json.empty()) {
    std::ofstream file(output.json);
    file << out->dump(2) << "\n";
  }
  std::cout << docs::RedisBenchTable(*out);
  return 0;
}

}  // namespace
}  // namespace bench
}  // namespace sstfilter

int main(int argc, char** argv) { return sstfilter::bench::Main(argc, argv); }
