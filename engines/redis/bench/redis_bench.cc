// redis_bench: a Bloom filter shared through Redis, three ways, against one
// local redis-server this program starts (engines/redis/redis_server.h):
//   sstfilter   RedisBloomFilter: one EVALSHA per add, one GETRANGE of a
//               64-byte block per query
//   set         a Redis set: SADD / SISMEMBER
//   k-command   the textbook Redis Bloom filter: one bitmap, k SETBIT / GETBIT
//               commands per key at positions h1 + i * h2 (Kirsch and
//               Mitzenmacher), m and k optimal for the rate
// For each key count: the server's memory (INFO memory, used_memory after
// the load minus before), the false-positive rate on fresh absent keys, and
// operations per second single (each waits for its reply) and pipelined
// (1,024 keys per round trip), with 1 and 8 clients (threads, one
// connection each). Rates are medians of rounds that run the three
// implementations one after another, so that the machine's drift hits all
// three alike; every query and add uses keys no earlier measurement used.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "engines/redis/redis_bloom.h"
#include "engines/redis/redis_client.h"
#include "engines/redis/redis_server.h"
#include "filter/filter_spec.h"
#include "filter/testing/filter_test_util.h"
#include "nlohmann/json.hpp"
#include "util/flag_check.h"
#include "util/hash.h"

ABSL_FLAG(std::string, keys, "1e6,1e7",
          "key counts, comma-separated: each loads every implementation with "
          "that many keys");
ABSL_FLAG(
    std::string, filter, "bloom:fpp=0.01",
    "sstfilter's filter, by spec (filter/filter_spec.h): the bloom family "
    "sized by fpp, at which the k-command filter is sized too");
ABSL_FLAG(std::string, fpp, "",
          "replaced by --filter: --fpp=0.001 is --filter=bloom:fpp=0.001");
ABSL_FLAG(uint64_t, single_ops, 10000,
          "operations per single-mode figure and client");
ABSL_FLAG(uint64_t, pipelined_ops, 100000,
          "operations per pipelined figure and client");
ABSL_FLAG(int, rounds, 3, "rounds of each figure; the median counts");
ABSL_FLAG(std::string, json, "", "also write the results to this file");
ABSL_FLAG(std::string, table_from, "",
          "print the table of a --json file instead of measuring");
ABSL_FLAG(bool, readme, false,
          "with --table_from: print engines/redis/README.md's shorter table "
          "instead");

namespace sstfilter {
namespace bench {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kUsageExit = 2;
constexpr int kErrorExit = 1;
constexpr int kFalseNegativeExit = 3;  // a loaded key was not found
constexpr size_t kPipelineKeys = 1024;
constexpr int kManyClients = 8;
constexpr uint64_t kMaxKeys = 100'000'000;
constexpr uint64_t kFppQueries = 200000;
// Key sets (test::Key16's first argument): the loaded keys, then one fresh
// set per measurement.
constexpr uint64_t kLoadedSet = 0;
// The implementations, in the order of the tables: each one's key in the
// JSON, and the name its rows print (sstfilter's filter by its spec family,
// the others as peers: Redis's set, and the textbook filter of k SETBIT and
// GETBIT commands, one round trip per command or per key).
constexpr const char* kImplNames[] = {"sstfilter", "set", "k-command",
                                      "k-command, 1 trip"};
constexpr const char* kRowNames[] = {
    "bloom", "lib:redis.set", "lib:redis.setbit", "lib:redis.setbit.one_trip"};
static_assert(sizeof(kImplNames) == sizeof(kRowNames), "a name per impl");

// The name the rows of the implementation whose JSON key is impl print.
const char* RowName(const char* impl) {
  for (size_t i = 0; i < sizeof(kImplNames) / sizeof(kImplNames[0]); ++i) {
    if (absl::string_view(impl) == kImplNames[i]) return kRowNames[i];
  }
  return impl;
}

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// One implementation, as each client thread drives it.
class Client {
 public:
  virtual ~Client() = default;
  // Adds or queries keys; `pipelined` sends up to kPipelineKeys per round
  // trip, otherwise one key per round trip. Returns the number that matched
  // (queries) or an error.
  virtual absl::StatusOr<uint64_t> Run(const std::vector<std::string>& keys,
                                       bool add, bool pipelined) = 0;
};

struct Impl {
  std::string name;
  std::string add_commands;  // per key, as the table says
  std::string query_commands;
  double round_trips_single = 1;  // per key when each waits for its reply
  std::function<absl::StatusOr<std::unique_ptr<Client>>()> connect;
  std::function<absl::Status(uint64_t keys)> create;
};

std::vector<absl::string_view> Views(const std::vector<std::string>& keys,
                                     size_t start, size_t n) {
  return std::vector<absl::string_view>(keys.begin() + start,
                                        keys.begin() + start + n);
}

class SstfilterClient : public Client {
 public:
  explicit SstfilterClient(std::unique_ptr<RedisBloomFilter> filter)
      : filter_(std::move(filter)) {}
  absl::StatusOr<uint64_t> Run(const std::vector<std::string>& keys, bool add,
                               bool pipelined) override {
    uint64_t matched = 0;
    if (!pipelined) {
      for (const std::string& key : keys) {
        absl::StatusOr<bool> r =
            add ? filter_->Add(key) : filter_->MayContain(key);
        if (!r.ok()) return r.status();
        matched += *r;
      }
      return matched;
    }
    std::unique_ptr<bool[]> results(new bool[kPipelineKeys]);
    for (size_t start = 0; start < keys.size(); start += kPipelineKeys) {
      const size_t n = std::min(kPipelineKeys, keys.size() - start);
      const std::vector<absl::string_view> batch = Views(keys, start, n);
      absl::Status status = add ? filter_->Add(batch, results.get())
                                : filter_->MayContain(batch, results.get());
      if (!status.ok()) return status;
      for (size_t i = 0; i < n; ++i) matched += results[i];
    }
    return matched;
  }

