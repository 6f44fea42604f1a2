// What the presence tests share: a filter sized for small test databases, an
// open that waits until the filters serve, and a merge operator.

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_PRESENCE_TESTING_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_PRESENCE_TESTING_H_

#include <chrono>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "gtest/gtest.h"
#include "rocksdb/options.h"
#include "table/testing/append_operator.h"

namespace sstfilter {
namespace presence_testing {

// The longest a test waits for recoveries and rebuilds.
constexpr std::chrono::milliseconds kServingWait{60000};

// A filter for 10^4 keys at 1%, with its progress lines dropped.
inline PresenceFilterOptions SmallFilter() {
  PresenceFilterOptions options;
  options.expected_keys = 10000;
  options.progress = [](const std::string&) {};
  // The tests count the absent keys the filter rules out: every lookup
  // probes (presence_filtered_db_test tests the skipping itself).
  options.skip_probes_when_mostly_present = false;
  return options;
}

// Opens the database at path and waits until its filters serve; null (and a
// test failure) when either fails.
inline std::unique_ptr<PresenceFilteredDB> OpenServing(
    const std::string& path, const rocksdb::Options& options,
    const PresenceFilterOptions& filter_options) {
  absl::StatusOr<std::unique_ptr<PresenceFilteredDB>> db =
      PresenceFilteredDB::Open(options, path, filter_options);
  EXPECT_TRUE(db.ok()) << db.status();
  if (!db.ok()) return nullptr;
  absl::Status serving = (*db)->WaitUntilServing(kServingWait);
  EXPECT_TRUE(serving.ok()) << serving;
  return *std::move(db);
}

// Merge operands appended with ',' (table/testing/append_operator.h).
using ::sstfilter::test::AppendOperator;

}  // namespace presence_testing
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_PRESENCE_TESTING_H_
