// db_bench's output for the presence section (presence_section.h): a text
// table with the targets and whether each is met, and one JSON object per
// configuration, from which //docs:results_table prints the markdown of
// docs/presence_filtered_db.md, so that the page's figures are never typed.

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_BENCH_PRESENCE_REPORT_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_BENCH_PRESENCE_REPORT_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "bench/db/db_store.h"
#include "engines/rocksdb/presence/bench/presence_section.h"

namespace sstfilter {
namespace bench {

// The targets on this machine, each against the same database opened by
// RocksDB alone: absent Gets per second with the data in the page cache at
// least kAbsentGetTarget times RocksDB's; present Gets, the mixed sweep's
// Gets at each mix and fill writes at least kPresentGetTarget,
// kMixedGetTarget and kFillTarget times; reopening a cleanly closed database
// of kReopenTargetKeys keys at most kReopenExtraSecondsTarget seconds more
// than RocksDB's open.
constexpr double kAbsentGetTarget = 10;
constexpr double kPresentGetTarget = 0.98;
constexpr double kMixedGetTarget = 0.98;
constexpr double kFillTarget = 0.95;
constexpr double kReopenExtraSecondsTarget = 1.0;
constexpr uint64_t kReopenTargetKeys = 10'000'000;

struct PresenceTargetCheck {
  std::string target;  // what is compared, and the bound, in words
  double figure = 0;
  double bound = 0;
  bool at_least = true;  // figure >= bound (else figure <= bound)
  bool met = false;
  // Set when the target is stated for another key count than the run's.
  std::optional<uint64_t> stated_at_keys;
};

std::vector<PresenceTargetCheck> CheckPresenceTargets(
    const PresenceResult& result);

void PrintPresenceTable(const DbShape& shape,
                        const std::vector<PresenceResult>& results,
                        std::ostream& out);
void PrintPresenceJson(const DbShape& shape,
                       const std::vector<PresenceResult>& results,
                       std::ostream& out);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_BENCH_PRESENCE_REPORT_H_