 private:
  std::unique_ptr<RedisBloomFilter> filter_;
};

// Commands for each key through RedisClient, the same client code the
// filter uses; a query matches when every reply is the integer 1.
class CommandClient : public Client {
 public:
  using MakeCommands = std::function<void(const std::string& key, bool add,
                                          std::vector<RedisCommand>* out)>;
  CommandClient(std::unique_ptr<RedisClient> client, MakeCommands make,
                bool one_round_trip_per_command)
      : client_(std::move(client)),
        make_(std::move(make)),
        per_command_(one_round_trip_per_command) {}

  absl::StatusOr<uint64_t> Run(const std::vector<std::string>& keys, bool add,
                               bool pipelined) override {
    uint64_t matched = 0;
    std::vector<RedisCommand> commands;
    std::vector<size_t> first;  // index of each key's first command
    std::vector<RedisReply> replies;
    const size_t group = pipelined ? kPipelineKeys : 1;
    for (size_t start = 0; start < keys.size(); start += group) {
      const size_t n = std::min(group, keys.size() - start);
      commands.clear();
      first.clear();
      for (size_t i = 0; i < n; ++i) {
        first.push_back(commands.size());
        make_(keys[start + i], add, &commands);
      }
      first.push_back(commands.size());
      if (!pipelined && per_command_) {
        // The naive client: each command waits for the one before.
        replies.clear();
        for (const RedisCommand& command : commands) {
          absl::StatusOr<RedisReply> reply = client_->Execute(command);
          if (!reply.ok()) return reply.status();
          replies.push_back(*std::move(reply));
        }
      } else if (absl::Status status = client_->Execute(commands, &replies);
                 !status.ok()) {
        return status;
      }
      for (size_t i = 0; i < n; ++i) {
        bool all = true;
        for (size_t c = first[i]; c < first[i + 1]; ++c) {
          if (replies[c].IsError()) {
            return absl::InternalError(replies[c].str);
          }
          all &= replies[c].type == RedisReply::Type::kInteger &&
                 replies[c].integer == 1;
        }
        matched += all;
      }
    }
    return matched;
  }

