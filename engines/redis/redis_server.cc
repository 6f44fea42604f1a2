#include "engines/redis/redis_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace sstfilter {
namespace test {
namespace {

// Redis Cluster's bus listens on the client port plus this.
constexpr int kClusterBusOffset = 10000;
constexpr int kClusterSlots = 16384;
// How long a server may take to answer PING, and a cluster to agree.
constexpr absl::Duration kStartTimeout = absl::Seconds(20);
constexpr absl::Duration kClusterTimeout = absl::Seconds(30);
constexpr absl::Duration kPollInterval = absl::Milliseconds(20);
constexpr int kStartAttempts = 5;

// Whether 127.0.0.1:port can be bound now (and so is free).
bool PortFree(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in addr = {};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok =
      bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  close(fd);
  return ok;
}

// A port the kernel hands out as free (and, for a cluster node, whose bus
// port is free too).
absl::StatusOr<int> FreePort(bool cluster) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return absl::InternalError(std::strerror(errno));
    sockaddr_in addr = {};
    addr.sin_family = AF_INET;
    addr.sin_port = 0;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(addr);
    if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &length) != 0) {
      close(fd);
      return absl::InternalError(std::strerror(errno));
    }
    close(fd);
    const int port = ntohs(addr.sin_port);
    if (!cluster) return port;
    if (port + kClusterBusOffset <= 65535 &&
        PortFree(port + kClusterBusOffset)) {
      return port;
    }
  }
  return absl::UnavailableError("no free loopback port pair for Redis");
}

std::string TempRoot() {
  for (const char* var : {"TEST_TMPDIR", "TMPDIR"}) {
    const char* value = getenv(var);
    if (value != nullptr && value[0] != '\0') return value;
  }
  return "/tmp";
}

std::string Tail(const std::string& path) {
  std::ifstream in(path);
  std::stringstream all;
  all << in.rdbuf();
  const std::string text = all.str();
  return text.size() > 2000 ? text.substr(text.size() - 2000) : text;
}

}  // namespace

RedisServer::RedisServer(const RedisServerOptions& options, std::string dir,
                         int port)
    : options_(options), dir_(std::move(dir)), port_(port) {}

RedisServer::~RedisServer() {
  Kill();
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

absl::StatusOr<std::unique_ptr<RedisServer>> RedisServer::Start(
    const RedisServerOptions& options) {
  absl::Status last;
  for (int attempt = 0; attempt < kStartAttempts; ++attempt) {
    std::string pattern = TempRoot() + "/redis.XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
      return absl::InternalError(
          absl::StrCat("mkdtemp ", pattern, ": ", std::strerror(errno)));
    }
    absl::StatusOr<int> port = FreePort(options.cluster);
    if (!port.ok()) return port.status();
    std::unique_ptr<RedisServer> server(
        new RedisServer(options, pattern, *port));
    std::ofstream conf(server->dir_ + "/redis.conf");
    conf << "port " << server->port_ << "\n"
         << "bind 127.0.0.1\n"
         << "dir " << server->dir_ << "\n"
         << "daemonize no\n"
         << "save \"\"\n"
         << "appendonly " << (options.persistent ? "yes" : "no") << "\n"
         << "appendfsync always\n";
    if (!options.password.empty()) {
      conf << "requirepass " << options.password << "\n";
    }
    if (options.cluster) {
      conf << "cluster-enabled yes\n"
           << "cluster-config-file nodes.conf\n"
           << "cluster-node-timeout 1000\n";
    }
    conf.close();
    last = server->Launch();
    if (last.ok()) return server;
    // Another process may have taken the port: try a new one.
  }
  return last;
}

absl::Status RedisServer::Launch() {
  const std::string conf = dir_ + "/redis.conf";
  const std::string log = dir_ + "/redis.log";
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) return absl::InternalError(std::strerror(errno));
  if (pid == 0) {
    // The server dies with the test, even when the test is killed.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
      close(fd);
    }
    execlp("redis-server", "redis-server", conf.c_str(),
           static_cast<char*>(nullptr));
    _exit(127);
  }
  pid_ = pid;
  const absl::Time deadline = absl::Now() + kStartTimeout;
  while (absl::Now() < deadline) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return absl::UnavailableError(
          absl::StrCat("redis-server on port ", port_, " exited (",
                       WIFEXITED(status) && WEXITSTATUS(status) == 127
                           ? "redis-server not found: run ./setup.sh"
                           : "see its log",
                       "); its log:\n", Tail(log)));
    }
    absl::StatusOr<RedisReply> pong = Command({"PING"});
    if (pong.ok() && pong->type == RedisReply::Type::kStatus &&
        pong->str == "PONG") {
      return absl::OkStatus();
    }
    absl::SleepFor(kPollInterval);
  }
  Kill();
  return absl::DeadlineExceededError(absl::StrCat(
      "redis-server on port ", port_, " did not answer within ",
      absl::FormatDuration(kStartTimeout), "; its log:\n", Tail(log)));
}

