// RedisClient: connections, pipelines, cluster routing and retries (see
// redis_client.h).

#include "engines/redis/redis_client.h"

#include <hiredis/hiredis.h>
#include <sys/time.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engines/redis/hash_slot.h"

namespace sstfilter {
namespace {

using redis_internal::HashSlot;
using redis_internal::kClusterSlots;

// Redirections one Execute follows before giving up: a slot moves once in a
// resharding, so more means the cluster's nodes disagree about its owner.
constexpr int kMaxRedirections = 16;

std::string Name(const RedisEndpoint& endpoint) {
  return absl::StrCat(endpoint.host, ":", endpoint.port);
}

RedisReply Convert(const redisReply& r) {
  RedisReply reply;
  switch (r.type) {
    case REDIS_REPLY_STRING:
      reply.type = RedisReply::Type::kString;
      reply.str.assign(r.str, r.len);
      break;
    case REDIS_REPLY_STATUS:
      reply.type = RedisReply::Type::kStatus;
      reply.str.assign(r.str, r.len);
      break;
    case REDIS_REPLY_ERROR:
      reply.type = RedisReply::Type::kError;
      reply.str.assign(r.str, r.len);
      break;
    case REDIS_REPLY_INTEGER:
      reply.type = RedisReply::Type::kInteger;
      reply.integer = r.integer;
      break;
    case REDIS_REPLY_ARRAY:
      reply.type = RedisReply::Type::kArray;
      reply.elements.reserve(r.elements);
      for (size_t i = 0; i < r.elements; ++i) {
        reply.elements.push_back(Convert(*r.element[i]));
      }
      break;
    default:
      reply.type = RedisReply::Type::kNil;
  }
  return reply;
}

// Error replies that mean "not now", not "no": retried like a lost server.
bool IsTransientError(absl::string_view error) {
  for (absl::string_view prefix : {"TRYAGAIN", "CLUSTERDOWN", "LOADING",
                                   "MASTERDOWN", "NOSCRIPT", "BUSY"}) {
    if (absl::StartsWith(error, prefix)) return true;
  }
  return false;
}

// An error reply that ends a call however often it is retried: the server
// refuses who we are or what we may do. OK for any other reply.
absl::Status ErrorReplyStatus(absl::string_view what, absl::string_view error) {
  if (absl::StartsWith(error, "NOAUTH") ||
      absl::StartsWith(error, "WRONGPASS")) {
    return absl::UnauthenticatedError(absl::StrCat(what, ": ", error));
  }
  if (absl::StartsWith(error, "NOPERM")) {
    return absl::PermissionDeniedError(absl::StrCat(what, ": ", error));
  }
  return absl::OkStatus();
}

// "MOVED 3999 127.0.0.1:6381" or "ASK 3999 127.0.0.1:6381": the slot and the
// node to ask. False for any other error.
bool ParseRedirection(absl::string_view error, bool* ask, int* slot,
                      RedisEndpoint* endpoint) {
  std::vector<absl::string_view> parts = absl::StrSplit(error, ' ');
  if (parts.size() != 3) return false;
  if (parts[0] == "MOVED") {
    *ask = false;
  } else if (parts[0] == "ASK") {
    *ask = true;
  } else {
    return false;
  }
  const size_t colon = parts[2].rfind(':');
  int port = 0;
  if (!absl::SimpleAtoi(parts[1], slot) || *slot < 0 ||
      *slot >= kClusterSlots || colon == absl::string_view::npos ||
      !absl::SimpleAtoi(parts[2].substr(colon + 1), &port)) {
    return false;
  }
  endpoint->host = std::string(parts[2].substr(0, colon));
  endpoint->port = port;
  return true;
}

}  // namespace

struct RedisClient::Node {
  RedisEndpoint endpoint;
  redisContext* context = nullptr;
};

absl::Status ValidateRedisOptions(const RedisOptions& options) {
  if (options.endpoints.empty()) {
    return absl::InvalidArgumentError("RedisOptions: no endpoint given");
  }
  for (const RedisEndpoint& endpoint : options.endpoints) {
    if (endpoint.host.empty()) {
      return absl::InvalidArgumentError(
          "RedisOptions: an endpoint's host is empty");
    }
    if (endpoint.port < 1 || endpoint.port > 65535) {
      return absl::InvalidArgumentError(absl::StrCat(
          "RedisOptions: port ", endpoint.port, " outside [1, 65535]"));
    }
  }
  if (options.connect_timeout <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "RedisOptions: connect_timeout ",
        absl::FormatDuration(options.connect_timeout), " is not above zero"));
  }
  if (options.command_timeout <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "RedisOptions: command_timeout ",
        absl::FormatDuration(options.command_timeout), " is not above zero"));
  }
  if (options.max_attempts < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "RedisOptions: max_attempts ", options.max_attempts, " is below 1"));
  }
  if (!options.username.empty() && options.password.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("RedisOptions: username \"", options.username,
                     "\" given without a password"));
  }
  if (options.database < 0 || (options.cluster && options.database != 0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "RedisOptions: database ", options.database,
        options.cluster ? " in a cluster, which has database 0 only"
                        : " is negative"));
  }
  if (options.retry_pause < absl::ZeroDuration()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "RedisOptions: retry_pause ", absl::FormatDuration(options.retry_pause),
        " is negative"));
  }
  return absl::OkStatus();
}

