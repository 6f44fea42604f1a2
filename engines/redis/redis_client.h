// A small synchronous Redis client over hiredis, what RedisBloomFilter
// talks through: one connection per server, commands pipelined, Redis
// Cluster routing by hash slot (MOVED, ASK), Lua scripts by SHA1, RESP2.
// Transient failures are retried up to RedisOptions::max_attempts, then
// UnavailableError; retries resend a command whose reply was lost, so only
// idempotent commands belong in a retried pipeline. Not thread-safe: one
// RedisClient per thread, as a hiredis context.

#ifndef SSTFILTER_ENGINES_REDIS_REDIS_CLIENT_H_
#define SSTFILTER_ENGINES_REDIS_REDIS_CLIENT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "absl/types/span.h"

struct redisContext;

namespace sstfilter {

struct RedisEndpoint {
  std::string host = "127.0.0.1";  // an IPv4 or IPv6 address, or a host name
  int port = 6379;
};

struct RedisOptions {
  // Standalone: the one server. Cluster: one or more of its nodes; the client
  // learns the others from CLUSTER SLOTS.
  std::vector<RedisEndpoint> endpoints;
  // Route commands by hash slot over a Redis Cluster.
  bool cluster = false;
  // AUTH on every connection when password is not empty (with username, an
  // ACL user; without, the default user). A refused password is
  // UnauthenticatedError, not retried.
  std::string username;
  std::string password;
  // SELECT on every connection when not 0 (standalone only: a cluster has
  // database 0 alone).
  int database = 0;
  // Bounds on connecting, and on each send or receive; both above zero.
  absl::Duration connect_timeout = absl::Milliseconds(500);
  absl::Duration command_timeout = absl::Seconds(1);
  // Attempts in all for a command whose server fails (at least 1; 1 means no
  // retry), and the pause after the first failed attempt, doubled after each
  // further one (at least zero).
  int max_attempts = 3;
  absl::Duration retry_pause = absl::Milliseconds(50);
};

// InvalidArgumentError naming the value for no endpoint, an endpoint with an
// empty host or a port outside [1, 65535], a timeout not above zero,
// max_attempts < 1, a negative retry_pause, a username without a password,
// or a database outside [0, 2^31) or, for a cluster, not 0.
absl::Status ValidateRedisOptions(const RedisOptions& options);

// A RESP2 reply, owned.
struct RedisReply {
  enum class Type { kString, kStatus, kInteger, kNil, kArray, kError };
  Type type = Type::kNil;
  std::string str;  // kString, kStatus, kError
  long long integer = 0;
  std::vector<RedisReply> elements;  // kArray

  bool IsError() const { return type == Type::kError; }
};

// One command: its arguments, and which of them is the key that routes it in
// a cluster (ignored for a standalone server). A command with no key
// (key_index < 0) goes to the first node.
struct RedisCommand {
  std::vector<std::string> args;
  int key_index = 1;
  // For RedisClient::Script: the script's id; the client fills in args[1],
  // the script's SHA1, when it sends the command.
  int script = -1;
};

// Failures are statuses, never silent: an unreachable server, a timeout, a
// connection lost mid-pipeline, or TRYAGAIN, CLUSTERDOWN, LOADING,
// MASTERDOWN or NOSCRIPT is retried, with a doubling pause, then reported as
// UnavailableError naming the server and the last error. Other error
// replies (WRONGTYPE, ERR ...) are returned as replies, except NOAUTH and
// WRONGPASS (UnauthenticatedError) and NOPERM (PermissionDeniedError),
// which end the call.
class RedisClient {
 public:
  // Validates options and connects (for a cluster: learns the slot map).
  // InvalidArgumentError for invalid options; UnavailableError when no server
  // answers within the retry policy; FailedPreconditionError for a cluster
  // client pointed at a server without cluster mode.
  static absl::StatusOr<std::unique_ptr<RedisClient>> Connect(
      const RedisOptions& options);

  ~RedisClient();
  RedisClient(const RedisClient&) = delete;
  RedisClient& operator=(const RedisClient&) = delete;

  // A Lua script the client loads on every connection it opens (SCRIPT LOAD);
  // returns its id for Script(). Call before sending commands that use it.
  int RegisterScript(std::string lua);

  // EVALSHA of script `id` with one key and the given arguments.
  RedisCommand Script(int id, std::string key,
                      std::vector<std::string> args) const;

  // Sends every command (pipelined per server) and sets (*replies)[i] to
  // command i's reply. Commands to different servers, and the commands of a
  // retry, may run in any order. UnavailableError when a command's server
  // fails max_attempts times; *replies is then unspecified.
  absl::Status Execute(absl::Span<const RedisCommand> commands,
                       std::vector<RedisReply>* replies);

  // One command.
  absl::StatusOr<RedisReply> Execute(const RedisCommand& command);

  const RedisOptions& options() const { return options_; }

  // What this client has had to do so far, for monitoring.
  struct Stats {
    uint64_t moved = 0;    // MOVED redirections followed
    uint64_t asked = 0;    // ASK redirections followed
    uint64_t retries = 0;  // commands resent after a failed attempt
  };
  const Stats& stats() const { return stats_; }

  // Where key's slot lives now (the only server, for a standalone client).
  RedisEndpoint EndpointOf(absl::string_view key) const;

 private:
  struct Node;

  explicit RedisClient(const RedisOptions& options);

  // The node for host:port, added if new.
  int NodeIndex(const RedisEndpoint& endpoint);
  // The node command goes to: its slot's owner, or node 0.
  int Route(const RedisCommand& command) const;
  // Opens node's connection if closed, loading the scripts.
  absl::Status EnsureConnected(Node& node);
  // One command on node's new connection (AUTH, SELECT); closes it and
  // returns the error when the server refuses it.
  absl::Status Setup(Node& node, const std::vector<std::string>& args);
  // SCRIPT LOAD of script id on node's open connection; closes it on failure.
  absl::Status LoadScript(Node& node, size_t id);
  // Sends commands[i] for each i in indexes to node, pipelined, and reads
  // their replies into (*replies)[i] until the first failure; answered[j]
  // tells whether indexes[j] got a reply. An error status when the
  // connection failed (then closed).
  absl::Status RoundTrip(Node& node, absl::Span<const RedisCommand> commands,
                         const std::vector<size_t>& indexes,
                         const std::vector<bool>& asking,
                         std::vector<RedisReply>* replies,
                         std::vector<bool>* answered);
  // Re-reads the slot map from the first node that answers CLUSTER SLOTS.
  absl::Status RefreshSlots();
  void Close(Node& node);
  void Pause(int failed_attempts) const;

  const RedisOptions options_;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<int> slot_owner_;  // cluster: node index per slot, or -1
  std::vector<std::string> scripts_;
  std::vector<std::string> script_shas_;
  Stats stats_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_REDIS_REDIS_CLIENT_H_
