// TableFilter::KeyMayMatch from many threads at once, on the three layouts: a
// RocksDB full filter, LevelDB's per-2 KB filters (which also search the
// index block) and RocksDB's partitioned filters (whose partitions the
// threads' first questions load). Run under ThreadSanitizer by .ci/run (tag
// "tsan"): concurrent lookups get the answers one thread gets, and each
// partition is read once.

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "engines/rocksdb/rocksdb_adapter.h"
#include "engines/testing/policy_tables.h"
#include "filter/bloom/bloom.h"
#include "gtest/gtest.h"
#include "table/table_filter.h"
#include "table/testing/real_tables.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

constexpr int kThreads = 4;

// Asks every key of queries from kThreads threads at once and expects the
// answers one thread got first.
void ExpectSameAnswersFromThreads(const TableFilter& table,
                                  const std::vector<std::string>& queries) {
  std::vector<char> want(queries.size());
  for (size_t i = 0; i < queries.size(); ++i)
    want[i] = table.KeyMayMatch(queries[i]);
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (size_t i = t; i < queries.size() + t; ++i) {
        const size_t j = i % queries.size();
        if (table.KeyMayMatch(queries[j]) != static_cast<bool>(want[j]))
          mismatches.fetch_add(1);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(mismatches.load(), 0);
}

class TableFilterThreadsTest : public testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
        NewBloomFilterPolicy(FilterOptions::Fpp(0.01));
    ASSERT_TRUE(policy.ok()) << policy.status();
    policy_ = *std::move(policy);
    keys_ = test::SortedHexKeys(5000, 1);
    queries_ = keys_;
    const std::vector<std::string> absent = test::SortedHexKeys(5000, 2);
    queries_.insert(queries_.end(), absent.begin(), absent.end());
  }

  test::TempDir dir_;
  std::shared_ptr<const FilterPolicy> policy_;
  std::vector<std::string> keys_;
  std::vector<std::string> queries_;
};

TEST_F(TableFilterThreadsTest, FullFilter) {
  const std::string path = dir_.File("table.sst");
  ASSERT_TRUE(test::WriteRocksDbTableWith(policy_, path, keys_).ok());
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::OpenFile(path, {});
  ASSERT_TRUE(table.ok()) << table.status();
  ExpectSameAnswersFromThreads(**table, queries_);
}

TEST_F(TableFilterThreadsTest, PerDataRangeFilters) {
  const std::string path = dir_.File("table.ldb");
  ASSERT_TRUE(test::WriteLevelDbTableWith(policy_, path, keys_).ok());
  TableFilterOptions open_options;
  open_options.index_keys = IndexKeys::kUser;
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::OpenFile(path, open_options);
  ASSERT_TRUE(table.ok()) << table.status();
  ASSERT_GT((*table)->info().num_filters, 1u) << "want several filters";
  ExpectSameAnswersFromThreads(**table, queries_);
}

TEST_F(TableFilterThreadsTest, PartitionsLoadedByRacingThreads) {
  const std::string path = dir_.File("partitioned.sst");
  test::RocksDbTableOptions table_options;
  table_options.filter_policy = AsRocksDbFilterPolicy(policy_);
  table_options.partition_filters = true;
  table_options.metadata_block_size = 512;
  ASSERT_TRUE(test::WriteRocksDbTable(path, keys_, table_options).ok());
  TableFilterOptions open_options;
  open_options.tail_prefetch_bytes = 0;  // no partition comes with the tail
  absl::StatusOr<std::unique_ptr<TableFilter>> reference =
      TableFilter::OpenFile(path, open_options);
  ASSERT_TRUE(reference.ok()) << reference.status();
  std::vector<char> want(queries_.size());
  for (size_t i = 0; i < queries_.size(); ++i) {
    want[i] = (*reference)->KeyMayMatch(queries_[i]);
  }

  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::OpenFile(path, open_options);
  ASSERT_TRUE(table.ok()) << table.status();
  const size_t partitions = (*table)->info().num_filters;
  ASSERT_GT(partitions, 4u);
  const int opened_reads = (*table)->io().reads;
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      // Each thread starts elsewhere, so first loads race.
      const size_t start = t * queries_.size() / kThreads;
      for (size_t i = 0; i < queries_.size(); ++i) {
        const size_t j = (start + i) % queries_.size();
        if ((*table)->KeyMayMatch(queries_[j]) != static_cast<bool>(want[j]))
          mismatches.fetch_add(1);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_EQ((*table)->io().reads, opened_reads + static_cast<int>(partitions))
      << "each partition read once";
  EXPECT_TRUE((*table)->corruption().ok());
}

}  // namespace
}  // namespace sstfilter