 private:
  std::unique_ptr<RedisClient> client_;
  MakeCommands make_;
  bool per_command_;
};

// Optimal textbook sizing: m = -n ln p / ln^2 2 bits, k = round(m/n ln 2).
struct Textbook {
  uint64_t bits;
  int k;
};
Textbook TextbookSizing(uint64_t n, double fpp) {
  const double m = std::ceil(-static_cast<double>(n) * std::log(fpp) /
                             (std::log(2.0) * std::log(2.0)));
  const int k = std::max(1, static_cast<int>(std::lround(
                                m / static_cast<double>(n) * std::log(2.0))));
  return {static_cast<uint64_t>(m), k};
}

absl::StatusOr<uint64_t> UsedMemory(const test::RedisServer& server) {
  absl::StatusOr<RedisReply> info = server.Command({"INFO", "memory"});
  if (!info.ok()) return info.status();
  for (absl::string_view line : absl::StrSplit(info->str, "\r\n")) {
    if (absl::ConsumePrefix(&line, "used_memory:")) {
      uint64_t value = 0;
      if (absl::SimpleAtoi(line, &value)) return value;
    }
  }
  return absl::InternalError("INFO memory has no used_memory");
}

// Runs `clients` threads, thread t on keys[t], and returns operations per
// second over the wall time, and the matches.
absl::StatusOr<std::pair<double, uint64_t>> RunClients(
    const Impl& impl, const std::vector<std::vector<std::string>>& keys,
    bool add, bool pipelined) {
  std::vector<std::unique_ptr<Client>> clients;
  for (size_t t = 0; t < keys.size(); ++t) {
    absl::StatusOr<std::unique_ptr<Client>> client = impl.connect();
    if (!client.ok()) return client.status();
    clients.push_back(*std::move(client));
  }
  std::vector<absl::StatusOr<uint64_t>> results(keys.size(), uint64_t{0});
  const Clock::time_point start = Clock::now();
  std::vector<std::thread> threads;
  for (size_t t = 0; t < keys.size(); ++t) {
    threads.emplace_back(
        [&, t] { results[t] = clients[t]->Run(keys[t], add, pipelined); });
  }
  for (auto& thread : threads) thread.join();
  const double seconds = SecondsSince(start);
  uint64_t ops = 0, matched = 0;
  for (size_t t = 0; t < keys.size(); ++t) {
    if (!results[t].ok()) return results[t].status();
    ops += keys[t].size();
    matched += *results[t];
  }
  return std::make_pair(ops / seconds, matched);
}

// value[name], or null when absent (operator[] of a const json asserts).
const nlohmann::json& Field(const nlohmann::json& value, const char* name) {
  static const nlohmann::json kNull;
  if (!value.is_object()) return kNull;
  auto it = value.find(name);
  return it == value.end() ? kNull : *it;
}

// Operations per second as "123k" or "1.23M".
std::string Rate(const nlohmann::json& value) {
  if (!value.is_number()) return "–";
  const double r = value.get<double>();
  if (r >= 1e6) return absl::StrFormat("%.2fM", r / 1e6);
  return absl::StrFormat("%.0fk", r / 1e3);
}

// The markdown the README shows: one table per key count, and the ratios
// of sstfilter to the others.
std::string RedisBenchTable(const nlohmann::json& out) {
  std::string text = absl::StrFormat(
      "Redis %s on loopback; 16-byte keys; Bloom filters at fpp %g; pipelines "
      "of %d keys; medians of %d interleaved rounds; operations per second.\n",
      out.value("redis_version", "?"), out.value("fpp", 0.0),
      out.value("pipeline_keys", 0), out.value("rounds", 0));
  for (const nlohmann::json& run : Field(out, "runs")) {
    const double n = run.value("keys", 1.0);
    absl::StrAppendFormat(
        &text,
        "\n**%s keys** (k-command: %s bits, k = %d)\n\n"
        "| | server memory | bytes/key | FP rate | query 1 client | "
        "query 8 clients | query pipelined 1 | query pipelined 8 | add 1 "
        "client | add 8 clients | add pipelined 1 | add pipelined 8 | "
        "commands per add / query | round trips per key |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
        absl::StrCat(run.value("keys", uint64_t{0})),
        absl::StrCat(run.value("k_command_bits", uint64_t{0})),
        run.value("k_command_k", 0));
    for (const char* impl : kImplNames) {
      if (!run.contains(impl)) continue;
      const nlohmann::json& r = Field(run, impl);
      const double memory = r.value("memory_bytes", 0.0);
      absl::StrAppendFormat(
          &text,
          "| %s | %.1f MB | %.2f | %.2f%% | %s | %s | %s | %s | %s | %s "
          "| %s | %s | %s / %s | %g |\n",
          RowName(impl), memory / 1e6, memory / n, 100 * r.value("fpp", 0.0),
          Rate(Field(r, "query_single_1")), Rate(Field(r, "query_single_8")),
          Rate(Field(r, "query_pipelined_1")),
          Rate(Field(r, "query_pipelined_8")), Rate(Field(r, "add_single_1")),
          Rate(Field(r, "add_single_8")), Rate(Field(r, "add_pipelined_1")),
          Rate(Field(r, "load_adds_per_s")), r.value("add_commands", "?"),
          r.value("query_commands", "?"), r.value("round_trips_single", 0.0));
    }
    auto ratio = [&](const char* other, const char* field) {
      const nlohmann::json& a = Field(Field(run, "sstfilter"), field);
      const nlohmann::json& b = Field(Field(run, other), field);
      if (!a.is_number() || !b.is_number() || b.get<double>() == 0) {
        return std::string("–");
      }
      return absl::StrFormat("%.1f×", a.get<double>() / b.get<double>());
    };
    absl::StrAppendFormat(
        &text,
        "\nsstfilter against the set: %s less memory. Queries per second "
        "against the k-command filter, 1 client single / 8 single / "
        "pipelined 1 / pipelined 8: %s / %s / %s / %s (one round trip per "
        "key for both: %s / %s / %s / %s).\n",
        ratio("set", "memory_bytes") == "–"
            ? "–"
            : absl::StrFormat(
                  "%.0f×",
                  Field(run, "set").value("memory_bytes", 0.0) /
                      Field(run, "sstfilter").value("memory_bytes", 1.0)),
        ratio("k-command", "query_single_1"),
        ratio("k-command", "query_single_8"),
        ratio("k-command", "query_pipelined_1"),
        ratio("k-command", "query_pipelined_8"),
        ratio("k-command, 1 trip", "query_single_1"),
        ratio("k-command, 1 trip", "query_single_8"),
        ratio("k-command, 1 trip", "query_pipelined_1"),
        ratio("k-command, 1 trip", "query_pipelined_8"));
  }
  return text;
}

// engines/redis/README.md's table: every key count in one table, the figures a
// user choosing between the three needs, and the ratios.
std::string ReadmeTable(const nlohmann::json& out) {
  std::string text = absl::StrFormat(
      "Redis %s on loopback, the server and the clients on the same 2 cores; "
      "16-byte keys; Bloom filters at fpp %g; operations per second, medians "
      "of %d interleaved rounds; pipelined: %d keys per round trip.\n\n"
      "| keys | | server memory | bytes/key | FP rate | query, 1 client | "
      "query, 8 clients | query, pipelined | add, 1 client | add, pipelined "
      "| round trips per query |\n"
      "|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n",
      out.value("redis_version", "?"), out.value("fpp", 0.0),
      out.value("rounds", 0), out.value("pipeline_keys", 0));
  std::string ratios;
  for (const nlohmann::json& run : Field(out, "runs")) {
    const double n = run.value("keys", 1.0);
    for (const char* impl : kImplNames) {
      if (!run.contains(impl)) continue;
      const nlohmann::json& r = Field(run, impl);
      const double memory = r.value("memory_bytes", 0.0);
      absl::StrAppendFormat(
          &text,
          "| %s | %s | %.1f MB | %.2f | %.2f%% | %s | %s | %s | %s | %s | %g "
          "|\n",
          absl::StrFormat("10^%d",
                          static_cast<int>(std::lround(std::log10(n)))),
          RowName(impl), memory / 1e6, memory / n, 100 * r.value("fpp", 0.0),
          Rate(Field(r, "query_single_1")), Rate(Field(r, "query_single_8")),
          Rate(Field(r, "query_pipelined_1")), Rate(Field(r, "add_single_1")),
          Rate(Field(r, "add_pipelined_1")),
          r.value("round_trips_single", 0.0));
    }
    auto ratio = [&](const char* other, const char* field, bool inverse) {
      const double a = Field(run, "sstfilter").value(field, 0.0);
      const double b = Field(run, other).value(field, 0.0);
      if (a <= 0 || b <= 0) return std::string("–");
      return absl::StrFormat("%.1f×", inverse ? b / a : a / b);
    };
    absl::StrAppendFormat(
        &ratios,
        "- 10^%d keys: %s less server memory than the set; queries per second "
        "%s (1 client) and %s (pipelined) the k-command filter's, %s and %s "
        "that of its one-round-trip form.\n",
        static_cast<int>(std::lround(std::log10(n))),
        ratio("set", "memory_bytes", true),
        ratio("k-command", "query_single_1", false),
        ratio("k-command", "query_pipelined_1", false),
        ratio("k-command, 1 trip", "query_single_1", false),
        ratio("k-command, 1 trip", "query_pipelined_1", false));
  }
  return text + "\n" + ratios;
}

// What to measure, from the command line.
struct Settings {
  std::vector<uint64_t> sizes;  // key counts, one run each
  double fpp = 0.01;
  uint64_t single_ops = 0;     // per single-mode figure and client
  uint64_t pipelined_ops = 0;  // per pipelined figure and client
  int rounds = 1;
};

// The flags as Settings; an InvalidArgumentError names a bad value.
absl::StatusOr<Settings> ReadSettings() {
  Settings settings;
  for (absl::string_view item :
       absl::StrSplit(absl::GetFlag(FLAGS_keys), ',', absl::SkipEmpty())) {
    double value = 0;
    if (!absl::SimpleAtod(item, &value) || !(value >= 1 && value <= kMaxKeys) ||
        value != std::floor(value)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--keys takes whole numbers from 1 to 1e8, got '", item, "'"));
    }
    settings.sizes.push_back(static_cast<uint64_t>(value));
  }
  if (!absl::GetFlag(FLAGS_fpp).empty()) {
    return absl::InvalidArgumentError(
        "--fpp is replaced by --filter: --fpp=P is --filter=bloom:fpp=P");
  }
  absl::StatusOr<PolicySpec> spec =
      ParsePolicySpec(absl::GetFlag(FLAGS_filter));
  if (!spec.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--filter: ", spec.status().message()));
  }
  if (spec->family != "bloom" || !spec->options.fpp.has_value() ||
      !spec->params.empty() || spec->options.self_checksum.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--filter: \"", absl::GetFlag(FLAGS_filter),
        "\" is not bloom:fpp=P, which both Redis filters are sized by"));
  }
  settings.fpp = *spec->options.fpp;
  settings.single_ops = absl::GetFlag(FLAGS_single_ops);
  settings.pipelined_ops = absl::GetFlag(FLAGS_pipelined_ops);
  settings.rounds = absl::GetFlag(FLAGS_rounds);
  if (settings.sizes.empty() || !(settings.fpp > 0 && settings.fpp < 1) ||
      settings.single_ops == 0 || settings.pipelined_ops == 0 ||
      settings.rounds < 1) {
    return absl::InvalidArgumentError(
        "need --keys, an fpp in (0, 1), positive --single_ops, "
        "--pipelined_ops and --rounds");
  }
  return settings;
}

