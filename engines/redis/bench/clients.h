// The implementations redis_bench measures (docs/redis_bench_names.h), each as
// a client that one thread drives over its own connection, and how each is
// created on the server before it is loaded.

#ifndef SSTFILTER_ENGINES_REDIS_BENCH_CLIENTS_H_
#define SSTFILTER_ENGINES_REDIS_BENCH_CLIENTS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engines/redis/redis_client.h"
#include "engines/redis/redis_server.h"

namespace sstfilter {
namespace bench {

// Keys per round trip of a pipelined client.
constexpr size_t kPipelineKeys = 1024;

// One implementation, as one client thread drives it.
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
  std::string name;          // its kImplNames entry
  std::string add_commands;  // per key, as the table says
  std::string query_commands;
  double round_trips_single = 1;  // per key when each waits for its reply
  std::function<absl::StatusOr<std::unique_ptr<Client>>()> connect;
  std::function<absl::Status(uint64_t keys)> create;
};

// The textbook filter's size for n keys at fpp: m = -n ln p / ln^2 2 bits,
// k = round(m/n ln 2).
struct Textbook {
  uint64_t bits;
  int k;
};
Textbook TextbookSizing(uint64_t n, double fpp);

// The implementations in kImplNames's order, the filters sized for fpp and
// the bitmap by textbook. They refer to *server, which must outlive them.
std::vector<Impl> MakeImpls(const RedisOptions& redis,
                            const test::RedisServer* server,
                            const Textbook& textbook, double fpp);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_REDIS_BENCH_CLIENTS_H_
