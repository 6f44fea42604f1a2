// The database that rocksdb_db_test's cases share, built once per run: 200,000
// random keys written through AsRocksDbFilterPolicy(native filter at
// Fpp(0.01)), flushed, compacted into several tables of one level, closed.
// Each case reopens it with the policy it is about; cases that damage tables
// work on a copy.

#ifndef SSTFILTER_TESTS_INTEGRATION_ROCKSDB_DB_FIXTURE_H_
#define SSTFILTER_TESTS_INTEGRATION_ROCKSDB_DB_FIXTURE_H_

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "filter/filter_policy.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "table/testing/real_tables.h"
#include "tests/integration/rocksdb_db_util.h"

namespace sstfilter {
namespace test {

constexpr size_t kPresentKeys = 200000;
constexpr size_t kAbsentKeys = 100000;
constexpr double kFpp = 0.01;
constexpr size_t kMultiGetKeys = 100;  // RocksDB splits it into batches of 32

// The native policy at Fpp(kFpp): the one that wrote the database.
std::shared_ptr<const FilterPolicy> NativePolicy();

// What a run of absent-key lookups cost, from RocksDB's statistics.
struct AbsentRun {
  ReadTickers delta;
  size_t in_range = 0;    // lookups that reached a table
  size_t not_absent = 0;  // lookups that did not answer NotFound
};

class RocksDbDbTest : public testing::Test {
 protected:
  static void SetUpTestSuite();
  static void TearDownTestSuite();
  void SetUp() override;

  static const std::string& path();
  static const std::vector<Entry>& entries();
  static const std::vector<std::string>& absent();

  // Opens the database at path (the shared one by default) with policy;
  // options_ holds the options, with their statistics.
  std::unique_ptr<rocksdb::DB> Open(
      std::shared_ptr<const rocksdb::FilterPolicy> policy,
      const std::string& path = "");

  // The native policy, its readers counting their calls in calls_.
  std::shared_ptr<const rocksdb::FilterPolicy> Ours();

  // Looks up every absent key, with Get or MultiGet.
  AbsentRun LookUpAbsent(rocksdb::DB* db, bool multi_get) const;

  // A copy of the shared database, removed after the test.
  std::string Copy();

  rocksdb::Options options_;
  std::shared_ptr<MayMatchCalls> calls_;

 private:
  std::vector<std::unique_ptr<TempDir>> copies_;
};

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_INTEGRATION_ROCKSDB_DB_FIXTURE_H_