RedisClient::RedisClient(const RedisOptions& options) : options_(options) {
  for (const RedisEndpoint& endpoint : options_.endpoints) NodeIndex(endpoint);
  if (options_.cluster) slot_owner_.assign(kClusterSlots, -1);
}

RedisClient::~RedisClient() {
  for (auto& node : nodes_) Close(*node);
}

absl::StatusOr<std::unique_ptr<RedisClient>> RedisClient::Connect(
    const RedisOptions& options) {
  if (absl::Status status = ValidateRedisOptions(options); !status.ok()) {
    return status;
  }
  std::unique_ptr<RedisClient> client(new RedisClient(options));
  absl::Status status;
  for (int attempt = 1; attempt <= options.max_attempts; ++attempt) {
    if (attempt > 1) client->Pause(attempt - 1);
    status = options.cluster ? client->RefreshSlots()
                             : client->EnsureConnected(*client->nodes_[0]);
    if (status.ok() || absl::IsFailedPrecondition(status) ||
        absl::IsUnauthenticated(status) || absl::IsPermissionDenied(status) ||
        absl::IsInvalidArgument(status)) {
      break;
    }
  }
  if (!status.ok()) return status;
  return client;
}

int RedisClient::NodeIndex(const RedisEndpoint& endpoint) {
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (nodes_[i]->endpoint.host == endpoint.host &&
        nodes_[i]->endpoint.port == endpoint.port) {
      return static_cast<int>(i);
    }
  }
  nodes_.push_back(std::make_unique<Node>());
  nodes_.back()->endpoint = endpoint;
  return static_cast<int>(nodes_.size() - 1);
}

void RedisClient::Close(Node& node) {
  if (node.context != nullptr) redisFree(node.context);
  node.context = nullptr;
}

void RedisClient::Pause(int failed_attempts) const {
  absl::Duration pause = options_.retry_pause;
  for (int i = 1; i < failed_attempts; ++i) pause *= 2;
  absl::SleepFor(pause);
}

