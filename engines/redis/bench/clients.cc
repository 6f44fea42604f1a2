// redis_bench's implementations: sstfilter's RedisBloomFilter through its own
// API, and the Redis set and the textbook filter as commands sent through
// RedisClient, the same client code the filter uses.

#include "engines/redis/bench/clients.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "docs/redis_bench_names.h"
#include "engines/redis/redis_bloom.h"
#include "util/hash.h"

namespace sstfilter {
namespace bench {
namespace {

using docs::redis_bench::kBitmap;
using docs::redis_bench::kBitmapOneTrip;
using docs::redis_bench::kImplCount;
using docs::redis_bench::kImplNames;
using docs::redis_bench::kSet;
using docs::redis_bench::kSstfilter;

// The Redis keys each implementation keeps its data under.
constexpr char kFilterKey[] = "bench:sstfilter";
constexpr char kSetKey[] = "bench:set";
constexpr char kBitmapKey[] = "bench:bitmap";

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

// Commands for each key through RedisClient; a query matches when every
// reply is the integer 1.
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

// A client of the commands make sends over a new connection.
absl::StatusOr<std::unique_ptr<Client>> ConnectCommandClient(
    const RedisOptions& redis, CommandClient::MakeCommands make,
    bool one_round_trip_per_command) {
  absl::StatusOr<std::unique_ptr<RedisClient>> c = RedisClient::Connect(redis);
  if (!c.ok()) return c.status();
  return std::unique_ptr<Client>(new CommandClient(
      *std::move(c), std::move(make), one_round_trip_per_command));
}

Impl SstfilterImpl(const RedisOptions& redis, double fpp) {
  Impl impl;
  impl.name = kImplNames[kSstfilter];
  impl.add_commands = "1 EVALSHA (STRLEN + BITFIELD)";
  impl.query_commands = "1 GETRANGE (64 bytes)";
  impl.connect = [redis]() -> absl::StatusOr<std::unique_ptr<Client>> {
    absl::StatusOr<std::unique_ptr<RedisBloomFilter>> filter =
        RedisBloomFilter::Open(redis, kFilterKey);
    if (!filter.ok()) return filter.status();
    return std::unique_ptr<Client>(new SstfilterClient(*std::move(filter)));
  };
  impl.create = [redis, fpp](uint64_t keys) {
    return RedisBloomFilter::Create(redis, kFilterKey, FilterOptions::Fpp(fpp),
                                    keys)
        .status();
  };
  return impl;
}

Impl SetImpl(const RedisOptions& redis) {
  Impl impl;
  impl.name = kImplNames[kSet];
  impl.add_commands = "1 SADD";
  impl.query_commands = "1 SISMEMBER";
  impl.connect = [redis]() {
    return ConnectCommandClient(
        redis,
        [](const std::string& key, bool add, std::vector<RedisCommand>* o) {
          o->push_back(
              RedisCommand{{add ? "SADD" : "SISMEMBER", kSetKey, key}});
        },
        false);
  };
  impl.create = [](uint64_t) { return absl::OkStatus(); };
  return impl;
}

// The textbook filter: k commands per key at bits h1 + i * h2 (Kirsch and
// Mitzenmacher); `naive` waits for each command's reply before the next.
Impl BitmapImpl(const RedisOptions& redis, const test::RedisServer* server,
                const Textbook& textbook, bool naive) {
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
  Impl impl;
  impl.name = kImplNames[naive ? kBitmap : kBitmapOneTrip];
  impl.add_commands = absl::StrCat(textbook.k, " SETBIT");
  impl.query_commands = absl::StrCat(textbook.k, " GETBIT");
  impl.round_trips_single = naive ? textbook.k : 1;
  impl.connect = [redis, naive, bitmap_commands]() {
    return ConnectCommandClient(redis, bitmap_commands, naive);
  };
  impl.create = [server, textbook](uint64_t) {
    // The whole bitmap at once, as a textbook client sizes it.
    return server
        ->Command({"SETBIT", kBitmapKey, absl::StrCat(textbook.bits - 1), "0"})
        .status();
  };
  return impl;
}

}  // namespace

Textbook TextbookSizing(uint64_t n, double fpp) {
  const double m = std::ceil(-static_cast<double>(n) * std::log(fpp) /
                             (std::log(2.0) * std::log(2.0)));
  const int k = std::max(1, static_cast<int>(std::lround(
                                m / static_cast<double>(n) * std::log(2.0))));
  return {static_cast<uint64_t>(m), k};
}

std::vector<Impl> MakeImpls(const RedisOptions& redis,
                            const test::RedisServer* server,
                            const Textbook& textbook, double fpp) {
  std::vector<Impl> impls(kImplCount);
  impls[kSstfilter] = SstfilterImpl(redis, fpp);
  impls[kSet] = SetImpl(redis);
  impls[kBitmap] = BitmapImpl(redis, server, textbook, /*naive=*/true);
  impls[kBitmapOneTrip] = BitmapImpl(redis, server, textbook, /*naive=*/false);
  return impls;
}

}  // namespace bench
}  // namespace sstfilter
