// db_bench's point section: a RocksDB 7.8.3 and a LevelDB 1.23 database per
// filter configuration (db_configs.h), at the same filter memory, with point
// lookups of absent and present keys timed in each, settled and (RocksDB)
// with recent flushes in L0.

#ifndef SSTFILTER_BENCH_DB_POINT_SECTION_H_
#define SSTFILTER_BENCH_DB_POINT_SECTION_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "bench/db/db_configs.h"
#include "bench/db/db_store.h"

namespace sstfilter {
namespace bench {

// Whether a store ("rocksdb", "leveldb"), or a configuration by name, runs.
using StoreWanted = std::function<bool(const std::string& store)>;
using ConfigWanted = std::function<bool(const std::string& config)>;

// Builds every wanted configuration of the wanted stores and keeps them open,
// warms them up, then times shape.reps repetitions of shape.lookups absent and
// present lookups, each repetition asking every database in turn (an order
// rotated each repetition: bench/turns.h); then adds
// recent flushes to the RocksDB databases and times them again. The
// databases are removed before it returns. Any error stops it.
absl::StatusOr<std::vector<DbResult>> RunPointSection(
    const DbConfigs& configs, const StoreWanted& wants_store,
    const ConfigWanted& wants, const DbShape& shape, const Progress& progress);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_POINT_SECTION_H_
