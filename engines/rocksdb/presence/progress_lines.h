// Progress lines of the presence filters' recoveries, rebuilds and saves:
// where they go, how a column family's filter is named in them, and how
// often a long scan reports.

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_PROGRESS_LINES_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_PROGRESS_LINES_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "engines/rocksdb/presence/column_family_filter.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "rocksdb/db.h"

namespace sstfilter {
namespace presence_internal {

using ProgressFn = std::function<void(const std::string& line)>;

// Lines to options.progress, or without one to db's info log (none without
// an info log). REQUIRES: db outlives the function.
ProgressFn ProgressTo(const PresenceFilterOptions& options, rocksdb::DB* db);

// "presence filter of column family '<name>'", which lines start with.
std::string Describe(const ColumnFamilyFilter& filter);

// A scan's progress line at most once per kProgressInterval:
// "<prefix>: <keys> keys read in <seconds> s".
class ProgressLines {
 public:
  ProgressLines(ProgressFn emit, std::string prefix);
  // The scan has read keys so far.
  void Keys(uint64_t keys);
  double SecondsSinceStart() const;

 private:
  ProgressFn emit_;
  std::string prefix_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_PROGRESS_LINES_H_