// The table of a saved --json file (--table_from), README's with --readme.
int PrintSavedTable(const std::string& path) {
  std::ifstream file(path);
  const nlohmann::json saved = nlohmann::json::parse(file, nullptr, false);
  if (!file || saved.is_discarded() || !saved.contains("runs")) {
    std::cerr << "redis_bench: " << path
              << " is not a redis_bench --json file\n";
    return kErrorExit;
  }
  std::cout << (absl::GetFlag(FLAGS_readme) ? ReadmeTable(saved)
                                            : RedisBenchTable(saved));
  return 0;
}

// The server's version, from INFO server ("?" if it does not say).
std::string RedisVersion(const test::RedisServer& server) {
  absl::StatusOr<RedisReply> info = server.Command({"INFO", "server"});
  if (info.ok()) {
    for (absl::string_view line : absl::StrSplit(info->str, "\r\n")) {
      if (absl::ConsumePrefix(&line, "redis_version:"))
        return std::string(line);
    }
  }
  return "?";
}

// The Redis keys each implementation keeps its data under.
constexpr char kFilterKey[] = "bench:sstfilter";
constexpr char kSetKey[] = "bench:set";
constexpr char kBitmapKey[] = "bench:bitmap";

// The four implementations of kImplNames for n keys at fpp. They refer to
// *server, which must outlive them.
std::vector<Impl> MakeImpls(const RedisOptions& redis,
                            const test::RedisServer* server,
                            const Textbook& textbook, double fpp) {
  auto connect_client = [redis]() { return RedisClient::Connect(redis); };
  std::vector<Impl> impls(4);
  impls[0].name = kImplNames[0];
  impls[0].add_commands = "1 EVALSHA (STRLEN + BITFIELD)";
  impls[0].query_commands = "1 GETRANGE (64 bytes)";
  impls[0].connect = [redis]() -> absl::StatusOr<std::unique_ptr<Client>> {
    absl::StatusOr<std::unique_ptr<RedisBloomFilter>> filter =
        RedisBloomFilter::Open(redis, kFilterKey);
    if (!filter.ok()) return filter.status();
    return std::unique_ptr<Client>(new SstfilterClient(*std::move(filter)));
  };
  impls[0].create = [redis, fpp](uint64_t keys) {
    return RedisBloomFilter::Create(redis, kFilterKey, FilterOptions::Fpp(fpp),
                                    keys)
        .status();
  };
  impls[1].name = kImplNames[1];
  impls[1].add_commands = "1 SADD";
  impls[1].query_commands = "1 SISMEMBER";
  impls[1].connect =
      [connect_client]() -> absl::StatusOr<std::unique_ptr<Client>> {
    absl::StatusOr<std::unique_ptr<RedisClient>> c = connect_client();
    if (!c.ok()) return c.status();
    return std::unique_ptr<Client>(new CommandClient(
        *std::move(c),
        [](const std::string& key, bool add, std::vector<RedisCommand>* o) {
          o->push_back(
              RedisCommand{{add ? "SADD" : "SISMEMBER", kSetKey, key}});
        },
        false));
  };
  impls[1].create = [](uint64_t) { return absl::OkStatus(); };
  auto bitmap_commands = [textbook](const std::string& key, bool add,
                                    std::vector<RedisCommand>* o) {
    const uint64_t hash = Hash64(key);
    const uint64_t h1 = hash, h2 = (hash >> 32) | (hash << 32) | 1;
    for (int i = 0; i < textbook.k; ++i) {
      const uint64_t bit = (h1 + i * h2) % textbook.bits;
      if (add) {
        o->push_back(
            RedisCommand{{"SETBIT", kBitmapKey, absl::StrCat(bit), "1"}});
      } else {
        o->push_back(RedisCommand{{"GETBIT", kBitmapKey, absl::StrCat(bit)}});
      }
    }
  };
  for (int v = 2; v <= 3; ++v) {
    const bool naive = v == 2;
    impls[v].name = kImplNames[v];
    impls[v].add_commands = absl::StrCat(textbook.k, " SETBIT");
    impls[v].query_commands = absl::StrCat(textbook.k, " GETBIT");
    impls[v].round_trips_single = naive ? textbook.k : 1;
    impls[v].connect =
        [connect_client, naive,
         bitmap_commands]() -> absl::StatusOr<std::unique_ptr<Client>> {
      absl::StatusOr<std::unique_ptr<RedisClient>> c = connect_client();
      if (!c.ok()) return c.status();
      return std::unique_ptr<Client>(
          new CommandClient(*std::move(c), bitmap_commands, naive));
    };
    impls[v].create = [server, textbook](uint64_t) {
      // The whole bitmap at once, as a textbook client sizes it.
      return server
          ->Command(
              {"SETBIT", kBitmapKey, absl::StrCat(textbook.bits - 1), "0"})
          .status();
    };
  }
  return impls;
}

