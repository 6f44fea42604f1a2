// The example of engines/redis/README.md, compiled and run
// against a redis-server the test starts. The code between the START and END
// markers must equal the README's example block (ReadmeShowsThisCode).

// [START readme_redis_example]
#include <iostream>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engines/redis/redis_bloom.h"

// A crawler's "seen URL" set, shared by every crawler process through Redis
// (for a Redis Cluster: redis.cluster = true, and any of its nodes).
absl::Status SeenUrlsExample(const sstfilter::RedisOptions& redis,
                             std::ostream& out) {
  absl::StatusOr<std::unique_ptr<sstfilter::RedisBloomFilter>> seen =
      sstfilter::RedisBloomFilter::Create(redis, "crawler:seen",
                                          sstfilter::FilterOptions::Fpp(0.01),
                                          /*expected_keys=*/1000000);
  if (absl::IsAlreadyExists(seen.status())) {  // another crawler made it
    seen = sstfilter::RedisBloomFilter::Open(redis, "crawler:seen");
  }
  if (!seen.ok()) return seen.status();

  for (const char* url : {"https://example.com/", "https://example.org/"}) {
    absl::StatusOr<bool> added = (*seen)->Add(url);  // one round trip
    if (!added.ok()) return added.status();  // Redis down: an error, no guess
  }
  absl::StatusOr<bool> seen_before =
      (*seen)->MayContain("https://example.com/");
  absl::StatusOr<bool> seen_new = (*seen)->MayContain("https://example.net/");
  if (!seen_before.ok()) return seen_before.status();
  if (!seen_new.ok()) return seen_new.status();
  out << "example.com: " << *seen_before << "\n";  // 1
  out << "example.net: " << *seen_new << "\n";     // 0, or 1 with p = 1%
  out << "bytes in Redis: " << (*seen)->MemoryBytes() << "\n";  // 1.24 MB

  // A snapshot as a native filter, e.g. for a table's filter block.
  absl::StatusOr<std::string> snapshot = (*seen)->Export();
  if (!snapshot.ok()) return snapshot.status();
  out << "snapshot: " << (*seen)->ExportFormatName() << "\n";
  return absl::OkStatus();
}
// [END readme_redis_example]

#include <sstream>

#include "engines/redis/redis_server.h"
#include "gtest/gtest.h"
#include "util/testing/readme.h"

namespace sstfilter {
namespace {

TEST(ReadmeRedisExampleTest, Runs) {
  absl::StatusOr<std::unique_ptr<test::RedisServer>> server =
      test::RedisServer::Start(test::RedisServerOptions());
  ASSERT_TRUE(server.ok()) << server.status();
  RedisOptions redis;
  redis.endpoints = {(*server)->endpoint()};
  // Twice: the second run opens the filter the first created.
  for (int run = 0; run < 2; ++run) {
    std::ostringstream out;
    const absl::Status status = SeenUrlsExample(redis, out);
    ASSERT_TRUE(status.ok()) << status;
    EXPECT_EQ(out.str(),
              "example.com: 1\nexample.net: 0\nbytes in Redis: 1239808\n"
              "snapshot: sstfilter.LocalBloom2\n");
  }
  // With the server gone, the example reports it instead of answering.
  (*server)->Kill();
  std::ostringstream out;
  const absl::Status status = SeenUrlsExample(redis, out);
  EXPECT_TRUE(absl::IsUnavailable(status)) << status;
  EXPECT_EQ(out.str(), "");
}

TEST(ReadmeRedisExampleTest, ReadmeShowsThisCode) {
  test::ExpectReadmeShows("engines/redis/README.md", "## Example",
                          "tests/readme_redis_example_test.cc",
                          "readme_redis_example",
                          "//engines/redis:redis_bloom");
}

}  // namespace
}  // namespace sstfilter