void RedisServer::Kill() {
  if (pid_ <= 0) return;
  kill(pid_, SIGKILL);
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
}

absl::Status RedisServer::Restart() {
  Kill();
  return Launch();
}

absl::StatusOr<RedisReply> RedisServer::Command(
    std::vector<std::string> args) const {
  RedisOptions options;
  options.endpoints = {endpoint()};
  options.max_attempts = 1;
  options.password = options_.password;
  absl::StatusOr<std::unique_ptr<RedisClient>> client =
      RedisClient::Connect(options);
  if (!client.ok()) return client.status();
  RedisCommand command;
  command.args = std::move(args);
  command.key_index = -1;
  return (*client)->Execute(command);
}

absl::StatusOr<std::unique_ptr<RedisCluster>> RedisCluster::Start(int nodes) {
  std::unique_ptr<RedisCluster> cluster(new RedisCluster());
  RedisServerOptions options;
  options.cluster = true;
  for (int i = 0; i < nodes; ++i) {
    absl::StatusOr<std::unique_ptr<RedisServer>> server =
        RedisServer::Start(options);
    if (!server.ok()) return server.status();
    cluster->nodes_.push_back(*std::move(server));
  }
  // Slots split evenly, then every node introduced to the first.
  for (int i = 0; i < nodes; ++i) {
    const int first = i * kClusterSlots / nodes;
    const int last = (i + 1) * kClusterSlots / nodes - 1;
    absl::StatusOr<RedisReply> added = cluster->nodes_[i]->Command(
        {"CLUSTER", "ADDSLOTSRANGE", absl::StrCat(first), absl::StrCat(last)});
    if (!added.ok()) return added.status();
    if (added->IsError()) {
      return absl::InternalError(
          absl::StrCat("CLUSTER ADDSLOTSRANGE: ", added->str));
    }
  }
  for (int i = 1; i < nodes; ++i) {
    absl::StatusOr<RedisReply> met =
        cluster->nodes_[0]->Command({"CLUSTER", "MEET", "127.0.0.1",
                                     absl::StrCat(cluster->nodes_[i]->port())});
    if (!met.ok()) return met.status();
    if (met->IsError()) {
      return absl::InternalError(absl::StrCat("CLUSTER MEET: ", met->str));
    }
  }
  if (absl::Status status = cluster->WaitUntilOk(); !status.ok()) {
    return status;
  }
  return cluster;
}

std::vector<RedisEndpoint> RedisCluster::endpoints() const {
  std::vector<RedisEndpoint> all;
  for (const auto& node : nodes_) all.push_back(node->endpoint());
  return all;
}

absl::Status RedisCluster::WaitUntilOk() const {
  const absl::Time deadline = absl::Now() + kClusterTimeout;
  std::string last;
  while (absl::Now() < deadline) {
    bool ok = true;
    for (const auto& node : nodes_) {
      if (!node->running()) continue;
      absl::StatusOr<RedisReply> info = node->Command({"CLUSTER", "INFO"});
      if (!info.ok() || info->type != RedisReply::Type::kString ||
          !absl::StrContains(info->str, "cluster_state:ok") ||
          !absl::StrContains(
              info->str, absl::StrCat("cluster_known_nodes:", nodes_.size()))) {
        ok = false;
        last = info.ok() ? info->str : std::string(info.status().message());
        break;
      }
    }
    if (ok) return absl::OkStatus();
    absl::SleepFor(kPollInterval * 5);
  }
  return absl::DeadlineExceededError(absl::StrCat(
      "the Redis cluster did not become ok within ",
      absl::FormatDuration(kClusterTimeout), "; last CLUSTER INFO: ", last));
}

}  // namespace test
}  // namespace sstfilter
