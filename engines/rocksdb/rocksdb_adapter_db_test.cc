// The adapter inside a real RocksDB 7.8.3 database. Verified builds: a filter
// that loses a key (filter/testing/planted_policy.h) fails the flush with
// Corruption instead of being installed; honest policies flush, the hybrid
// ones among them, and every key reads back through their filters. The hybrid
// policy's memory cap: each table's build chooses its family, and the
// counters count the tables, not the adapter's sizing builds.

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engines/rocksdb/rocksdb_adapter.h"
#include "filter/filter_policy.h"
#include "filter/format_registry.h"
#include "filter/hybrid/hybrid.h"
#include "filter/leveldb/leveldb_bloom.h"
#include "filter/testing/filter_test_util.h"
#include "filter/testing/planted_policy.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "table/testing/real_tables.h"

namespace sstfilter {
namespace {

using test::Keys16;

constexpr uint64_t kAbsentSet = 1000;

struct Database {
  std::unique_ptr<rocksdb::DB> db;
  std::shared_ptr<rocksdb::Statistics> statistics;
};

// Opens a fresh database in dir whose tables get filter_policy's filters, in
// partitions of about 1 KB with partitioned.
Database Open(const std::string& dir,
              std::shared_ptr<const rocksdb::FilterPolicy> filter_policy,
              bool detect_filter_construct_corruption = false,
              bool partitioned = false) {
  rocksdb::BlockBasedTableOptions table_options;
  table_options.filter_policy = std::move(filter_policy);
  table_options.detect_filter_construct_corruption =
      detect_filter_construct_corruption;
  if (partitioned) {
    table_options.partition_filters = true;
    table_options.index_type =
        rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
    table_options.metadata_block_size = 1024;
  }
  rocksdb::Options options;
  options.create_if_missing = true;
  options.table_factory.reset(
      rocksdb::NewBlockBasedTableFactory(table_options));
  Database database;
  database.statistics = rocksdb::CreateDBStatistics();
  options.statistics = database.statistics;
  rocksdb::DB* raw = nullptr;
  const rocksdb::Status s = rocksdb::DB::Open(options, dir, &raw);
  EXPECT_TRUE(s.ok()) << s.ToString();
  database.db.reset(raw);
  return database;
}

// Puts keys into db and flushes them into a table.
rocksdb::Status PutAndFlush(rocksdb::DB* db,
                            const std::vector<std::string>& keys) {
  for (const std::string& key : keys) {
    const rocksdb::Status s =
        db->Put(rocksdb::WriteOptions(), key, test::ValueOf(key));
    if (!s.ok()) return s;
  }
  return db->Flush(rocksdb::FlushOptions());
}

// The planted policy's keys, in the order RocksDB adds them to a table's
// filter (sorted): 1000 keys whose last the real LevelDB filter of the other
// 999 does not match, so the planted filter, which drops the last key added,
// loses it (checked).
std::vector<std::string> KeysTheBugLoses() {
  std::vector<std::string> keys = Keys16(0, 0, 1000);
  std::sort(keys.begin(), keys.end());
  const std::unique_ptr<const FilterPolicy> honest =
      *NewLevelDbFilterPolicy(FilterOptions::Fpp(0.01));
  const std::string filter = test::BuildFilter(
      *honest, std::vector<std::string>(keys.begin(), keys.end() - 1));
  EXPECT_FALSE(honest->KeyMayMatch(keys.back(), filter));
  return keys;
}

std::shared_ptr<const FilterPolicy> Planted() {
  return *fuzz::NewDropLastKeyPolicy(FilterOptions::Fpp(0.01));
}

RocksDbAdapterOptions Verified() {
  RocksDbAdapterOptions options;
  options.verify_builds = true;
  return options;
}

TEST(RocksDbVerifiedBuildTest, FlushOfAFilterThatLosesAKeyFails) {
  const std::vector<std::string> keys = KeysTheBugLoses();
  test::TempDir dir;
  Database database =
      Open(dir.path(), AsRocksDbFilterPolicy(Planted(), Verified()));
  const rocksdb::Status s = PutAndFlush(database.db.get(), keys);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find("filter misses 1 of its 1000 keys"),
            std::string::npos)
      << s.ToString();
  std::vector<std::string> files;
  uint64_t manifest_bytes = 0;
  ASSERT_TRUE(
      database.db
          ->GetLiveFiles(files, &manifest_bytes, /*flush_memtable=*/false)
          .ok());
  for (const std::string& file : files)
    EXPECT_EQ(file.find(".sst"), std::string::npos) << file << " installed";
}

TEST(RocksDbVerifiedBuildTest, RocksDbsOwnSwitchVerifiesToo) {
  test::TempDir dir;
  Database database = Open(dir.path(), AsRocksDbFilterPolicy(Planted()),
                           /*detect_filter_construct_corruption=*/true);
  const rocksdb::Status s = PutAndFlush(database.db.get(), KeysTheBugLoses());
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
}

TEST(RocksDbVerifiedBuildTest, UnverifiedFlushInstallsTheLossyFilter) {
  // What verification prevents: without it the flush succeeds and the lost
  // key is not found.
  const std::vector<std::string> keys = KeysTheBugLoses();
  test::TempDir dir;
  Database database = Open(dir.path(), AsRocksDbFilterPolicy(Planted()));
  ASSERT_TRUE(PutAndFlush(database.db.get(), keys).ok());
  const std::string& lost = keys.back();
  std::string value;
  const rocksdb::Status s =
      database.db->Get(rocksdb::ReadOptions(), lost, &value);
  EXPECT_TRUE(s.IsNotFound()) << "the planted filter did not lose "
                              << "the largest key: " << s.ToString();
}

TEST(RocksDbVerifiedBuildTest, HonestPoliciesFlushAndReadEveryKeyBack) {
  std::vector<std::shared_ptr<const FilterPolicy>> policies;
  for (const FamilyVariant& factory : RegisteredFamilyVariants())
    policies.push_back(*factory.factory(FilterOptions::Fpp(0.01)));
  HybridOptions capped;
  capped.max_build_bytes = 1;  // every build falls back to the native filter
  capped.counters = std::make_shared<HybridCounters>();
  policies.push_back(*NewHybridFilterPolicy(FilterOptions::Fpp(0.01), capped));
  const std::vector<std::string> keys = Keys16(0, 0, 5000);
  for (const std::shared_ptr<const FilterPolicy>& policy : policies) {
    SCOPED_TRACE(policy->Name());
    test::TempDir dir;
    Database database =
        Open(dir.path(), AsRocksDbFilterPolicy(policy, Verified()));
    ASSERT_TRUE(PutAndFlush(database.db.get(), keys).ok());
    std::string value;
    for (const std::string& key : keys) {
      const rocksdb::Status s =
          database.db->Get(rocksdb::ReadOptions(), key, &value);
      ASSERT_TRUE(s.ok()) << s.ToString();
      ASSERT_EQ(value, test::ValueOf(key));
    }
    // The filter is consulted: absent keys are answered "no" by it.
    for (const std::string& key : Keys16(kAbsentSet, 0, 1000)) {
      ASSERT_TRUE(
          database.db->Get(rocksdb::ReadOptions(), key, &value).IsNotFound());
    }
    EXPECT_GT(database.statistics->getTickerCount(rocksdb::BLOOM_FILTER_USEFUL),
              900u);
  }
  EXPECT_EQ(capped.counters->fallbacks.load(), 1u);
}

TEST(RocksDbVerifiedBuildTest, EveryPartitionIsVerifiedOnItsOwnKeys) {
  // Each partition's filter is checked against the keys added since the
  // previous one: keys kept across partitions would fail the check.
  for (const FilterFamily family :
       {FilterFamily::kNative, FilterFamily::kCompact}) {
    HybridOptions hybrid;
    hybrid.family = family;
    const std::shared_ptr<const FilterPolicy> policy =
        *NewHybridFilterPolicy(FilterOptions::Fpp(0.01), hybrid);
    test::TempDir dir;
    Database database =
        Open(dir.path(), AsRocksDbFilterPolicy(policy, Verified()),
             /*detect_filter_construct_corruption=*/false,
             /*partitioned=*/true);
    const std::vector<std::string> keys = Keys16(0, 0, 20000);
    const rocksdb::Status s = PutAndFlush(database.db.get(), keys);
    ASSERT_TRUE(s.ok()) << s.ToString();
    std::string value;
    for (const std::string& key : keys) {
      ASSERT_TRUE(database.db->Get(rocksdb::ReadOptions(), key, &value).ok());
    }
    // Several partitions were cut: a filter of 20000 keys takes well over
    // the 1 KB a partition is cut at (RocksDB cuts filter partitions with
    // the index's).
    rocksdb::TablePropertiesCollection tables;
    ASSERT_TRUE(database.db->GetPropertiesOfAllTables(&tables).ok());
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_GT(tables.begin()->second->filter_size, 10u * 1024);
    EXPECT_GT(tables.begin()->second->index_partitions, 1u);
  }
}

TEST(RocksDbHybridTest, CapChoosesTheFamilyTableByTable) {
  // Capped between the projected peaks of 2000 and 5000 keys (at 1%: about
  // 110 KB and 270 KB): the first flush builds the compact filter, the
  // second falls back to the native one. The adapter's own sizing build (an
  // empty filter, when it is created) is not counted.
  HybridOptions hybrid;
  hybrid.max_build_bytes = 200000;
  hybrid.counters = std::make_shared<HybridCounters>();
  const std::shared_ptr<const FilterPolicy> policy =
      *NewHybridFilterPolicy(FilterOptions::Fpp(0.01), hybrid);
  test::TempDir dir;
  Database database = Open(dir.path(), AsRocksDbFilterPolicy(policy));
  const std::vector<std::string> small = Keys16(0, 0, 2000);
  const std::vector<std::string> large = Keys16(1, 0, 5000);
  ASSERT_TRUE(PutAndFlush(database.db.get(), small).ok());
  EXPECT_EQ(hybrid.counters->compact_builds.load(), 1u);
  EXPECT_EQ(hybrid.counters->fallbacks.load(), 0u);
  ASSERT_TRUE(PutAndFlush(database.db.get(), large).ok());
  EXPECT_EQ(hybrid.counters->compact_builds.load(), 1u);
  EXPECT_EQ(hybrid.counters->native_builds.load(), 1u);
  EXPECT_EQ(hybrid.counters->fallbacks.load(), 1u);
  std::string value;
  for (const std::vector<std::string>* keys : {&small, &large}) {
    for (const std::string& key : *keys) {
      ASSERT_TRUE(database.db->Get(rocksdb::ReadOptions(), key, &value).ok());
    }
  }
}

}  // namespace
}  // namespace sstfilter