// Loads the same n keys into every implementation, 8 clients pipelined (also
// the first pipelined-add figure), and records each one's memory. The two
// k-command variants share the bitmap: created and loaded once.
absl::Status LoadImpls(const std::vector<Impl>& impls,
                       const test::RedisServer& server, uint64_t n,
                       nlohmann::json* run) {
  std::vector<std::vector<std::string>> load(kManyClients);
  for (uint64_t i = 0; i < n; ++i) {
    load[i % kManyClients].push_back(test::Key16(kLoadedSet, i));
  }
  for (int v : {0, 1, 2}) {
    absl::StatusOr<uint64_t> before = UsedMemory(server);
    if (absl::Status s = impls[v].create(n); !s.ok()) {
      return absl::InternalError(
          absl::StrCat(impls[v].name, ": ", s.ToString()));
    }
    absl::StatusOr<std::pair<double, uint64_t>> rate =
        RunClients(impls[v], load, /*add=*/true, /*pipelined=*/true);
    absl::StatusOr<uint64_t> after = UsedMemory(server);
    for (const absl::Status& s :
         {rate.status(), before.status(), after.status()}) {
      if (!s.ok()) {
        return absl::InternalError(
            absl::StrCat("loading ", impls[v].name, ": ", s.ToString()));
      }
    }
    (*run)[impls[v].name]["memory_bytes"] = *after - *before;
    (*run)[impls[v].name]["load_adds_per_s"] = rate->first;
    std::cerr << "loaded " << impls[v].name << " with " << n
              << " keys: " << (*after - *before) / 1e6 << " MB, " << rate->first
              << " adds/s\n";
  }
  (*run)[impls[3].name]["memory_bytes"] = (*run)[impls[2].name]["memory_bytes"];
  (*run)[impls[3].name]["load_adds_per_s"] =
      (*run)[impls[2].name]["load_adds_per_s"];
  return absl::OkStatus();
}

