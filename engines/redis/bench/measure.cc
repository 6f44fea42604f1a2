// For each key count: the server's memory (INFO memory, used_memory after the
// load minus before), the false-positive rate on fresh absent keys, and
// operations per second single (each waits for its reply) and pipelined, with
// 1 and 8 clients (threads, one connection each). Rates are medians of rounds
// that run the implementations one after another, so that the machine's drift
// hits all alike; every query and add uses keys no earlier measurement used.

#include "engines/redis/bench/measure.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "docs/redis_bench_names.h"
#include "engines/redis/bench/clients.h"
#include "filter/testing/filter_test_util.h"

namespace sstfilter {
namespace bench {
namespace {

using docs::redis_bench::kBitmap;
using docs::redis_bench::kBitmapOneTrip;
using docs::redis_bench::kSet;
using docs::redis_bench::kSstfilter;

using Clock = std::chrono::steady_clock;

constexpr int kManyClients = 8;
constexpr uint64_t kFppQueries = 200000;
// Key sets (test::Key16's first argument): the loaded keys, then one fresh
// set per measurement.
constexpr uint64_t kLoadedSet = 0;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
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
  for (int v : {kSstfilter, kSet, kBitmap}) {
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
  nlohmann::json& bitmap = (*run)[impls[kBitmap].name];
  (*run)[impls[kBitmapOneTrip].name]["memory_bytes"] = bitmap["memory_bytes"];
  (*run)[impls[kBitmapOneTrip].name]["load_adds_per_s"] =
      bitmap["load_adds_per_s"];
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

}  // namespace

absl::StatusOr<nlohmann::json> MeasureAll(const test::RedisServer& server,
                                          const RedisOptions& redis,
                                          const Settings& settings) {
  nlohmann::json out;
  out["redis_version"] = RedisVersion(server);
  out["fpp"] = settings.fpp;
  out["pipeline_keys"] = kPipelineKeys;
  out["rounds"] = settings.rounds;
  out["runs"] = nlohmann::json::array();
  uint64_t next_set = 1;  // fresh key sets from here on
  for (const uint64_t n : settings.sizes) {
    absl::StatusOr<nlohmann::json> run =
        MeasureKeyCount(server, redis, settings, n, &next_set);
    if (!run.ok()) return run.status();
    out["runs"].push_back(*std::move(run));
  }
  return out;
}

}  // namespace bench
}  // namespace sstfilter
