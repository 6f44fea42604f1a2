// Each engine's side of crash_db.h (crash_db_leveldb.cc, crash_db_rocksdb.cc).

#ifndef SSTFILTER_TESTS_CRASH_CRASH_DB_ENGINES_H_
#define SSTFILTER_TESTS_CRASH_CRASH_DB_ENGINES_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "tests/crash/crash_db.h"

namespace sstfilter {
namespace test {

// CrashDb::Open for each engine; env and listener may be null.
absl::StatusOr<std::unique_ptr<CrashDb>> OpenLevelDbCrashDb(
    const std::string& policy, const std::string& dir, leveldb::Env* env,
    BackgroundWorkListener* listener);
// config.engine is kRocksDb; presence_filtered or not.
absl::StatusOr<std::unique_ptr<CrashDb>> OpenRocksDbCrashDb(
    const CrashConfig& config, const std::string& dir, rocksdb::Env* env,
    BackgroundWorkListener* listener);

// CheckTableFilters for one table.
absl::Status CheckLevelDbTableFilter(const std::string& path,
                                     const std::string& filter_name);
absl::Status CheckRocksDbTableFilter(const std::string& path,
                                     const std::string& filter_name);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_CRASH_CRASH_DB_ENGINES_H_