// Each implementation's false-positive rate on the fresh key set absent_set,
// after checking that it finds loaded keys: a DataLossError when one does not.
absl::Status MeasureFpp(const std::vector<Impl>& impls, uint64_t n,
                        uint64_t absent_set, nlohmann::json* run) {
  for (const Impl& impl : impls) {
    std::vector<std::vector<std::string>> absent(1), present(1);
    absent[0] = test::Keys16(absent_set, 0, std::min<uint64_t>(kFppQueries, n));
    present[0] = test::Keys16(kLoadedSet, 0, std::min<uint64_t>(10000, n));
    absl::StatusOr<std::pair<double, uint64_t>> fp =
        RunClients(impl, absent, false, true);
    if (!fp.ok()) return fp.status();
    absl::StatusOr<std::pair<double, uint64_t>> found =
        RunClients(impl, present, false, true);
    if (!found.ok()) return found.status();
    if (found->second != present[0].size()) {
      return absl::DataLossError(absl::StrCat(impl.name, " lost keys"));
    }
    (*run)[impl.name]["fpp"] =
        static_cast<double>(fp->second) / absent[0].size();
  }
  return absl::OkStatus();
}

// One figure of the rate table.
struct Mode {
  const char* name;
  bool add, pipelined;
  int clients;
};
constexpr Mode kModes[] = {
    {"query_single_1", false, false, 1},
    {"query_single_8", false, false, kManyClients},
    {"query_pipelined_1", false, true, 1},
    {"query_pipelined_8", false, true, kManyClients},
    {"add_single_1", true, false, 1},
    {"add_single_8", true, false, kManyClients},
    {"add_pipelined_1", true, true, 1},
};

