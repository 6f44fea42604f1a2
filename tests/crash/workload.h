// The crash tests' workload and what a reopened database must hold after it.
//
// Op i of a workload is a pure function of (seed, i), so the writer process
// reports only the indices of the operations the engine acknowledged and the
// test replays them into a Model. Keys are drawn from a small key space, so a
// workload overwrites and deletes the same keys again and again; each value
// names the op that wrote it, so a wrong value says which write it came from.

#ifndef SSTFILTER_TESTS_CRASH_WORKLOAD_H_
#define SSTFILTER_TESTS_CRASH_WORKLOAD_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace sstfilter {
namespace test {

// Keys a workload writes: ids 0 .. kKeySpace - 1.
constexpr uint64_t kKeySpace = 3000;
// Bytes of each value: with the crash tests' 64 KB write buffers, a flush
// about every 450 writes.
constexpr size_t kValueBytes = 120;

// Key number id of the workload: 16 hex digits of a bijective mix of id, so
// consecutive ids scatter over the key order. REQUIRES: id < kKeySpace.
std::string WorkloadKey(uint64_t id);

// Keys no workload writes, of the same form, falling between the written keys
// so that a lookup reaches the tables' filters (one outside every table's key
// range would be ruled out before any filter, and prove nothing).
std::string NeverWrittenKey(uint64_t j);

struct Op {
  enum Type { kPut, kDelete };
  uint64_t index = 0;
  Type type = kPut;
  std::string key;
  std::string value;  // empty for kDelete
};

// Op i of the workload with this seed: a put (four in five) or a delete of a
// uniformly chosen key of the key space.
Op WorkloadOp(uint64_t seed, uint64_t i);

// What a lookup returns: the value, or nullopt for NotFound.
using Lookup = std::function<absl::StatusOr<std::optional<std::string>>(
    const std::string& key)>;

// The state the acknowledged operations leave: each key of the key space
// with its last value, or absent (never written, or deleted last).
class Model {
 public:
  void Apply(const Op& op);
  // Sets key's state to what a reopened database was found to hold.
  void Set(const std::string& key, std::optional<std::string> value);
  std::optional<std::string> Get(const std::string& key) const;
  size_t present() const { return values_.size(); }

 private:
  std::map<std::string, std::string> values_;
};

// Checks a database through lookup against model, allowing for each key
// either its model state or the outcome of any of `maybe` on that key
// (operations that may or may not have reached the database: the write in
// flight when the writer was killed, or writes acknowledged without a sync
// before a power loss). Looks up every key of the key space and
// never_written_keys keys that were never written. Returns OK, or an
// InternalError naming the first key that is wrong, what was found and what
// was allowed; an error of a lookup is returned as it is.
absl::Status CheckDatabase(const Model& model, absl::Span<const Op> maybe,
                           const Lookup& lookup, size_t never_written_keys);

// The keys CheckDatabase looks up, in its order: every key of the key space,
// then never_written_keys keys that were never written.
std::vector<std::string> CheckedKeys(size_t never_written_keys);

// After CheckDatabase passed: sets the model's state of each key of `maybe`
// to what the database holds, so that later checks need not allow them.
absl::Status ResolveMaybe(absl::Span<const Op> maybe, const Lookup& lookup,
                          Model* model);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_CRASH_WORKLOAD_H_
