// Real Redis servers for tests and benchmarks: redis-server (Debian's
// redis-server package, installed by setup.sh) started on a free loopback
// port with its files in a fresh directory under TEST_TMPDIR (or TMPDIR), and
// killed when the object is destroyed, whether the test passed or not. The
// child also dies with its parent (PR_SET_PDEATHSIG), so a test killed by a
// timeout leaves no server behind.

#ifndef SSTFILTER_ENGINES_REDIS_REDIS_SERVER_H_
#define SSTFILTER_ENGINES_REDIS_REDIS_SERVER_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engines/redis/redis_client.h"

namespace sstfilter {
namespace test {

struct RedisServerOptions {
  // Start as a Redis Cluster node (cluster-enabled yes).
  bool cluster = false;
  // Append-only file with fsync on every write, so that a killed server
  // restarts with every acknowledged write.
  bool persistent = true;
  // requirepass: clients must AUTH with it (Command() does).
  std::string password;
};

class RedisServer {
 public:
  static absl::StatusOr<std::unique_ptr<RedisServer>> Start(
      const RedisServerOptions& options);

  // Kills the server (SIGKILL) and removes its directory.
  ~RedisServer();
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;

  int port() const { return port_; }
  RedisEndpoint endpoint() const { return {"127.0.0.1", port_}; }
  const std::string& dir() const { return dir_; }
  bool running() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }

  // SIGKILL, and waits for it to exit: a crash, with no chance to save.
  void Kill();
  // Starts it again on the same port from the same directory, and waits
  // until it answers PING (after loading its append-only file).
  absl::Status Restart();

  // One command on a fresh connection (for setting a test up).
  absl::StatusOr<RedisReply> Command(std::vector<std::string> args) const;

 private:
  RedisServer(const RedisServerOptions& options, std::string dir, int port);
  absl::Status Launch();

  const RedisServerOptions options_;
  const std::string dir_;
  const int port_;
  pid_t pid_ = -1;
};

// A Redis Cluster of `nodes` masters (no replicas) on loopback, its slots
// split evenly, every node agreeing the cluster is ok.
class RedisCluster {
 public:
  static absl::StatusOr<std::unique_ptr<RedisCluster>> Start(int nodes);

  RedisServer& node(int i) { return *nodes_[i]; }
  int size() const { return static_cast<int>(nodes_.size()); }
  // Every node as an endpoint: a client's seeds.
  std::vector<RedisEndpoint> endpoints() const;
  // Waits until every running node reports cluster_state:ok.
  absl::Status WaitUntilOk() const;

 private:
  std::vector<std::unique_ptr<RedisServer>> nodes_;
};

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_REDIS_REDIS_SERVER_H_