// Every mode's operations per second, the median of settings.rounds rounds
// that each run the implementations one after another on fresh keys (sets
// from *next_set on).
absl::Status MeasureRates(const std::vector<Impl>& impls,
                          const Settings& settings, uint64_t* next_set,
                          nlohmann::json* run) {
  for (const Mode& mode : kModes) {
    std::vector<std::vector<double>> rates(impls.size());
    for (int r = 0; r < settings.rounds; ++r) {
      for (size_t v = 0; v < impls.size(); ++v) {
        const uint64_t per_client =
            mode.pipelined ? settings.pipelined_ops : settings.single_ops;
        // The naive k-command client is k times slower single: fewer keys.
        const uint64_t ops = std::max<uint64_t>(
            1, per_client / static_cast<uint64_t>(impls[v].round_trips_single));
        std::vector<std::vector<std::string>> keys(mode.clients);
        for (int t = 0; t < mode.clients; ++t) {
          keys[t] = test::Keys16((*next_set)++, 0, ops);
        }
        absl::StatusOr<std::pair<double, uint64_t>> rate =
            RunClients(impls[v], keys, mode.add, mode.pipelined);
        if (!rate.ok()) {
          return absl::InternalError(absl::StrCat(
              impls[v].name, " ", mode.name, ": ", rate.status().ToString()));
        }
        rates[v].push_back(rate->first);
      }
    }
    for (size_t v = 0; v < impls.size(); ++v) {
      std::sort(rates[v].begin(), rates[v].end());
      (*run)[impls[v].name][mode.name] = rates[v][rates[v].size() / 2];
    }
    std::cerr << "measured " << mode.name << "\n";
  }
  return absl::OkStatus();
}