absl::Status RedisClient::EnsureConnected(Node& node) {
  if (node.context != nullptr) return absl::OkStatus();
  redisContext* context =
      redisConnectWithTimeout(node.endpoint.host.c_str(), node.endpoint.port,
                              absl::ToTimeval(options_.connect_timeout));
  if (context == nullptr || context->err != 0) {
    absl::Status status = absl::UnavailableError(
        absl::StrCat("redis ", Name(node.endpoint), ": cannot connect: ",
                     context == nullptr ? "out of memory" : context->errstr));
    if (context != nullptr) redisFree(context);
    return status;
  }
  if (redisSetTimeout(context, absl::ToTimeval(options_.command_timeout)) !=
      REDIS_OK) {
    redisFree(context);
    return absl::UnavailableError(absl::StrCat(
        "redis ", Name(node.endpoint), ": cannot set the command timeout"));
  }
  node.context = context;
  if (!options_.password.empty()) {
    std::vector<std::string> auth = {"AUTH"};
    if (!options_.username.empty()) auth.push_back(options_.username);
    auth.push_back(options_.password);
    if (absl::Status status = Setup(node, auth); !status.ok()) return status;
  }
  if (options_.database != 0) {
    if (absl::Status status =
            Setup(node, {"SELECT", absl::StrCat(options_.database)});
        !status.ok()) {
      return status;
    }
  }
  // Scripts are per server and vanish when it restarts: load them on every
  // new connection, so that EVALSHA finds them.
  for (size_t i = 0; i < scripts_.size(); ++i) {
    if (absl::Status status = LoadScript(node, i); !status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::Status RedisClient::Setup(Node& node,
                                const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  std::vector<size_t> lengths;
  for (const std::string& arg : args) {
    argv.push_back(arg.data());
    lengths.push_back(arg.size());
  }
  auto* reply = static_cast<redisReply*>(
      redisCommandArgv(node.context, static_cast<int>(argv.size()), argv.data(),
                       lengths.data()));
  absl::Status status;
  if (reply == nullptr) {
    status = absl::UnavailableError(absl::StrCat("redis ", Name(node.endpoint),
                                                 ": ", node.context->errstr));
  } else if (reply->type == REDIS_REPLY_ERROR) {
    status = ErrorReplyStatus(
        absl::StrCat("redis ", Name(node.endpoint), ": ", args[0]),
        absl::string_view(reply->str, reply->len));
    if (status.ok()) {
      status = absl::InvalidArgumentError(
          absl::StrCat("redis ", Name(node.endpoint), ": ", args[0], ": ",
                       absl::string_view(reply->str, reply->len)));
    }
  }
  if (reply != nullptr) freeReplyObject(reply);
  if (!status.ok()) Close(node);
  return status;
}

absl::Status RedisClient::LoadScript(Node& node, size_t id) {
  const char* argv[] = {"SCRIPT", "LOAD", scripts_[id].data()};
  const size_t lengths[] = {6, 4, scripts_[id].size()};
  auto* reply = static_cast<redisReply*>(
      redisCommandArgv(node.context, 3, argv, lengths));
  absl::Status status;
  if (reply == nullptr) {
    status = absl::UnavailableError(absl::StrCat("redis ", Name(node.endpoint),
                                                 ": ", node.context->errstr));
  } else if (reply->type != REDIS_REPLY_STRING) {
    status = absl::UnavailableError(
        absl::StrCat("redis ", Name(node.endpoint), ": SCRIPT LOAD: ",
                     reply->type == REDIS_REPLY_ERROR
                         ? absl::string_view(reply->str, reply->len)
                         : "unexpected reply"));
  } else {
    script_shas_[id].assign(reply->str, reply->len);
  }
  if (reply != nullptr) freeReplyObject(reply);
  if (!status.ok()) Close(node);
  return status;
}

int RedisClient::RegisterScript(std::string lua) {
  scripts_.push_back(std::move(lua));
  script_shas_.emplace_back();
  const size_t id = scripts_.size() - 1;
  // Open connections load it now (one that fails is closed, and loads it
  // when reopened); new ones load it when opened.
  for (auto& node : nodes_) {
    if (node->context != nullptr) LoadScript(*node, id).IgnoreError();
  }
  return static_cast<int>(id);
}

RedisCommand RedisClient::Script(int id, std::string key,
                                 std::vector<std::string> args) const {
  RedisCommand command;
  command.args.reserve(4 + args.size());
  command.args.push_back("EVALSHA");
  command.args.emplace_back();  // the SHA1, when sent
  command.args.push_back("1");
  command.args.push_back(std::move(key));
  for (std::string& arg : args) command.args.push_back(std::move(arg));
  command.key_index = 3;
  command.script = id;
  return command;
}

int RedisClient::Route(const RedisCommand& command) const {
  if (!options_.cluster || command.key_index < 0 ||
      command.key_index >= static_cast<int>(command.args.size())) {
    return 0;
  }
  const int owner = slot_owner_[HashSlot(command.args[command.key_index])];
  return owner < 0 ? 0 : owner;
}

RedisEndpoint RedisClient::EndpointOf(absl::string_view key) const {
  RedisCommand command{{"GET", std::string(key)}, 1};
  return nodes_[Route(command)]->endpoint;
}

absl::Status RedisClient::RefreshSlots() {
  absl::Status last = absl::UnavailableError("redis cluster: no node to ask");
  // Ask the known nodes in turn, then the configured ones again (a node
  // learned from a redirection may be the one that is gone).
  for (size_t n = 0; n < nodes_.size(); ++n) {
    Node& node = *nodes_[n];
    if (absl::Status status = EnsureConnected(node); !status.ok()) {
      last = status;
      continue;
    }
    auto* raw =
        static_cast<redisReply*>(redisCommand(node.context, "CLUSTER SLOTS"));
    if (raw == nullptr) {
      last = absl::UnavailableError(absl::StrCat("redis ", Name(node.endpoint),
                                                 ": ", node.context->errstr));
      Close(node);
      continue;
    }
    const RedisReply reply = Convert(*raw);
    freeReplyObject(raw);
    if (reply.IsError()) {
      if (absl::StrContains(reply.str, "cluster support disabled")) {
        return absl::FailedPreconditionError(absl::StrCat(
            "redis ", Name(node.endpoint),
            " is not in cluster mode (RedisOptions::cluster is true)"));
      }
      last = absl::UnavailableError(absl::StrCat(
          "redis ", Name(node.endpoint), ": CLUSTER SLOTS: ", reply.str));
      continue;
    }
    // Each entry: [first slot, last slot, [host, port, id, ...], replicas...].
    std::vector<int> owners(kClusterSlots, -1);
    bool well_formed = reply.type == RedisReply::Type::kArray;
    for (const RedisReply& range : reply.elements) {
      if (range.type != RedisReply::Type::kArray || range.elements.size() < 3 ||
          range.elements[0].type != RedisReply::Type::kInteger ||
          range.elements[1].type != RedisReply::Type::kInteger ||
          range.elements[2].type != RedisReply::Type::kArray ||
          range.elements[2].elements.size() < 2 ||
          range.elements[2].elements[0].type != RedisReply::Type::kString ||
          range.elements[2].elements[1].type != RedisReply::Type::kInteger) {
        well_formed = false;
        break;
      }
      const long long first = range.elements[0].integer;
      const long long last_slot = range.elements[1].integer;
      if (first < 0 || last_slot >= kClusterSlots || first > last_slot) {
        well_formed = false;
        break;
      }
      RedisEndpoint master;
      master.host = range.elements[2].elements[0].str;
      master.port = static_cast<int>(range.elements[2].elements[1].integer);
      // An empty host means "the address you reached me at".
      if (master.host.empty()) master.host = node.endpoint.host;
      const int index = NodeIndex(master);
      std::fill(owners.begin() + first, owners.begin() + last_slot + 1, index);
    }
    if (!well_formed) {
      last = absl::UnavailableError(
          absl::StrCat("redis ", Name(nodes_[n]->endpoint),
                       ": malformed CLUSTER SLOTS reply"));
      continue;
    }
    slot_owner_ = std::move(owners);
    return absl::OkStatus();
  }
  return last;
}

absl::Status RedisClient::RoundTrip(Node& node,
                                    absl::Span<const RedisCommand> commands,
                                    const std::vector<size_t>& indexes,
                                    const std::vector<bool>& asking,
                                    std::vector<RedisReply>* replies,
                                    std::vector<bool>* answered) {
  answered->assign(indexes.size(), false);
  if (absl::Status status = EnsureConnected(node); !status.ok()) return status;
  std::vector<const char*> argv;
  std::vector<size_t> lengths;
  for (size_t j = 0; j < indexes.size(); ++j) {
    const RedisCommand& command = commands[indexes[j]];
    if (asking[j]) {
      const char* ask[] = {"ASKING"};
      const size_t ask_length[] = {6};
      redisAppendCommandArgv(node.context, 1, ask, ask_length);
    }
    argv.clear();
    lengths.clear();
    for (size_t a = 0; a < command.args.size(); ++a) {
      const std::string& arg = (command.script >= 0 && a == 1)
                                   ? script_shas_[command.script]
                                   : command.args[a];
      argv.push_back(arg.data());
      lengths.push_back(arg.size());
    }
    if (redisAppendCommandArgv(node.context, static_cast<int>(argv.size()),
                               argv.data(), lengths.data()) != REDIS_OK) {
      absl::Status status = absl::UnavailableError(absl::StrCat(
          "redis ", Name(node.endpoint), ": ", node.context->errstr));
      Close(node);
      return status;
    }
  }
  for (size_t j = 0; j < indexes.size(); ++j) {
    const int expected = asking[j] ? 2 : 1;  // ASKING's +OK, then the reply
    for (int r = 0; r < expected; ++r) {
      void* raw = nullptr;
      if (redisGetReply(node.context, &raw) != REDIS_OK || raw == nullptr) {
        absl::Status status = absl::UnavailableError(absl::StrCat(
            "redis ", Name(node.endpoint), ": ",
            node.context->err == REDIS_ERR_IO
                ? std::string("I/O error or timeout: ") + node.context->errstr
                : std::string(node.context->errstr)));
        Close(node);
        return status;
      }
      if (r + 1 == expected) {
        (*replies)[indexes[j]] = Convert(*static_cast<redisReply*>(raw));
        (*answered)[j] = true;
      }
      freeReplyObject(raw);
    }
  }
  return absl::OkStatus();
}

absl::Status RedisClient::Execute(absl::Span<const RedisCommand> commands,
                                  std::vector<RedisReply>* replies) {
  replies->assign(commands.size(), RedisReply());
  // Where each command goes next: a node from its slot, or from an ASK.
  std::vector<int> ask_node(commands.size(), -1);
  std::vector<size_t> pending(commands.size());
  for (size_t i = 0; i < pending.size(); ++i) pending[i] = i;
  int failed_attempts = 0;
  int redirections = 0;
  absl::Status last_error;
  std::vector<size_t> group;
  std::vector<bool> asking;
  std::vector<bool> answered;
  while (!pending.empty()) {
    std::vector<size_t> retry;   // failed: counts as an attempt
    std::vector<size_t> follow;  // redirected: does not
    bool refresh = false;
    // One pipeline per node, in node order.
    std::vector<int> target(pending.size());
    for (size_t p = 0; p < pending.size(); ++p) {
      const size_t i = pending[p];
      target[p] = ask_node[i] >= 0 ? ask_node[i] : Route(commands[i]);
    }
    for (size_t n = 0; n < nodes_.size(); ++n) {
      group.clear();
      asking.clear();
      for (size_t p = 0; p < pending.size(); ++p) {
        if (target[p] != static_cast<int>(n)) continue;
        group.push_back(pending[p]);
        asking.push_back(ask_node[pending[p]] >= 0);
      }
      if (group.empty()) continue;
      const absl::Status status =
          RoundTrip(*nodes_[n], commands, group, asking, replies, &answered);
      if (absl::IsUnauthenticated(status) || absl::IsPermissionDenied(status)) {
        return status;
      }
      if (!status.ok()) {
        last_error = status;
        refresh = true;
      }
      for (size_t j = 0; j < group.size(); ++j) {
        const size_t i = group[j];
        ask_node[i] = -1;
        if (!answered[j]) {
          retry.push_back(i);
          continue;
        }
        const RedisReply& reply = (*replies)[i];
        if (!reply.IsError()) continue;
        if (absl::Status refused = ErrorReplyStatus(
                absl::StrCat("redis ", Name(nodes_[n]->endpoint)), reply.str);
            !refused.ok()) {
          return refused;
        }
        bool ask = false;
        int slot = 0;
        RedisEndpoint endpoint;
        if (options_.cluster &&
            ParseRedirection(reply.str, &ask, &slot, &endpoint)) {
          const int to = NodeIndex(endpoint);
          if (ask) {
            ask_node[i] = to;
            ++stats_.asked;
          } else {
            slot_owner_[slot] = to;
            ++stats_.moved;
          }
          follow.push_back(i);
        } else if (IsTransientError(reply.str)) {
          last_error = absl::UnavailableError(absl::StrCat(
              "redis ", Name(nodes_[n]->endpoint), ": ", reply.str));
          // A server that lost its scripts (restarted, or SCRIPT FLUSH)
          // reloads them on a new connection.
          if (absl::StartsWith(reply.str, "NOSCRIPT")) Close(*nodes_[n]);
          if (absl::StartsWith(reply.str, "CLUSTERDOWN")) refresh = true;
          retry.push_back(i);
        }
      }
    }
    if (!follow.empty() && ++redirections > kMaxRedirections) {
      return absl::UnavailableError(absl::StrCat(
          "redis cluster: more than ", kMaxRedirections,
          " redirections; last reply: ", (*replies)[follow.front()].str));
    }
    if (!retry.empty()) {
      if (++failed_attempts >= options_.max_attempts) {
        return absl::UnavailableError(
            absl::StrCat(last_error.message(), " (", failed_attempts,
                         failed_attempts == 1 ? " attempt)" : " attempts)"));
      }
      stats_.retries += retry.size();
      Pause(failed_attempts);
      if (options_.cluster && refresh) {
        RefreshSlots().IgnoreError();  // the next attempt reports the failure
      }
    }
    pending = std::move(retry);
    pending.insert(pending.end(), follow.begin(), follow.end());
  }
  return absl::OkStatus();
}

absl::StatusOr<RedisReply> RedisClient::Execute(const RedisCommand& command) {
  std::vector<RedisReply> replies;
  if (absl::Status status = Execute(absl::MakeConstSpan(&command, 1), &replies);
      !status.ok()) {
    return status;
  }
  return std::move(replies[0]);
}

}  // namespace sstfilter