// One run of the results: every implementation loaded with n keys, then its
// false-positive rate and rates.
absl::StatusOr<nlohmann::json> MeasureKeyCount(const test::RedisServer& server,
                                               const RedisOptions& redis,
                                               const Settings& settings,
                                               uint64_t n, uint64_t* next_set) {
  const Textbook textbook = TextbookSizing(n, settings.fpp);
  const std::vector<Impl> impls =
      MakeImpls(redis, &server, textbook, settings.fpp);
  nlohmann::json run;
  run["keys"] = n;
  run["k_command_bits"] = textbook.bits;
  run["k_command_k"] = textbook.k;
  if (absl::Status s = server.Command({"FLUSHALL"}).status(); !s.ok()) return s;
  if (absl::Status s = LoadImpls(impls, server, n, &run); !s.ok()) return s;
  if (absl::Status s = MeasureFpp(impls, n, (*next_set)++, &run); !s.ok()) {
    return s;
  }
  if (absl::Status s = MeasureRates(impls, settings, next_set, &run); !s.ok()) {
    return s;
  }
  for (const Impl& impl : impls) {
    run[impl.name]["add_commands"] = impl.add_commands;
    run[impl.name]["query_commands"] = impl.query_commands;
    run[impl.name]["round_trips_single"] = impl.round_trips_single;
  }
  return run;
}

int Main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "redis_bench [--keys=1e6,1e7] [--filter=bloom:fpp=0.01] [--single_ops=N] "
      "[--pipelined_ops=N] [--rounds=N] [--json=FILE]\nA Bloom filter shared "
      "through Redis: sstfilter's RedisBloomFilter against a Redis set and "
      "the k-command Redis Bloom filter, on a redis-server it starts.");
  if (absl::Status flags = CheckFlags(argc, argv); !flags.ok()) {
    std::cerr << "redis_bench: " << flags.message() << "\n";
    return kUsageExit;
  }
  const std::vector<char*> rest = absl::ParseCommandLine(argc, argv);
  if (rest.size() > 1) {
    std::cerr << "redis_bench: stray argument " << rest[1] << "\n";
    return kUsageExit;
  }
  if (const std::string from = absl::GetFlag(FLAGS_table_from); !from.empty()) {
    return PrintSavedTable(from);
  }
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

  nlohmann::json out;
  out["redis_version"] = RedisVersion(**server);
  out["fpp"] = settings->fpp;
  out["pipeline_keys"] = kPipelineKeys;
  out["rounds"] = settings->rounds;
  out["runs"] = nlohmann::json::array();
  uint64_t next_set = 1;  // fresh key sets from here on
  for (const uint64_t n : settings->sizes) {
    absl::StatusOr<nlohmann::json> run =
        MeasureKeyCount(**server, redis, *settings, n, &next_set);
    if (!run.ok()) {
      std::cerr << "redis_bench: " << run.status().message() << "\n";
      return absl::IsDataLoss(run.status()) ? kFalseNegativeExit : kErrorExit;
    }
    out["runs"].push_back(*std::move(run));
  }

  if (const std::string json_path = absl::GetFlag(FLAGS_json);
      !json_path.empty()) {
    std::ofstream file(json_path);
    file << out.dump(2) << "\n";
  }
  std::cout << RedisBenchTable(out);
  return 0;
}

}  // namespace
}  // namespace bench
}  // namespace sstfilter

int main(int argc, char** argv) { return sstfilter::bench::Main(argc, argv); }
